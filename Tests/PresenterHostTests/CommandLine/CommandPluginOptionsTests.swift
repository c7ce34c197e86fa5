import Foundation
import Glibc
import Testing
@testable import HostPlugins
@testable import HostCommandLine

/// Every command honours every plugin option it takes, given before its
/// name or after it, and refuses the others with a usage error that says
/// why: none is accepted and then dropped (issue 20, item 1). Through the
/// real binary.
@Suite struct CommandPluginOptionsTests {
    /// What each command that loads plugins does with a presenter id, in
    /// plain mode (or, where its presenter must run, in a terminal) and
    /// without the network: runs `true`, reads an empty stdin, saves a
    /// bookmark whose title is given.
    enum Command: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case run, drive, addBookmark = "add-bookmark"
        var testDescription: String { rawValue }

        /// The work ends at once, which hurries the presenter process: its
        /// start and load then get one hook budget, which a loaded machine
        /// can spend before the plugin is loaded. A long budget lets the
        /// marks count the process's load every time. `run` keeps an
        /// outcome, or it would let a presenter that draws nothing go unloaded.
        func arguments(presenter: String, store: String) -> [String] {
            let hooks = ["--hook-timeout", "10"]
            return switch self {
            case .run: hooks + ["--presenter", presenter, "--success", "Done", "--", "true"]
            case .drive: hooks + ["--presenter", presenter]
            case .addBookmark:
                hooks + [
                    "--add", "--url", "https://example.org/", "--title", "T", "--store", store, "--presenter",
                    presenter,
                ]
            }
        }
    }

    /// A plugin folder with the marking fixture (each load of it leaves a
    /// line in a file), and a home, a cache and a store of their own.
    private struct Setup {
        let plugins: URL
        let home = TestPaths.temporaryDirectory("home")
        let cacheHome = TestPaths.temporaryDirectory("cache-home")
        let mark = TestPaths.temporaryDirectory("mark").appendingPathComponent("loaded").path

        init() throws { plugins = try FixtureBuilder.directory([.marking]) }

        var cacheFile: String { cacheHome.path + "/presenter-host/registry.cache" }
        var store: String { home.path + "/bookmarks.json" }
        var marks: Int { ((try? String(contentsOfFile: mark, encoding: .utf8)) ?? "").split(separator: "\n").count }

        /// `before` the command's name, `after` it, then what the command
        /// needs; in a terminal when its presenter must run (plain mode runs none).
        func host(
            _ command: Command, before: [String] = [], after: [String] = [], presenter: String = "fixture.marking",
            inTerminal: Bool = false
        ) throws -> ProcessResult {
            try host(
                before + [command.rawValue] + after + command.arguments(presenter: presenter, store: store),
                inTerminal: inTerminal)
        }

        func host(_ arguments: [String], inTerminal: Bool = false) throws -> ProcessResult {
            let environment = [
                "HOME": home.path, "XDG_DATA_HOME": home.path, "XDG_CACHE_HOME": cacheHome.path,
            ].merging(MarkingFixture.environment(mark: mark)) { $1 }
            if inTerminal { return try ProcessRunner.hostInTerminal(arguments, environment: environment) }
            return try ProcessRunner.host(arguments, environment: environment.merging(["CI": "1"]) { $1 })
        }
    }

    /// Where an option goes: before the command's name or after it.
    enum Place: String, CaseIterable, Sendable { case before, after }

    private func place(_ options: [String], _ place: Place) -> (before: [String], after: [String]) {
        place == .before ? (options, []) : ([], options)
    }

    /// The plugin options, and --trace, which may also come before the
    /// command's name: each command takes each or refuses it.
    @Test func everyCommandTakesOrRefusesEveryPluginOption() {
        for command in CommandTable.commands {
            for name in CommandTable.pluginOptionNames + [CommandTable.trace.name] {
                let takes = command.option(named: name) != nil
                let refuses = command.refused.contains { $0.names.contains(name) }
                #expect(takes != refuses, "\(command.name) neither takes nor refuses \(name), or both")
            }
        }
    }

    @Test(arguments: Command.allCases, Place.allCases)
    func pluginDirAndBundledOnly(command: Command, place: Place) throws {
        let setup = try Setup()
        let (before, after) = self.place(["--plugin-dir", setup.plugins.path], place)
        let found = try setup.host(command, before: before, after: after)
        #expect(found.status == 0, "\(found.stderr)")
        let (bundledBefore, bundledAfter) = self.place(["--bundled-only"], place)
        let bundled = try setup.host(command, before: before + bundledBefore, after: after + bundledAfter)
        #expect(bundled.status == 64)
        #expect(bundled.stderr.hasPrefix("Error: no presenter 'fixture.marking'"), "\(bundled.stderr)")
    }

    @Test(arguments: Command.allCases, Place.allCases)
    func allowInsecurePlugins(command: Command, place: Place) throws {
        let setup = try Setup()
        #expect(chmod(setup.plugins.path, 0o775) == 0)
        let (before, after) = self.place(["--plugin-dir", setup.plugins.path], place)
        let refused = try setup.host(command, before: before, after: after)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("no presenter 'fixture.marking'"), "\(refused.stderr)")
        let (allowBefore, allowAfter) = self.place([PluginPolicy.allowInsecureFlag], place)
        // Its presenter process loads the file under the same rules.
        let allowed = try setup.host(
            command, before: before + allowBefore, after: after + allowAfter, inTerminal: true)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(!allowed.stderr.contains("writable"), "\(allowed.stderr)")
        #expect(setup.marks >= 2, "the presenter process did not load the presenter")
    }

    @Test(arguments: Command.allCases, Place.allCases)
    func noCacheAndRescan(command: Command, place: Place) throws {
        let setup = try Setup()
        let (before, after) = self.place(["--plugin-dir", setup.plugins.path], place)
        let (noCacheBefore, noCacheAfter) = self.place(["--no-cache"], place)
        let uncached = try setup.host(
            command, before: before + noCacheBefore, after: after + noCacheAfter, presenter: "mbhud")
        #expect(uncached.status == 0, "\(uncached.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.cacheFile), "--no-cache wrote the cache")

        // Warm: nothing scans the marking fixture again, unless --rescan.
        _ = try setup.host(["--plugin-dir", setup.plugins.path, "--list"])
        let marks = setup.marks
        let warm = try setup.host(command, before: before, after: after, presenter: "mbhud")
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(setup.marks == marks)
        let (rescanBefore, rescanAfter) = self.place(["--rescan"], place)
        let rescanned = try setup.host(
            command, before: before + rescanBefore, after: after + rescanAfter, presenter: "mbhud")
        #expect(rescanned.status == 0, "\(rescanned.stderr)")
        #expect(setup.marks == marks + 1, "--rescan did not scan the file again")
    }

    /// check: bases come from --plugin-dir (not with --bundled-only), and
    /// the file checked is loaded under --allow-insecure-plugins' rules.
    @Test(arguments: Place.allCases)
    func checkTakesPluginDirBundledOnlyAndAllowInsecure(place: Place) throws {
        let bases = try FixtureBuilder.directory([.good])
        let folder = TestPaths.temporaryDirectory("child")
        let child = folder.appendingPathComponent("libchild.so")
        try FixtureBuilder.compile(
            FixtureBuilder.sources.appendingPathComponent("presenter.c"), to: child,
            flags: ["-DFIXTURE_ID=\"fixture.child\"", "-DFIXTURE_EXTENDS=\"fixture.good\""])
        func check(_ options: [String]) throws -> String {
            let (before, after) = self.place(options, place)
            return try ProcessRunner.host(before + ["check", "--hook-timeout", "10"] + after + [child.path]).stdout
        }
        #expect(try check([]).contains("extends 'fixture.good', which is not on the search path"))
        let found = try check(["--plugin-dir", bases.path])
        #expect(found.contains("PASS  descriptor"), "\(found)")
        // The base was found there and checked (the fixture's own show and
        // render never call it: a base check that sees the base says so).
        #expect(found.contains("base: it extends 'fixture.good' but never calls its base's show"), "\(found)")
        let bundledOnly = try check(["--plugin-dir", bases.path, "--bundled-only"])
        #expect(bundledOnly.contains("extends 'fixture.good', which is not on the search path"), "\(bundledOnly)")

        #expect(chmod(folder.path, 0o775) == 0)
        let refused = try check(["--plugin-dir", bases.path])
        #expect(refused.contains("FAIL  loads: its directory is writable by group"), "\(refused)")
        let allowed = try check(["--plugin-dir", bases.path, PluginPolicy.allowInsecureFlag])
        #expect(allowed.contains("PASS  loads"), "\(allowed)")
        #expect(allowed.contains("PASS  create-destroy"), "the sessions refused the file: \(allowed)")
    }

    /// `--print-plugin-path --bundled-only`: the bundled folder alone.
    @Test(arguments: Place.allCases)
    func printPluginPathTakesBundledOnly(place: Place) throws {
        let folder = TestPaths.temporaryDirectory("flag")
        let options = ["--plugin-dir", folder.path, "--bundled-only"]
        let result = try ProcessRunner.host(
            place == .before ? options + ["--print-plugin-path"] : ["--print-plugin-path"] + options)
        #expect(result.status == 0)
        #expect(
            result.stdout == TestPaths.binary.resolvingSymlinksInPath().deletingLastPathComponent().path + "\n")
    }

    /// The options a command does not take: 64, its usage, and why.
    @Test(
        arguments: [
            (
                ["check", "x.so"], "--rescan", "check",
                "it checks every file as it is now and never uses the registry cache"
            ),
            (
                ["check", "x.so"], "--no-cache", "check",
                "it checks every file as it is now and never uses the registry cache"
            ),
            (["bookmarks"], "--plugin-dir=/p", "bookmarks", "it reads the bookmark store and loads no plugin"),
            (["bookmarks"], "--bundled-only", "bookmarks", "it reads the bookmark store and loads no plugin"),
            (["completions", "bash"], "--rescan", "completions", "it prints a script and loads no plugin"),
            (
                ["--print-plugin-path"], PluginPolicy.allowInsecureFlag, "--print-plugin-path",
                "it prints the search path and loads no plugin"
            ),
            (
                ["--print-plugin-path"], "--no-cache", "--print-plugin-path",
                "it prints the search path and loads no plugin"
            ),
            (["bookmarks"], "--trace", "bookmarks", "it reads the bookmark store and loads no plugin"),
            (["completions", "bash"], "--trace", "completions", "it prints a script and loads no plugin"),
            (
                ["--print-plugin-path"], "--trace", "--print-plugin-path",
                "it prints the search path and loads no plugin"
            ),
            (
                ["check", "x.so"], "--trace", "check",
                "it traces every hook call itself and reports what it finds; to see a trace, run the presenter: presenter-host --trace run --presenter ID -- sleep 1"
            ),
        ] as [([String], String, String, String)])
    func aRefusedOptionIsAUsageErrorSayingWhy(command: [String], option: String, name: String, reason: String) throws {
        let flag = ArgumentParser.split(option).name
        let usage = try #require(CommandTable.commands.first { $0.name == name })
        for arguments in [[option] + command, command.prefix(1) + [option] + command.dropFirst()] {
            let result = try ProcessRunner.host(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(
                result.stderr
                    == "Error: \(flag) does not apply to \(name): \(reason)\n" + Usage.usageLines(usage)
                    + Usage.seeHelp(usage), "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// --version loads no plugin and calls no hook: an option before it is
    /// refused, not dropped.
    @Test(arguments: [["--trace"], ["--plugin-dir", "/p"], ["--bundled-only"]])
    func anOptionBeforeVersionIsAUsageError(options: [String]) throws {
        let result = try ProcessRunner.host(options + ["--version"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: \(options[0]) does not apply to --version: it prints the version and loads no plugin\n"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
