import Foundation
import PresenterABI
import Testing

/// `presenter-host check`: the bundled presenters and the examples pass,
/// each defect fixture fails (or warns) in the right check with the right
/// reason, a crash or a hang never takes `check` down, and the exit status
/// and `--json` say what CI needs.
@Suite struct CheckCommandTests {
    struct Row: Equatable, CustomStringConvertible {
        var presenter: String?
        var check: String
        var result: String
        var reason: String?
        var description: String { "\(presenter ?? "-") \(check) \(result): \(reason ?? "")" }
    }

    /// Runs `check --json` and returns its status and rows.
    private func check(
        _ files: [String], environment: [String: String] = [:], options: [String] = [],
        pluginDirs: [String] = []
    ) throws -> (status: Int32, rows: [Row], stderr: String) {
        let result = try ProcessRunner.host(
            pluginDirs.flatMap { ["--plugin-dir", $0] } + ["check", "--json"] + options + files,
            environment: environment)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "not JSON: \(result.stdout) \(result.stderr)")
        let rows = try #require(document["results"] as? [[String: Any]]).map {
            Row(
                presenter: $0["presenter"] as? String, check: $0["check"] as! String, result: $0["result"] as! String,
                reason: $0["reason"] as? String)
        }
        return (result.status, rows, result.stderr)
    }

    @Test func theBundledPresentersAndTheExamplesPass() throws {
        let hello = TestPaths.temporaryDirectory("hello").appendingPathComponent("libhello_presenter.so")
        try FixtureBuilder.compile(
            TestPaths.packageRoot.appendingPathComponent("Examples/c-presenter/hello_presenter.c"), to: hello)
        let files =
            ["MBHud", "NetActivity", "AddBookmark", "Line", "SwiftExamplePresenter"].map { TestPaths.library($0).path }
            + [
                hello.path
            ]
        // A budget of its own: see the text report's test.
        let (status, rows, stderr) = try check(files, options: ["--hook-timeout", "10"])
        #expect(status == 0, "\(stderr)")
        #expect(rows.filter { $0.result != "PASS" } == [], "\(rows)")
        #expect(
            Set(rows.compactMap(\.presenter)) == [
                "mbhud", "netactivity", "addbookmark", "line", "swift-example", "example.hello",
            ])
        // Every check ran for every presenter, and the one that extends another had its base checked.
        let checks = [
            "descriptor", "create-destroy", "messages", "failure", "progress", "view-sizes", "keys", "interactors",
            "done", "sandbox", "budget", "output", "services", "drawing",
        ]
        for presenter in ["mbhud", "example.hello"] {
            #expect(rows.filter { $0.presenter == presenter }.map(\.check) == checks)
        }
        #expect(rows.contains(Row(presenter: "addbookmark", check: "base", result: "PASS", reason: "'mbhud' reached")))
        #expect(rows.filter { $0.check == "loads" }.count == files.count)
    }

    /// One misbehaviour of misbehaving.c each (FIXTURE_MISBEHAVE), and the
    /// check that must catch it, with its verdict and the words of its reason.
    @Test(
        arguments: [
            ("crash:show", [], "messages", "FAIL", "crashed in show (SIGSEGV)"),
            ("abort:render", [], "view-sizes", "FAIL", "crashed in render (SIGABRT)"),
            ("fork:show", [], "sandbox", "FAIL", "the sandbox stopped it in show: it tried to start a process (clone)"),
            ("exit:create", [], "create-destroy", "FAIL", "ended its process in create (exit status 3)"),
            ("hang:render", [], "budget", "FAIL", "did not answer render within 250 ms"),
            ("print:show", [], "output", "FAIL", "it wrote to stdout or stderr"),
            ("thread:show", [], "services", "FAIL", "was called from another thread; the host ignored it"),
            (
                "fail:hide", [], "failure", "FAIL",
                "hide returned status 1 for a failure with a message: refusing on purpose"
            ),
            ("sleep:progress", ["--hook-timeout", "0.5"], "budget", "WARN", "more than half its 500 ms budget"),
            ("linger:hide", [], "done", "WARN", "still draws 5.5 s after the last hide"),
        ] as [(String, [String], String, String, String)])
    func eachMisbehaviourIsCaughtByItsCheck(
        misbehave: String, options: [String], name: String, verdict: String,
        reason: String
    ) throws {
        let library = try FixtureBuilder.library(.misbehaving)
        let (status, rows, stderr) = try check(
            [library.path], environment: ["FIXTURE_MISBEHAVE": misbehave, "FIXTURE_SLEEP_MS": "300"],
            options: options)
        #expect(status == (verdict == "FAIL" ? 1 : 0), "\(stderr)")
        let row = try #require(rows.first { $0.check == name }, "\(rows)")
        #expect(row.result == verdict, "\(rows)")
        #expect(row.reason?.contains(reason) == true, "\(row)")
        // Every check still ran: a crash or a hang takes one session down, never `check`.
        #expect(rows.count == 16)
    }

    /// One fixture per defect of check_defects.c and presenter.c.
    @Test(arguments: [
        (Fixture.drawsOutside, "drawing", "WARN", "draw_text at (-2, 0)"),
        (
            .drawsInShow, "services", "FAIL",
            "draw_text was called outside render (drawing works only there); the host ignored it"
        ),
        (
            .skipsBase, "base", "FAIL",
            "it extends 'mbhud' but never calls its base's show (mbhud.show never ran), hide (mbhud.hide never ran), render (mbhud.render never ran)"
        ),
        (.noDescription, "descriptor", "WARN", "it has no description"),
    ])
    func eachDefectFixtureIsCaughtByItsCheck(fixture: Fixture, name: String, verdict: String, reason: String) throws {
        // A budget of its own: see the text report's test (a slow machine,
        // or a sanitized build, is not the fixture's defect).
        let (status, rows, stderr) = try check(
            [try FixtureBuilder.library(fixture).path], options: ["--hook-timeout", "10"])
        #expect(status == (verdict == "FAIL" ? 1 : 0), "\(stderr)")
        let row = try #require(rows.first { $0.check == name }, "\(rows)")
        #expect(row.result == verdict, "\(rows)")
        #expect(row.reason?.contains(reason) == true, "\(row)")
        // (presenter.c's fixtures describe nothing: the file's `description`
        // WARN is not the defect.)
        #expect(
            rows.filter { $0.result != "PASS" && $0.check != "description" }.count == 1,
            "one defect, one finding: \(rows)")
    }

    @Test func aFileThatDoesNotLoadFailsWithTheLoadersReason() throws {
        let (status, rows, _) = try check([
            try FixtureBuilder.library(.text).path, try FixtureBuilder.library(.constructorAbort).path,
        ])
        #expect(status == 1)
        #expect(rows.map(\.check) == ["loads", "loads"])
        #expect(rows[0].reason == "is a text file, not an ELF shared library")
        #expect(rows[1].reason?.hasPrefix("crashed while loading (SIGABRT)") == true)
    }

    /// Runs `check --json` and returns each row's check, reason and fix.
    private func fixes(
        _ files: [String], environment: [String: String] = [:]
    ) throws -> [(check: String, reason: String, fix: String?)] {
        let result = try ProcessRunner.host(
            ["check", "--json", "--hook-timeout", "10"] + files, environment: environment)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "not JSON: \(result.stdout) \(result.stderr)")
        return try #require(document["results"] as? [[String: Any]]).map {
            ($0["check"] as! String, $0["reason"] as? String ?? "", $0["fix"] as? String)
        }
    }

    /// Every fix: line is something the author can write, build with or run
    /// (issue 20, item 6): no "see docs/...", no "as the reason says", no
    /// <placeholder>, and never the reason said again.
    @Test func everyFixOfAFileTheLoaderRefusesIsSomethingToChange() throws {
        let refused: [Fixture] = [
            .empty, .text, .randomBytes, .truncated, .thirtyTwoBit, .otherArchitecture, .executable,
            .missingDependency, .undefinedSymbol, .noEntryPoint, .nullEntryPoint, .endlessEntryPoint, .abiMajor,
            .newerMinor, .sizeTooSmall, .sizeTooLarge, .missingId, .uppercaseId, .longId, .invalidExtends,
            .missingName, .emptyName, .missingVersion, .invalidUTF8, .controlCharacter, .bidiCharacter, .longName,
            .longDescription, .baseNotFound, .constructorAbort, .constructorExit, .garbageString, .directory,
        ]
        let plugins = try FixtureBuilder.directory(refused)
        let rows = try fixes(refused.map { plugins.appendingPathComponent($0.fileName).path })
        // (None of them describes itself: a file that loads gets the
        // `description` WARN besides its failure.)
        #expect(
            rows.filter { $0.fix != nil && $0.check != "description" }.count == refused.count,
            "one failure a file: \(rows)")
        for row in rows {
            guard let fix = row.fix else { continue }
            #expect(!fix.contains("docs/"), "\(row)")
            #expect(!fix.contains("as the reason says"), "\(row)")
            #expect(fix.firstMatch(of: #/<[a-z][a-z ]*>/#) == nil, "\(row)")
            #expect(!row.reason.contains(fix), "\(row)")
        }
    }

    /// A hidden or missing entry point: the line that exports it, not a
    /// pointer to the docs or "remove it from the plugin directory".
    @Test func aHiddenEntryPointsFixIsTheAttributeThatExportsIt() throws {
        let hidden = TestPaths.temporaryDirectory("hidden").appendingPathComponent("libhidden.so")
        try FixtureBuilder.compile(
            FixtureBuilder.sources.appendingPathComponent("presenter.c"), to: hidden, flags: ["-fvisibility=hidden"])
        let row = try #require(try fixes([hidden.path]).first)
        #expect(row.check == "loads")
        #expect(
            row.reason
                == "not a presenter plugin: it exports no presenter_plugin_descriptor symbol (none is defined, or -fvisibility=hidden hid it)"
        )
        #expect(row.fix?.contains(#"__attribute__((visibility("default")))"#) == true, "\(row)")
        #expect(row.fix?.contains("presenter_plugin_descriptor(uint32_t index)") == true, "\(row)")
    }

    /// Each refused descriptor gets the fix of its field.
    @Test(arguments: [
        (Fixture.missingName, #"set .name = "My Presenter""#),
        (.emptyName, #"set .name = "My Presenter""#),
        (.missingVersion, #"set .version = "1.0.0""#),
        (.missingId, #"set .id = "me.my-presenter""#),
        (.uppercaseId, #"set .id = "fixture.upper""#),
        (.invalidExtends, #"set .extends = "not-an-id""#),
        (.sizeTooSmall, "set .struct_size = sizeof(presenter_descriptor)"),
        (.sizeTooLarge, "set .struct_size = sizeof(presenter_descriptor)"),
        (.abiMajor, "set .abi_major = PRESENTER_ABI_MAJOR"),
        (.newerMinor, "set .abi_minor = PRESENTER_ABI_MINOR"),
        (.longName, "shorten .name to 128 bytes or fewer"),
        (.longId, "shorten .id to 64 bytes or fewer"),
        (.invalidUTF8, "write .name as UTF-8"),
        (.controlCharacter, "out of .name: one line of printable text"),
    ])
    func eachRefusedDescriptorsFixNamesItsField(fixture: Fixture, fix: String) throws {
        let row = try #require(try fixes([try FixtureBuilder.library(fixture).path]).last)
        #expect(row.check == "descriptor")
        #expect(row.fix?.contains(fix) == true, "\(row)")
    }

    /// A crash's fix is a command to type: gdb on run --in-process with the
    /// plugin's folder and the presenter's id, and typed, it stops in the
    /// plugin's crashing hook.
    @Test(.enabled(if: Toolchain.find("gdb") != nil, "gdb is not installed (apt-get install gdb)"))
    func aCrashsFixIsAGdbCommandThatFindsTheCrash() throws {
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let library = plugins.appendingPathComponent(Fixture.misbehaving.fileName).path
        let environment = ["FIXTURE_MISBEHAVE": "crash:show", "CI": "true"]
        let row = try #require(try fixes([library], environment: environment).first { $0.check == "messages" })
        let fix = try #require(row.fix)
        let command = try #require(fix.firstRange(of: "gdb ").map { String(fix[$0.lowerBound...]) }, "\(fix)")
        #expect(
            command
                == "gdb -ex run -ex bt --args presenter-host --plugin-dir \(plugins.path) run --in-process --presenter fixture.misbehaving -- sleep 1"
        )
        // As the author would type it, in a terminal (plain mode runs no
        // presenter), without gdb's prompt at the end.
        let result = try ProcessRunner.runInTerminal(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", command.replacing("gdb ", with: "gdb -q -batch ", maxReplacements: 1)],
            environment: ["FIXTURE_MISBEHAVE": "crash:show"].merging(
                [
                    "PATH": TestPaths.binary.deletingLastPathComponent().path + ":"
                        + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
                ]
            ) { $1 })
        #expect(result.stdout.contains("received signal SIGSEGV"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#/ in m_show \(\) from /#), "\(result.stdout)")
    }

    /// Files of one presenter each are as many presenters, their
    /// descriptors refused or not ("descriptor 0" in each), and a file's
    /// rows name it as it was given.
    @Test func theSummaryCountsEachFilesPresenters() throws {
        let plugins = try FixtureBuilder.directory([.good, .missingName, .emptyName])
        let files = [Fixture.good, .missingName, .emptyName].map { "./" + $0.fileName }
        let result = try ProcessRunner.run(
            TestPaths.binary, ["check", "--hook-timeout", "10"] + files, currentDirectory: plugins)
        #expect(result.status == 1)
        // Each file's `description` WARN too: presenter.c's fixtures describe nothing.
        #expect(result.stdout.hasSuffix("\n3 presenters checked: 17 passed, 2 failed, 3 warned\n"), "\(result.stdout)")
        let good = plugins.appendingPathComponent(Fixture.good.fileName).path
        #expect(
            result.stdout.hasPrefix(
                "\(good)\n  PASS  loads: 1 presenter\n  WARN  description: it has no description: presenter-host runs its code in a scan helper to list it\n"
            ),
            "\(result.stdout)")
        #expect(result.stdout.contains("\n\n\(good): fixture.good\n"), "\(result.stdout)")
    }

    @Test func aBaseMissingFromTheSearchPathIsADescriptorFailure() throws {
        let (status, rows, _) = try check([try FixtureBuilder.library(.baseNotFound).path])
        #expect(status == 1)
        #expect(
            rows.last
                == Row(
                    presenter: "fixture.orphan", check: "descriptor", result: "FAIL",
                    reason: "extends 'fixture.no-such-base', which is not on the search path (or does not load)"))
    }

    /// The base on the search path extends an installed copy of the
    /// presenter checked: a cycle, said as one, not "not on the search path".
    @Test func aBaseThatLeadsBackToThePresenterIsACycle() throws {
        let installed = TestPaths.temporaryDirectory("installed")
        let source = FixtureBuilder.sources.appendingPathComponent("presenter.c")
        try FixtureBuilder.compile(
            source, to: installed.appendingPathComponent("libx.so"), flags: ["-DFIXTURE_ID=\"fixture.x\""])
        try FixtureBuilder.compile(
            source, to: installed.appendingPathComponent("libb.so"),
            flags: ["-DFIXTURE_ID=\"fixture.b\"", "-DFIXTURE_EXTENDS=\"fixture.x\""])
        let checked = TestPaths.temporaryDirectory("checked").appendingPathComponent("libx.so")
        try FixtureBuilder.compile(
            source, to: checked, flags: ["-DFIXTURE_ID=\"fixture.x\"", "-DFIXTURE_EXTENDS=\"fixture.b\""])
        let (status, rows, _) = try check([checked.path], pluginDirs: [installed.path])
        #expect(status == 1)
        #expect(
            rows.last
                == Row(
                    presenter: "fixture.x", check: "descriptor", result: "FAIL",
                    reason:
                        "extends 'fixture.b', which leads back to it: an extension cycle (fixture.x -> fixture.b -> fixture.x)"
                ))
    }

    @Test func theTextReportShowsVerdictsReasonsFixesAndASummary() throws {
        let library = try FixtureBuilder.library(.drawsInShow)
        // A budget of its own: under a loaded parallel test run a hook can
        // take more than half the usual 250 ms, and "budget" would WARN for
        // the machine, not the presenter (the budget check has its own tests).
        let result = try ProcessRunner.host(["check", "--hook-timeout", "10", library.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "\(library.path): fixture.draw-in-show\n  PASS  descriptor: Check Defect 1.0.0, ABI 1.\(PRESENTER_ABI_MINOR)\n"
            ))
        #expect(result.stdout.contains("  FAIL  services: fixture.draw-in-show: draw_text was called outside render"))
        #expect(result.stdout.contains("        fix: call host services only from inside a hook"))
        #expect(result.stdout.hasSuffix("\n1 presenter checked: 15 passed, 1 failed, 0 warned\n"))
    }

    @Test(
        arguments: [
            (["check"], 64, "Error: 'check' needs at least one plugin file (a .so)"),
            (["check", "--frobnicate", "x.so"], 64, "Error: Unknown option '--frobnicate'"),
            (
                ["check", "--hook-timeout", "0", "x.so"], 64,
                "Error: --hook-timeout: '0' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)"
            ),
            (
                ["check", "--hook-timeout=0", "x.so"], 64,
                "Error: --hook-timeout: '0' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)"
            ),
            (["check", "--hook-timeout"], 64, "Error: Missing value for '--hook-timeout <seconds>'"),
            (
                ["check", "/nonexistent/libx.so"], 66,
                "Error: check: /nonexistent/libx.so: no such file; give the path of a plugin .so file"
            ),
        ] as [([String], Int32, String)])
    func badArgumentsAreOneLineErrors(arguments: [String], status: Int32, line: String) throws {
        let result = try ProcessRunner.host(arguments)
        #expect(result.status == status)
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == line)
        #expect(result.stdout.isEmpty)
    }
}
