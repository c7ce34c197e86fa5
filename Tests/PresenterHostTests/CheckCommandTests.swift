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
            ["MBHud", "NetActivity", "AddBookmark", "SwiftExamplePresenter"].map { TestPaths.library($0).path } + [
                hello.path
            ]
        // A budget of its own: see the text report's test.
        let (status, rows, stderr) = try check(files, options: ["--hook-timeout", "10"])
        #expect(status == 0, "\(stderr)")
        #expect(rows.filter { $0.result != "PASS" } == [], "\(rows)")
        #expect(
            Set(rows.compactMap(\.presenter)) == [
                "mbhud", "netactivity", "addbookmark", "swift-example", "example.hello",
            ])
        // Every check ran for every presenter, and the one that extends another had its base checked.
        let checks = [
            "descriptor", "create-destroy", "messages", "failure", "progress", "view-sizes", "keys", "interactors",
            "done", "budget", "output", "services", "drawing",
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
        #expect(rows.count == 14)
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
        #expect(rows.filter { $0.result != "PASS" }.count == 1, "one defect, one finding: \(rows)")
    }

    @Test func aFileThatDoesNotLoadFailsWithTheLoadersReason() throws {
        let (status, rows, _) = try check([
            try FixtureBuilder.library(.text).path, try FixtureBuilder.library(.constructorAbort).path,
        ])
        #expect(status == 1)
        #expect(rows.map(\.check) == ["loads", "loads"])
        #expect(rows[0].reason == "is a text file, not an ELF shared library; remove it from the plugin directory")
        #expect(rows[1].reason?.hasPrefix("crashed while loading (SIGABRT)") == true)
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
        #expect(result.stdout.hasSuffix("\n3 presenters checked: 16 passed, 2 failed, 0 warned\n"), "\(result.stdout)")
        let good = plugins.appendingPathComponent(Fixture.good.fileName).path
        #expect(
            result.stdout.hasPrefix("\(good)\n  PASS  loads: 1 presenter\n\n\(good): fixture.good\n"),
            "\(result.stdout)")
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
        #expect(result.stdout.hasSuffix("\n1 presenter checked: 13 passed, 1 failed, 0 warned\n"))
    }

    @Test(
        arguments: [
            (["check"], 64, "Error: 'check' needs at least one plugin file (a .so)"),
            (["check", "--frobnicate", "x.so"], 64, "Error: Unknown option '--frobnicate'"),
            (
                ["check", "--hook-timeout", "0", "x.so"], 64,
                "Error: --hook-timeout: '0' is not a positive number of seconds"
            ),
            (
                ["check", "--hook-timeout=0", "x.so"], 64,
                "Error: --hook-timeout: '0' is not a positive number of seconds"
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
