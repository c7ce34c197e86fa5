import Foundation
import Glibc
import Testing
@testable import HostText
@testable import HostPlugins
@testable import HostCommandLine

/// `presenter-host --list` run as a process: the table, `-v`, `--json`, the
/// search path, and broken files on stderr.
@Suite struct ListCommandTests {
    /// Runs the built binary with a private, empty home (no user plugins).
    private func host(
        _ arguments: [String], environment: [String: String] = [:],
        executable: URL = TestPaths.binary
    ) throws -> ProcessResult {
        let home = TestPaths.temporaryDirectory("home")
        let isolated = ["HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("share").path]
        return try ProcessRunner.run(executable, arguments, environment: isolated.merging(environment) { $1 })
    }

    /// The lines of `stderr` about files in `directory`.
    private func errorLines(_ stderr: String, in directory: URL) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("presenter-host: \(directory.path)/") }
    }

    /// `--json` output, parsed.
    private func json(_ result: ProcessResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(result.stdout)")
    }

    private func plugins(_ document: [String: Any]) throws -> [String: [String: Any]] {
        let list = try #require(document["plugins"] as? [[String: Any]])
        return Dictionary(list.map { ($0["id"] as? String ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func theTableListsPresentersAndBrokenFilesGoToStderr() throws {
        let directory = try FixtureBuilder.directory([.good, .twoPresenters, .text, .noEntryPoint])
        let result = try host(["--plugin-dir", directory.path, "--list"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        #expect(lines.first == ["ID", "NAME", "VERSION", "EXTENDS", "CAPABILITIES", "FILE"])
        #expect(
            lines.dropFirst().prefix(3).map { $0 } == [
                [
                    "fixture.good", "Good", "Fixture", "1.0.0", "-", "messages,determinate",
                    directory.path + "/libgood.so",
                ],
                [
                    "fixture.base", "Base", "Fixture", "2.0.0", "-", "messages",
                    directory.path + "/libtwo-presenters.so",
                ],
                [
                    "fixture.derived", "Derived", "Fixture", "2.1.0", "fixture.base", "-",
                    directory.path + "/libtwo-presenters.so",
                ],
            ])
        #expect(
            errorLines(result.stderr, in: directory) == [
                "presenter-host: \(directory.path)/libno-entry-point.so: not a presenter plugin: no presenter_plugin_descriptor symbol; remove it from the plugin directory",
                "presenter-host: \(directory.path)/libtext.so: is a text file, not an ELF shared library; remove it from the plugin directory",
            ])
    }

    @Test func verboseAddsDetailsHooksAndTheSearchPath() throws {
        let directory = try FixtureBuilder.directory([.twoPresenters, .good])
        let result = try host(
            ["--plugin-dir", directory.path, "--list", "-v"],
            environment: ["PRESENTER_PLUGIN_PATH": "/nonexistent-presenter-env"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("    ABI:         1.4\n"))
        #expect(result.stdout.contains("    Description: A fixture presenter for the loader tests.\n"))
        #expect(result.stdout.contains("    Author:      presenter-host tests\n    License:     MIT\n"))
        #expect(
            result.stdout.contains(
                "    Hooks:       own: show; inherited: hide (fixture.base), render (fixture.base); none: create, destroy, progress, key\n"
            ))
        #expect(
            result.stdout.contains("    Hooks:       own: show, hide, render; none: create, destroy, progress, key\n"))
        let searchPath = result.stdout.components(separatedBy: "\nSearch path, in order").last ?? ""
        #expect(
            searchPath.contains(
                "\n  flag     exists   \(directory.path)\n  env      missing  /nonexistent-presenter-env\n  user     missing  "
            ))
        #expect(searchPath.contains("\n  bundled  exists   \(TestPaths.products.path)\n"))
    }

    @Test func jsonHasTheDocumentedKeysAndStaysValidWhenAPluginPrints() throws {
        let directory = try FixtureBuilder.directory([.good, .twoPresenters, .noisy, .truncated])
        let result = try host(["--plugin-dir", directory.path, "--list", "--json"])
        #expect(result.status == 0)
        let document = try json(result)
        #expect(Set(document.keys) == ["plugins", "errors", "searchPath"])
        let byId = try plugins(document)
        let good = try #require(byId["fixture.good"])
        #expect(good["name"] as? String == "Good Fixture")
        #expect(good["version"] as? String == "1.0.0")
        #expect(good["extends"] is NSNull)
        #expect(good["supportsMessages"] as? Bool == true)
        #expect(good["path"] as? String == directory.path + "/libgood.so")
        #expect(byId["fixture.derived"]?["extends"] as? String == "fixture.base")
        #expect(byId["fixture.derived"]?["supportsMessages"] as? Bool == false)
        #expect(byId["fixture.noisy"] != nil)

        let errors = try #require(document["errors"] as? [[String: String]])
        let truncated = errors.filter { $0["path"] == directory.path + "/libtruncated.so" }
        #expect(truncated.count == 1)
        #expect(truncated.first?["reason"]?.hasPrefix("truncated: segment ") == true)

        let searchPath = try #require(document["searchPath"] as? [[String: Any]])
        #expect(searchPath.first?["path"] as? String == directory.path)
        #expect(searchPath.first?["origin"] as? String == "flag")
        #expect(searchPath.first?["exists"] as? Bool == true)
        #expect(searchPath.last?["origin"] as? String == "bundled")

        // What the plugin printed never reached stdout: it ran in the scan
        // helper, whose output goes nowhere (the host loads no file itself).
        #expect(!result.stdout.contains("noisy:"))
    }

    @Test func theEnvironmentPathIgnoresRelativeEntriesWithAWarning() throws {
        let directory = try FixtureBuilder.directory([.good])
        let result = try host(
            ["--list", "--json"], environment: ["PRESENTER_PLUGIN_PATH": "relative/plugins:" + directory.path])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "presenter-host: warning: ignoring relative entry 'relative/plugins' in PRESENTER_PLUGIN_PATH; use an absolute path\n"
            ))
        #expect(try plugins(json(result))["fixture.good"]?["path"] as? String == directory.path + "/libgood.so")
    }

    @Test func aPluginDirBeatsTheEnvironmentAndTheLaterDuplicateIsShadowed() throws {
        let flagged = try FixtureBuilder.directory([.good])
        let environment = try FixtureBuilder.directory([.duplicate])
        let result = try host(
            ["--list", "--plugin-dir", flagged.path], environment: ["PRESENTER_PLUGIN_PATH": environment.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains(flagged.path + "/libgood.so"))
        #expect(!result.stdout.contains("Duplicate Of Good"))
        #expect(
            errorLines(result.stderr, in: environment) == [
                "presenter-host: \(environment.path)/libduplicate.so: presenter 'fixture.good' is shadowed by \(flagged.path)/libgood.so, which comes first in the search path; remove one of them"
            ])
    }

    @Test func theUserDirectoryIsSearched() throws {
        let dataHome = TestPaths.temporaryDirectory("data-home")
        let plugins = dataHome.appendingPathComponent("presenter-host/plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FixtureBuilder.place(.good, in: plugins)
        let result = try host(["--list", "--json"], environment: ["XDG_DATA_HOME": dataHome.path])
        #expect(try self.plugins(json(result))["fixture.good"]?["path"] as? String == plugins.path + "/libgood.so")
    }

    @Test func theSystemDirectoryUnderTheInstallPrefixIsSearched() throws {
        let prefix = TestPaths.temporaryDirectory("prefix")
        let bin = prefix.appendingPathComponent("bin")
        let plugins = prefix.appendingPathComponent("lib/presenter-host/plugins")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try copyHost(into: bin)
        try FixtureBuilder.place(.good, in: plugins)
        let result = try host(["--list", "--json"], executable: bin.appendingPathComponent("presenter-host"))
        let document = try json(result)
        #expect(try self.plugins(document)["fixture.good"]?["path"] as? String == plugins.path + "/libgood.so")
        let origins = (document["searchPath"] as? [[String: Any]] ?? []).compactMap { $0["origin"] as? String }
        #expect(origins == ["user", "system", "bundled"])
    }

    /// The promise: broken files never crash the listing. Each of
    /// these kills or hangs the process that loads it; the scan helper takes
    /// the blow, the listing names the file and lists the good plugins.
    @Test(arguments: [["--list", "--json"], ["--list"]])
    func filesThatKillTheirLoaderAreReportedAndTheListingGoesOn(arguments: [String]) throws {
        let directory = try FixtureBuilder.directory(Fixture.hostile + [.cxx, .good, .twoPresenters, .noisy])
        let result = try host(
            ["--plugin-dir", directory.path] + arguments,
            environment: ["PRESENTER_SCAN_TIMEOUT_MS": String(TestTime.scaled(milliseconds: 1000))])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = [
            (Fixture.bitFlipAssertion, "ended the process while loading (exit status 127)"),
            (
                .bitFlipCrash,
                "crashed while loading (SIGSEGV): the file is corrupt or not built for this ABI; remove or rebuild it"
            ),
            (.constructorAbort, "crashed while loading (SIGABRT)"),
            (
                .constructorExit,
                "ended the process while loading (exit status \(Sanitizer.statusOfExitInsideDlopen(3)))"
            ),
            (.constructorHang, PluginLoadFailure.timedOut(seconds: TestTime.scaled(1)).description),
            (.garbageEntryPoint, "crashed while loading (SIGSEGV)"),
            (.garbageString, "crashed while loading (SIGSEGV)"),
        ]
        if arguments.contains("--json") {
            let document = try json(result)
            #expect(
                Set(try plugins(document).keys).isSuperset(of: [
                    "fixture.cxx", "fixture.good", "fixture.base", "fixture.derived",
                    "fixture.noisy", "mbhud", "addbookmark",
                ]))
            let errors = try #require(document["errors"] as? [[String: String]])
            #expect(errors.count == expected.count)
            for ((fixture, reason), error) in zip(expected, errors) {
                #expect(error["path"] == directory.appendingPathComponent(fixture.fileName).path)
                #expect(error["reason"]?.hasPrefix(reason) == true, "\(error)")
            }
        } else {
            #expect(result.stdout.contains("\nfixture.good "))
            #expect(result.stdout.contains("\nmbhud "))
            let lines = errorLines(result.stderr, in: directory)
            #expect(lines.count == expected.count, "\(result.stderr)")
            for ((fixture, reason), line) in zip(expected, lines) {
                #expect(line.hasPrefix("presenter-host: \(directory.path)/\(fixture.fileName): \(reason)"), "\(line)")
            }
        }
    }

    /// A fake mbhud first on the path, extending a base that does not exist,
    /// must not shadow the bundled one (and so break addbookmark).
    @Test func aBrokenPresenterDoesNotShadowTheBundledOne() throws {
        let directory = try FixtureBuilder.directory([.fakeMBHud])
        let result = try host(["--plugin-dir", directory.path, "--list", "--json"])
        let byId = try plugins(json(result))
        #expect(byId["mbhud"]?["path"] as? String == TestPaths.library("MBHud").path)
        #expect(byId["addbookmark"]?["extends"] as? String == "mbhud")
        #expect(
            errorLines(result.stderr, in: directory) == [
                "presenter-host: \(directory.path)/libfake-mbhud.so: presenter 'mbhud' extends 'fixture.no-such-base', which was not found; install it or put it on the search path"
            ])
    }

    @Test func aPluginDirThatCannotBeSearchedIsWarnedAboutOnce() throws {
        let plugins = try FixtureBuilder.directory([.good])
        let plugin = plugins.appendingPathComponent("libgood.so").path
        let result = try host(["--plugin-dir", "/nonexistent-plugins", "--plugin-dir", plugin, "--list", "-v"])
        #expect(result.status == 0)
        #expect(
            result.stderr == """
                presenter-host: warning: --plugin-dir /nonexistent-plugins: no such directory; check the path
                presenter-host: warning: --plugin-dir \(plugin): is a file, not a directory; give the directory that holds it

                """)
        // -v does not call a file "missing".
        #expect(
            result.stdout.contains(
                "\n  flag     missing          /nonexistent-plugins\n  flag     not a directory  \(plugin)\n"))
    }

    /// A file name may hold any byte but NUL and '/': each error stays one
    /// line, and a name that is not UTF-8 is reported as such.
    @Test func oddFileNamesGiveOneLineEach() throws {
        let directory = try FixtureBuilder.directory([.nonUTF8Name, .good])
        try Data("text\n".utf8).write(to: directory.appendingPathComponent("lib\nnewline\u{1B}[31m.so"))
        let result = try host(["--plugin-dir", directory.path, "--list"])
        #expect(result.status == 0)
        // In byte order of the names: '\n' (0x0A) before 0xFF.
        #expect(
            errorLines(result.stderr, in: directory) == [
                "presenter-host: \(directory.path)/lib\\nnewline\\x1B[31m.so: is a text file, not an ELF shared library; remove it from the plugin directory",
                "presenter-host: \(directory.path)/lib\\xFF.so: file name is not valid UTF-8; rename it",
            ])
        let document = try json(try host(["--plugin-dir", directory.path, "--list", "--json"]))
        let paths = (document["errors"] as? [[String: String]] ?? []).compactMap { $0["path"] }
        #expect(paths == [directory.path + "/lib\nnewline\u{1B}[31m.so", directory.path + "/lib\\xFF.so"])
    }

    /// Root reads any file whatever its mode, so as root the check runs the
    /// binary as `nobody` (setpriv); otherwise LoaderTests covers it in-process.
    @Test(
        .enabled(
            if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv to drop privileges"))
    func anUnreadableFileIsReportedForAnUnprivilegedUser() throws {
        let directory = try FixtureBuilder.directory([.unreadable, .good])
        // A copy of the binary in a world-readable folder: the build folder may not be.
        let bin = TestPaths.temporaryDirectory("bin")
        let binary = try copyHost(into: bin)
        for folder in [directory, bin] { try #require(chmod(folder.path, 0o755) == 0) }
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", binary.path, "--plugin-dir", directory.path,
                "--list",
            ],
            environment: ["HOME": "/nonexistent"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(directory.path + "/libgood.so"))
        #expect(
            errorLines(result.stderr, in: directory) == [
                "presenter-host: \(directory.path)/libunreadable.so: cannot be read: Permission denied; check its permissions"
            ])
    }

    @Test(
        .enabled(
            if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv to drop privileges"))
    func anUnreadablePluginDirIsWarnedAboutForAnUnprivilegedUser() throws {
        let closed = TestPaths.temporaryDirectory("closed")
        try FixtureBuilder.place(.good, in: closed)
        let bin = TestPaths.temporaryDirectory("bin")
        let binary = try copyHost(into: bin)
        try #require(chmod(bin.path, 0o755) == 0 && chmod(closed.path, 0o700) == 0)
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", binary.path, "--plugin-dir", closed.path, "--list",
                "-v",
            ],
            environment: ["HOME": "/nonexistent"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "presenter-host: warning: --plugin-dir \(closed.path): cannot be read (Permission denied); check its permissions\n"
        )
        #expect(result.stdout.contains("  flag     unreadable  \(closed.path)\n"))
    }

    /// The acceptance check: a fresh build lists the bundled plugins
    /// with no flags and no environment.
    @Test func theBundledPluginsAreListedWithNoFlags() throws {
        let result = try host(["--list", "--json"])
        #expect(result.status == 0)
        let document = try json(result)
        let byId = try plugins(document)
        #expect(Set(byId.keys).isSuperset(of: ["mbhud", "netactivity", "addbookmark", "line"]))
        #expect(byId["addbookmark"]?["extends"] as? String == "mbhud")
        #expect(byId["netactivity"]?["supportsMessages"] as? Bool == false)
        #expect(byId["mbhud"]?["supportsMessages"] as? Bool == true)
        #expect((document["errors"] as? [Any])?.isEmpty == true, "\(result.stderr)")

        let table = try host(["--list"])
        #expect(table.status == 0)
        #expect(table.stderr == "")
        for id in ["mbhud", "netactivity", "addbookmark", "line"] {
            #expect(table.stdout.contains("\n\(id) "))
        }
    }
}

/// The listing's formatting, from registries built in memory.
@Suite struct ListFormattingTests {
    /// Wide characters take two columns: the next column still lines up.
    @Test func columnsArePaddedByDisplayWidth() throws {
        func plugin(_ id: String, _ name: String) -> PresenterPlugin {
            PresenterPlugin(
                id: id, name: name, version: "1", description: nil, author: nil, license: nil,
                extends: nil, capabilities: [], abiVersion: .host, file: "/d/lib\(id).so", hookNames: [],
                source: .loaded)
        }
        let table = ListCommand.table(
            PresenterRegistry(plugins: [plugin("wide", "進捗表示"), plugin("narrow", "Plain")]),
            verbose: false)
        let lines = table.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        /// The display column where `marker` starts in `line`.
        func column(of marker: String, in line: String) throws -> Int {
            DisplayWidth.of(String(line[..<(try #require(line.range(of: marker))).lowerBound]))
        }
        let header = try column(of: "VERSION", in: lines[0])
        #expect(try column(of: "1  ", in: lines[1]) == header, "\(table)")
        #expect(try column(of: "1  ", in: lines[2]) == header, "\(table)")
    }

    /// The table's exact text with every kind of cell: printable ASCII (the
    /// fast path), a path with a control character (escaped, and as wide as
    /// its escape), a wide name and a path past ASCII (measured by display
    /// width), and each capabilities cell (none, one, both, unknown bits).
    @Test func everyKindOfCellIsShownAndPaddedAsBefore() {
        func plugin(_ id: String, _ name: String, _ capabilities: PresenterPlugin.Capabilities, _ path: String)
            -> PresenterPlugin
        {
            PresenterPlugin(
                id: id, name: name, version: "1.0", description: nil, author: nil, license: nil,
                extends: id == "b" ? "a" : nil, capabilities: capabilities, abiVersion: .host, file: path,
                hookNames: [], source: .loaded)
        }
        let table = ListCommand.table(
            PresenterRegistry(plugins: [
                plugin("a", "Plain", [], "/d/liba.so"),
                plugin("b", "進捗", .messages, "/d/lib\nb.so"),
                plugin("c", "C", .determinate, "/d/libé.so"),
                plugin("d", "D", [.messages, .determinate], "/d/libd.so"),
                plugin("e", "E", .init(rawValue: 0x18), "/d/libe.so"),
            ]),
            verbose: false)
        #expect(
            table == """
                ID  NAME   VERSION  EXTENDS  CAPABILITIES          FILE
                a   Plain  1.0      -        -                     /d/liba.so
                b   進捗   1.0      a        messages              /d/lib\\nb.so
                c   C      1.0      -        determinate           /d/libé.so
                d   D      1.0      -        messages,determinate  /d/libd.so
                e   E      1.0      -        0x18                  /d/libe.so

                """, "\(table)")
    }

    @Test func anEmptyRegistrySaysWhereToLook() {
        #expect(
            ListCommand.table(PresenterRegistry(plugins: []), verbose: false)
                == "No presenters found. Run 'presenter-host --list -v' to see where they were looked for.\n")
    }

    @Test func jsonUsesNullForAbsentValuesAndListsErrorsAndTheSearchPath() throws {
        let plugin = PresenterPlugin(
            id: "p", name: "P", version: "1", description: nil, author: nil, license: nil,
            extends: nil, capabilities: [], abiVersion: .host, file: "/d/libp.so", hookNames: [], source: .loaded)
        let registry = PresenterRegistry(
            plugins: [plugin],
            errors: [PluginLoadError(path: "/d/libx.so", failure: .loading(.empty))],
            searchPath: [SearchPathEntry(path: "/nonexistent-dir", origin: .env)])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(ListCommand.json(registry).utf8)) as? [String: Any])
        let plugins = try #require(document["plugins"] as? [[String: Any]])
        #expect(plugins.first?["extends"] is NSNull)
        #expect(plugins.first?["description"] is NSNull)
        #expect(plugins.first?["supportsMessages"] as? Bool == false)
        #expect(
            document["errors"] as? [[String: String]] == [
                ["path": "/d/libx.so", "reason": PluginLoadFailure.empty.description]
            ])
        let entry = try #require((document["searchPath"] as? [[String: Any]])?.first)
        #expect(entry["path"] as? String == "/nonexistent-dir")
        #expect(entry["origin"] as? String == "env")
        #expect(ListCommand.json(registry).contains("\"exists\" : false"))
        #expect(entry["status"] as? String == "missing")
    }
}
