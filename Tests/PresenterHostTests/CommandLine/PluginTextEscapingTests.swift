import Foundation
import Testing
@testable import HostText
@testable import HostEngine
@testable import HostPlugins
@testable import HostCommandLine

/// Every text a plugin chose is escaped wherever the host shows or writes
/// it (issue 30): the `--list` table, `-v`, `--ids`, `--json`, errors,
/// `check`'s report, log lines and traces. The formatting functions get
/// presenters built in code with hostile fields; the binary gets a forged
/// registry cache, plugins whose refusal quotes an invalid id, and text
/// typed on the command line.
@Suite struct PluginTextEscapingTests {
    private static let hostile = HostileText.sample
    private static let shown = HostileText.shown

    /// A presenter whose every text is hostile, its id apart (`id`).
    private static func presenter(id: String, extends: String? = nil, path: String = "/p/lib\u{1B}[2Jx.so")
        -> PresenterPlugin
    {
        PresenterPlugin(
            id: id, name: hostile, version: hostile, description: hostile, author: hostile, license: hostile,
            extends: extends, capabilities: [], abiVersion: .host, file: path, hookNames: [], source: .loaded)
    }

    // MARK: - The formatting functions

    @Test func theTableAndVerboseShowEveryTextEscaped() {
        // A base with a hook, as the registry cache remembers one: its id is in the child's hooks line.
        let base = PresenterPlugin(
            id: "base\u{1B}[2J", name: "Base", version: "1", description: nil, author: nil, license: nil,
            extends: nil, capabilities: [], abiVersion: .host, file: "/p/libbase.so", hookNames: ["show"],
            source: .cache)
        let registry = PresenterRegistry(plugins: [
            Self.presenter(id: "evil\u{1B}]0;x\u{07}\u{9B}2J", extends: "base\u{1B}[2J"), base,
        ])
        for verbose in [false, true] {
            let table = ListCommand.table(registry, verbose: verbose)
            #expect(HostileText.unshown(in: table) == [], "\(table.debugDescription)")
            #expect(table.contains(#"evil\x1B]0;x\x07\x9B2J"#))
            #expect(table.contains(#"/p/lib\x1B[2Jx.so"#))
            // Name and version, each padded to its column's width as shown.
            #expect(table.contains(Self.shown + "  " + Self.shown + "  "))
        }
        let verbose = ListCommand.table(registry, verbose: true)
        for field in ["Description", "Author", "License"] {
            #expect(
                verbose.contains(
                    "    \((field + ":").padding(toLength: 13, withPad: " ", startingAt: 0))\(Self.shown)\n"))
        }
        #expect(verbose.contains(#"inherited: show (base\x1B[2J)"#))
        #expect(verbose.contains(#"evil\x1B]0;x\x07\x9B2J  "# + Self.shown + "  " + Self.shown + #"  base\x1B[2J"#))
    }

    @Test func idsPrintsOnlyIdsAndSaysWhichItLeftOut() {
        let forged = Self.presenter(id: "$(touch /tmp/x)\u{1B}]0;t\u{07}")
        let registry = PresenterRegistry(plugins: [
            Self.presenter(id: "good.one"), forged, Self.presenter(id: "a b"), Self.presenter(id: "*"),
            Self.presenter(id: "Upper"), Self.presenter(id: String(repeating: "x", count: 65)),
            Self.presenter(id: "ok-2_x.y"),
        ])
        #expect(ListCommand.ids(registry) == "good.one\nok-2_x.y\n")
        let line = ListCommand.notAnId(forged)
        #expect(HostileText.unshown(in: line) == [])
        #expect(line.hasPrefix(#"/p/lib\x1B[2Jx.so: presenter id '$(touch /tmp/x)\x1B]0;t\x07' is not an id"#))
    }

    @Test func jsonEscapesControlsBidiAndFormatCharactersAndKeepsTheText() throws {
        let registry = PresenterRegistry(plugins: [Self.presenter(id: "forged.one")])
        let text = ListCommand.json(registry)
        #expect(HostileText.unshown(in: text) == [], "\(text.debugDescription)")
        #expect(
            text.contains(#"\u001b]0;OWNED\u0007\u001b]52;c;aGk=\u0007\u001b[2J\u009b31m\u202e\u2066z\u200bw\ufeff"#))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let plugin = try #require((document["plugins"] as? [[String: Any]])?.first)
        #expect(plugin["name"] as? String == Self.hostile)
    }

    @Test func theUnknownPresenterErrorShowsTheIdsEscaped() {
        let registry = PresenterRegistry(plugins: [Self.presenter(id: "evil\u{1B}[2J"), Self.presenter(id: "good.one")])
        #expect(throws: Never.self) { try registry.resolve("good.one") }
        do {
            _ = try registry.resolve("asked\u{1B}]52;c;aGk=\u{07}")
            Issue.record("resolved an id no presenter has")
        } catch {
            #expect(
                error.description
                    == #"no presenter 'asked\x1B]52;c;aGk=\x07' (available: evil\x1B[2J, good.one); see presenter-host --list"#
            )
        }
    }

    @Test func aRefusalQuotesTheIdAndThePathEscaped() {
        let path = "/p/lib\u{202E}os.so"
        let refused = PluginLoadError(
            path: path,
            failure: .loading(
                .descriptor(index: nil, id: "wanted", .invalidId(field: "extends", value: "'\(Self.hostile)'"))))
        let registry = PresenterRegistry(plugins: [], errors: [refused])
        do {
            _ = try registry.resolve("wanted")
            Issue.record("resolved a refused presenter")
        } catch {
            #expect(HostileText.unshown(in: error.description) == [])
            #expect(
                error.description.hasPrefix(
                    #"presenter 'wanted' in /p/lib\u{202E}os.so was refused: invalid extends '"#))
            #expect(error.description.contains(Self.shown))
        }
        // Shadowed and extends: the resolution's texts name ids and paths a plugin chose.
        let shadowed = PluginLoadError(
            path: path, failure: .resolution(.shadowed(id: "x\u{9B}1m", by: "/q/lib\u{1B}[2J.so")))
        #expect(
            shadowed.description
                == #"/p/lib\u{202E}os.so: presenter 'x\x9B1m' is shadowed by /q/lib\x1B[2J.so, which comes first in the search path; remove one of them"#
        )
        let orphan = PluginLoadError(path: path, failure: .resolution(.baseNotFound(id: "c", base: Self.hostile)))
        #expect(HostileText.unshown(in: orphan.description) == [])
        #expect(orphan.reason.contains("extends '\(Self.shown)'"))
    }

    @Test(arguments: [
        PluginLoadFailure.dlopen("lib\u{1B}]0;x\u{07}.so: cannot open shared object file"),
        .descriptor(index: 2, id: "a\u{200B}b", .tooLong(field: "name", limit: 128)),
        .descriptor(index: nil, id: nil, .invalidId(field: "id", value: "'\u{9B}2J\u{2066}'")),
        .notSharedObject(kind: "\u{1B}[2J"), .malformed("\u{202E}txet"),
    ])
    func aLoadFailureShowsWhatThePluginChoseEscaped(_ failure: PluginLoadFailure) {
        #expect(HostileText.unshown(in: failure.description) == [], "\(failure.description.debugDescription)")
        #expect(failure.description.contains("\\x") || failure.description.contains("\\u{"))
        #expect(HostileText.unshown(in: PluginLoadError(path: "/p", failure: .loading(failure)).description) == [])
    }

    @Test func checksReportShowsTheIdAndEveryTextEscaped() {
        let result = ConformanceResult(
            path: "/p/lib\u{1B}[2J.so", presenterId: Self.hostile, check: "descriptor", verdict: .fail,
            reason: Self.hostile, fix: Self.hostile)
        let text = CheckCommand.text([result])
        #expect(HostileText.unshown(in: text) == [], "\(text.debugDescription)")
        #expect(text.hasPrefix(#"/p/lib\x1B[2J.so: "# + Self.shown + "\n  FAIL  descriptor: " + Self.shown + "\n"))
        #expect(text.contains("        fix: \(Self.shown)\n"))
        let json = CheckCommand.json([result])
        #expect(HostileText.unshown(in: json) == [])
    }

    @Test func aLogLineShowsTheIdAndTheMessageEscaped() {
        let entry = PresenterLogEntry(level: .info, presenterId: Self.hostile, message: "said " + Self.hostile)
        #expect(entry.line == "presenter-host: \(Self.shown): info: said \(Self.shown)")
    }

    // MARK: - Through the binary

    /// The output of `arguments` under `cache`: status, stdout, stderr,
    /// checked to hold nothing a terminal acts on or a reader cannot see.
    private func host(_ arguments: [String], _ cache: ForgedRegistryCache, environment: [String: String] = [:])
        throws -> ProcessResult
    {
        let result = try ProcessRunner.host(arguments, environment: cache.environment.merging(environment) { $1 })
        #expect(HostileText.unshown(in: result.stdout) == [], "\(arguments): \(result.stdout.debugDescription)")
        #expect(HostileText.unshown(in: result.stderr) == [], "\(arguments): \(result.stderr.debugDescription)")
        return result
    }

    /// Issue 30's attack from a warm cache: a forged record's name, version,
    /// description, author and licence, ids of shell code and escapes, and
    /// a base that is one. Nothing reaches stdout or stderr raw.
    @Test func aForgedRegistryCacheReachesNoOutputRaw() throws {
        let cache = try ForgedRegistryCache([
            .init(
                id: "forged.one", name: Self.hostile, version: Self.hostile, description: Self.hostile,
                author: Self.hostile, license: Self.hostile),
            .init(id: "evil\u{1B}]0;OWNED\u{07}\u{9B}2J"),
            .init(id: "$(touch /tmp/presenter-host-forged)"),
            .init(id: "forged.orphan", extends: "base\u{1B}[2J\u{202E}"),
        ])
        let options = cache.options
        let list = try host(options + ["--list"], cache)
        #expect(list.status == 0)
        let verbose = try host(options + ["--list", "-v"], cache)
        let ids = try host(options + ["--list", "--ids"], cache)
        let json = try host(options + ["--list", "--json"], cache)
        let traced = try host(options + ["--list"], cache, environment: ["PRESENTER_HOST_DEBUG": "1"])
        let unknown = try host(options + ["run", "--presenter", "nope", "--", "true"], cache)
        #expect(unknown.status == 64)
        let forgedId = try host(
            options + ["run", "--presenter", "evil\u{1B}]0;OWNED\u{07}\u{9B}2J", "--", "true"], cache)
        // Every id offered is one.
        #expect(ids.stdout.split(separator: "\n").allSatisfy { PresenterIdRule.isValid(String($0)) }, "\(ids.stdout)")
        #expect(ids.stdout.split(separator: "\n").contains("mbhud"))
        guard cache.listedFromCache(list.stdout) else {
            // This host refused the forged entry (issue 30's validation) and listed the file as it is.
            #expect(list.stdout.contains("fixture.good"))
            return
        }
        // The forged texts are there, escaped.
        let row = list.stdout.split(separator: "\n").first { $0.hasPrefix("forged.one ") }
        #expect(row?.contains("  \(Self.shown)  \(Self.shown)  -  ") == true, "\(list.stdout)")
        #expect(list.stdout.contains(#"evil\x1B]0;OWNED\x07\x9B2J"#))
        #expect(verbose.stdout.contains("    Description: \(Self.shown)\n"))
        #expect(ids.stdout.hasPrefix("forged.one\n"))
        #expect(ids.stderr.contains(#"presenter id 'evil\x1B]0;OWNED\x07\x9B2J' is not an id"#), "\(ids.stderr)")
        #expect(ids.stderr.contains("presenter id '$(touch /tmp/presenter-host-forged)' is not an id"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let names = (document["plugins"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains(Self.hostile))
        #expect(traced.stderr.contains(#"presenter 'forged.one', 'evil\x1B]0;OWNED\x07\x9B2J'"#), "\(traced.stderr)")
        #expect(list.stderr.contains(#"presenter 'forged.orphan' extends 'base\x1B[2J\u{202E}', which was not found"#))
        #expect(
            unknown.stderr.contains(
                #"(available: $(touch /tmp/presenter-host-forged), addbookmark, evil\x1B]0;OWNED\x07\x9B2J,"#),
            "\(unknown.stderr)")
        // Listed from the cache, refused by the presenter process: the command runs, its status stands.
        #expect(forgedId.status == 0)
        #expect(
            forgedId.stderr.contains(#"presenter 'evil\x1B]0;OWNED\x07\x9B2J' could not be started: "#),
            "\(forgedId.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/presenter-host-forged"))
    }

    /// What a forged cache entry can still hold past the host's rules (they
    /// refuse controls and bidirectional characters, not the invisible
    /// format characters a descriptor may hold): shown escaped wherever
    /// it is shown, from a warm cache.
    @Test func aCachedTextWithInvisibleCharactersIsShownEscaped() throws {
        let invisible = "Zero\u{200B}Width\u{2060}Joiner\u{FEFF}"
        let cache = try ForgedRegistryCache([
            .init(id: "forged.invisible", name: invisible, description: invisible, author: invisible)
        ])
        let options = cache.options
        let list = try host(options + ["--list"], cache)
        #expect(cache.listedFromCache(list.stdout), "the cache entry was not used: \(list.stdout)")
        let shown = #"Zero\u{200B}Width\u{2060}Joiner\u{FEFF}"#
        #expect(list.stdout.contains("forged.invisible  \(shown)  "), "\(list.stdout)")
        let verbose = try host(options + ["--list", "-v"], cache)
        #expect(verbose.stdout.contains("    Description: \(shown)\n"), "\(verbose.stdout)")
        #expect(verbose.stdout.contains("    Author:      \(shown)\n"), "\(verbose.stdout)")
    }

    /// The id a user asks for is quoted in the error as the user can read it.
    @Test func anUnknownIdTypedOnTheLineIsShownEscaped() throws {
        let result = try ProcessRunner.host(["--bundled-only", "run", "--presenter", Self.hostile, "--", "true"])
        #expect(result.status == 64)
        #expect(HostileText.unshown(in: result.stderr) == [], "\(result.stderr.debugDescription)")
        #expect(
            result.stderr.hasPrefix(
                "Error: no presenter '\(Self.shown)' (available: addbookmark, line, mbhud, netactivity)"))
    }

    /// A descriptor's id that is no id is quoted in its refusal, in
    /// `--list` and in `check`: what is invisible in it is shown.
    @Test func aRefusedIdIsQuotedEscapedByListAndCheck() throws {
        let plugins = TestPaths.temporaryDirectory("invisible-id")
        let library = plugins.appendingPathComponent("libinvisible.so")
        // "Evil<ZWSP><BOM>Id": valid UTF-8 with no control, refused for its characters.
        try FixtureBuilder.compile(
            FixtureBuilder.sources.appendingPathComponent("presenter.c"), to: library,
            flags: [#"-DFIXTURE_ID="Evil\xe2\x80\x8b\xef\xbb\xbfId""#])
        let list = try ProcessRunner.host(["--plugin-dir", plugins.path, "--list"])
        #expect(HostileText.unshown(in: list.stderr) == [], "\(list.stderr.debugDescription)")
        #expect(list.stderr.contains(#"invalid id 'Evil\u{200B}\u{FEFF}Id'"#), "\(list.stderr)")
        let check = try ProcessRunner.host(["check", library.path])
        #expect(check.status == 1)
        #expect(HostileText.unshown(in: check.stdout) == [], "\(check.stdout.debugDescription)")
        #expect(check.stdout.contains(#"invalid id 'Evil\u{200B}\u{FEFF}Id'"#), "\(check.stdout)")
    }

    /// A plugin's own invisible characters (a descriptor may hold them) are
    /// shown as escapes by the table, `-v` and `check`'s report.
    @Test func aPluginsZeroWidthTextIsShownEscaped() throws {
        let plugins = TestPaths.temporaryDirectory("zero-width")
        let library = plugins.appendingPathComponent("libzero-width.so")
        try FixtureBuilder.compile(
            FixtureBuilder.sources.appendingPathComponent("presenter.c"), to: library,
            flags: [
                #"-DFIXTURE_ID="fixture.zero-width""#, #"-DFIXTURE_NAME="Zero\xe2\x80\x8bWidth\xe2\x81\xa0Name""#,
                #"-DFIXTURE_DESCRIPTION="soft\xc2\xadhyphen""#,
            ])
        let list = try ProcessRunner.host(["--plugin-dir", plugins.path, "--list", "-v"])
        #expect(HostileText.unshown(in: list.stdout + list.stderr) == [], "\(list.stdout.debugDescription)")
        #expect(list.stdout.contains(#"fixture.zero-width  Zero\u{200B}Width\u{2060}Name  1.0.0"#), "\(list.stdout)")
        #expect(list.stdout.contains(#"    Description: soft\xADhyphen"#))
        let check = try ProcessRunner.host(["check", library.path])
        #expect(HostileText.unshown(in: check.stdout) == [], "\(check.stdout.debugDescription)")
        #expect(check.stdout.contains(#"  PASS  descriptor: Zero\u{200B}Width\u{2060}Name 1.0.0"#), "\(check.stdout)")
    }

    /// `run -v`: the presenter's log line shows what it logged, escaped:
    /// here the message it was given, which has lost its escape sequences
    /// (``DisplayText``) and kept its invisible characters. In a terminal,
    /// where the presenter runs: each log line as written above its
    /// region, from its start to its end.
    @Test func aPresentersLogLineOnStderrIsEscaped() throws {
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let result = try ProcessRunner.hostInTerminal([
            "--plugin-dir", plugins.path, "run", "-v", "--presenter", "fixture.misbehaving",
            "--working", Self.hostile, "--", "true",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let prefix = "presenter-host: fixture.misbehaving: "
        let log = result.stderr.split(separator: "\n").compactMap { line in
            line.range(of: prefix).map { line[$0.lowerBound...] }
        }
        let logged = PrintableText.escaping(DisplayText.cleaned(Self.hostile))
        #expect(logged == #"T\u{202E}\u{2066}z\u{200B}w\u{FEFF}"#)
        #expect(log.contains("presenter-host: fixture.misbehaving: info: showing \(logged)"), "\(log)")
        for line in log { #expect(HostileText.unshown(in: String(line)) == [], "\(line.debugDescription)") }
    }
}
