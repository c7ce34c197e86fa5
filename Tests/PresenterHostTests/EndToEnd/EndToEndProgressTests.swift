import Foundation
import Glibc
import Testing

/// Progress from the command, through the real binary: its progress channel
/// (`PRESENTER_PROGRESS_FD`) and the OSC 9;4 sequences in its output.
@Suite("run end to end: progress from the command")
struct EndToEndProgressTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

    @Test func messagesBecomeLinesInPlainMode() throws {
        let script = """
            echo 10% >&$PRESENTER_PROGRESS_FD
            echo '{"progress": 0.5, "message": "Downloading foo.tar"}' >&$PRESENTER_PROGRESS_FD
            echo 3/4 >&$PRESENTER_PROGRESS_FD
            echo '{"message": "Unpacking"}' >&$PRESENTER_PROGRESS_FD
            """
        let result = try ProcessRunner.host(
            ["run", "--working", "Working", "--success", "Done", "--", "sh", "-c", script],
            environment: utf8)
        #expect(result.status == 0)
        #expect(result.stderr == "Working\nDownloading foo.tar\nUnpacking\n✔ Done\n")
    }

    @Test func aBadLineIsOneVerboseLogLineAndNeverAFailure() throws {
        let script =
            "echo 150% >&$PRESENTER_PROGRESS_FD; echo '{\"message\": \"Still here\"}' >&$PRESENTER_PROGRESS_FD"
        let quiet = try ProcessRunner.host(["run", "--working", "W", "--", "sh", "-c", script], environment: utf8)
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "W\nStill here\n")
        let verbose = try ProcessRunner.host(
            ["run", "-v", "--working", "W", "--", "sh", "-c", script], environment: utf8)
        #expect(verbose.status == 0)
        // The presenter's log, but the line that says which sandbox it is under.
        let logLines = verbose.stderr.split(separator: "\n").filter {
            $0.hasPrefix("presenter-host:") && !$0.contains(": sandbox: ")
        }
        #expect(
            logLines == [
                "presenter-host: mbhud: warning: ignored a progress line: '150%' is not a percentage from 0% to 100%"
            ])
    }

    @Test func floodsOfBadLinesAreLoggedOnceTheyPassTheLimit() throws {
        let script = "i=0; while [ $i -lt 30 ]; do echo bad$i >&$PRESENTER_PROGRESS_FD; i=$((i+1)); done"
        let result = try ProcessRunner.host(
            ["run", "-v", "--working", "W", "--", "sh", "-c", script], environment: utf8)
        #expect(result.status == 0)
        let logLines = result.stderr.split(separator: "\n").filter {
            $0.hasPrefix("presenter-host:") && !$0.contains(": sandbox: ")
        }
        #expect(logLines.count == 11)
        #expect(
            logLines.last == "presenter-host: mbhud: warning: ignoring further bad progress lines without naming them")
    }

    /// ABI 1.0 promised a fraction in [0, 1]: a presenter built against the
    /// frozen 1.0 header hears 40 %, but not that it became unknown again.
    @Test func aPresenterBuiltFor1_0NeverGetsANegativeFraction() throws {
        let frozen = TestPaths.packageRoot.appendingPathComponent("Tests/PresenterHostTests/Fixtures/abi-1.0")
        let directory = TestPaths.temporaryDirectory("progress-1.0")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Toolchain.compile([
            "cc", "-shared", "-fPIC", "-std=c11", "-I", frozen.path,
            "-o", directory.appendingPathComponent("libpresenter_1_0.so").path,
            frozen.appendingPathComponent("presenter_1_0.c").path,
        ])
        // The unknown fraction goes out once the presenter said it heard 40 %
        // (two reports at once would be one: the last). The log also holds
        // this script (the start event): the pattern must not match itself.
        let log = directory.appendingPathComponent("log").path
        let script = """
            echo 40% >&$PRESENTER_PROGRESS_FD
            \(shellWaitUntil("grep -q 'info: progress 0[.]40' '\(log)'"))
            echo '{"progress": null, "message": "Again"}' >&$PRESENTER_PROGRESS_FD
            """
        // In a terminal, where the presenter runs (plain mode runs none).
        let result = try ProcessRunner.hostInTerminal(
            [
                "--plugin-dir", directory.path, "run", "-v", "--log", log, "--presenter", "fixture.abi-1-0",
                "--working", "Working", "--", "sh", "-c", script,
            ], environment: utf8)
        #expect(result.status == 0)
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.contains("fixture.abi-1-0: info: progress 0.40"), "\(logged)")
        #expect(!logged.contains("progress -1"), "\(logged)")
        // The run's events say it: the host took the second report.
        #expect(
            logged.split(separator: "\n").contains {
                $0.contains(#""event":"message""#) && $0.contains(#""message":"Again""#)
            }, "\(logged)")
    }

    @Test func theDescriptorIsASingleDigitAndHidesNoneTheCallerPassed() throws {
        let dir = TestPaths.temporaryDirectory("progressfd")
        defer { try? FileManager.default.removeItem(at: dir) }
        let kept = dir.appendingPathComponent("kept").path
        // The caller gives the command descriptor 3 (`3>file`): it stays the command's.
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "exec \"$0\" run --working W -- sh -c 'echo kept >&3; echo \"$PRESENTER_PROGRESS_FD\"' 3>'\(kept)'",
                TestPaths.binary.path,
            ], environment: utf8)
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "kept\n")
        let number = try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect((4...9).contains(number))
    }
}

/// The same in a real terminal (pyte): the bar, the new message, OSC 9;4.
@Suite(
    "run end to end: progress from the command, in a terminal",
    .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct EndToEndProgressTerminalTests {
    @Test func theChannelDrivesTheBarAndTheMessage() throws {
        // The command goes on once the test saw each state (the go files).
        let (saw30, sawHalf) = (GoFile(), GoFile())
        let script = """
            echo 30% >&$PRESENTER_PROGRESS_FD; \(saw30.wait)
            echo '{"progress": 0.5, "message": "Downloading foo.tar"}' >&$PRESENTER_PROGRESS_FD
            \(sawHalf.wait)
            """
        let run = try TerminalDriver.run(
            ["run", "--working", "Working", "--success", "Done", "--", "sh", "-c", script],
            steps: [
                .waitText("30%"), .snapshot("thirty"), saw30.touch, .waitText("Downloading foo.tar"),
                .snapshot("half"), sawHalf.touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        let thirty = try #require(run.snapshots["thirty"])
        let thirtyRow = try #require(thirty.row(containing: "30%").map { thirty.lines[$0] })
        #expect(thirtyRow.contains("Working") || thirty.row(containing: "Working") != nil)
        let half = try #require(run.snapshots["half"])
        #expect(half.row(containing: "50%") != nil, "\(half.lines)")
        #expect(half.row(containing: "Working") == nil, "the old message is still shown: \(half.lines)")
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["✔ Done"])
    }

    @Test func osc94InTheOutputDrivesTheBarAndIsTakenOut() throws {
        let dir = TestPaths.temporaryDirectory("osc94in")
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("raw").path, sawBar = GoFile()
        let script = #"printf 'before\n\033]9;4;1;40\033\\after\n'; "# + sawBar.wait + "; exit 3"
        let run = try TerminalDriver.run(
            ["run", "--working", "Building", "--failure", "Broke", "--", "sh", "-c", script], rawFile: raw,
            steps: [.waitText("40%"), .snapshot("bar"), sawBar.touch, .waitExit(20)])
        #expect(run.errors == [])
        #expect(try #require(run.snapshots["bar"]).row(containing: "Building") != nil)
        #expect(run.exit.code == 3)
        // The output, replayed after the failure's line, without the sequence.
        #expect(run.final.nonEmptyLines == ["✖ Broke: exit status 3", "before", "after"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        #expect(bytes.range(of: Data("\u{1B}]9;4;1;40".utf8)) == nil, "the command's OSC 9;4 reached the terminal")
    }
}

/// OSC 9;4 to the terminal (the tab and taskbar), checked byte-exact in
/// what the terminal received.
@Suite(
    "run end to end: the terminal's own progress (OSC 9;4)",
    .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct EndToEndTerminalProgressTests {
    private static let indeterminate = "\u{1B}]9;4;3\u{1B}\\"
    private static let cleared = "\u{1B}]9;4;0\u{1B}\\"

    /// The OSC 9;4 sequences the terminal received, in order.
    private func sequences(_ raw: String) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: raw)), as: UTF8.self)
        let pattern = try NSRegularExpression(pattern: "\u{1B}\\]9;4;[0-9;]*\u{1B}\\\\")
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range, in: text)!])
        }
    }

    private func run(
        _ arguments: [String], environment: [String: String], steps: [TerminalDriver.Step],
        jobControl: Bool = false
    ) throws -> (TerminalDriver.Result, [String]) {
        let dir = TestPaths.temporaryDirectory("osc94out")
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("raw").path
        let result = try TerminalDriver.run(
            arguments, environment: environment, jobControl: jobControl,
            rawFile: raw, steps: steps)
        return (result, try sequences(raw))
    }

    @Test func indeterminateThenTheFractionThenCleared() throws {
        // 40 % once the box (and the unknown fraction) is up, 40.5 % once the
        // bar shows 40 %, and the end once the presenter heard 40.5 %: each
        // report on its own, none merged with the next.
        let (box, bar) = (GoFile(), GoFile())
        let trace = TraceLog()
        let script = """
            \(box.wait); echo 40% >&$PRESENTER_PROGRESS_FD; \(bar.wait); echo 40.5% >&$PRESENTER_PROGRESS_FD
            \(trace.shellWait(for: "progress 0[.]405)"))
            """
        let (result, sent) = try run(
            trace.flags("run") + ["--working", "Working", "--", "sh", "-c", script], environment: ["WT_SESSION": "1"],
            steps: [.waitText("Working"), box.touch, .waitText("40%"), bar.touch, .waitExit(20)])
        #expect(result.errors == [])
        #expect(result.exit.code == 0)
        #expect(sent == [Self.indeterminate, "\u{1B}]9;4;1;40\u{1B}\\", Self.cleared])
        #expect(trace.calls.contains { $0.contains("progress 0.405)") }, "40.5 % never reached the presenter")
    }

    @Test func theErrorStateOnFailureThenCleared() throws {
        let go = GoFile()
        let (result, sent) = try run(
            ["run", "--working", "Working", "--failure", "Broke", "--"] + go.command(then: "exit 2"),
            environment: ["TERM_PROGRAM": "WezTerm"],
            steps: [.waitText("Working"), go.touch, .waitText("Broke"), .waitExit(20)])
        #expect(result.exit.code == 2, "\(result.exit); the screen: \(result.final.nonEmptyLines)")
        #expect(sent == [Self.indeterminate, "\u{1B}]9;4;2;100\u{1B}\\", Self.cleared])
    }

    @Test func clearedAfterCtrlC() throws {
        let (result, sent) = try run(
            ["run", "--working", "Working", "--", "sleep", "30"], environment: ["ConEmuANSI": "ON"],
            steps: [.waitText("Working"), .keys("\u{3}"), .waitExit(20)], jobControl: true)
        #expect(result.exit.code == 130)
        // Interrupted is a failure: the error state, then cleared.
        #expect(sent == [Self.indeterminate, "\u{1B}]9;4;2;100\u{1B}\\", Self.cleared])
    }

    @Test func clearedAfterACrashOfTheHostItself() throws {
        let (result, sent) = try run(
            ["run", "--working", "Working", "--", "sleep", "30"],
            environment: ["WT_SESSION": "1", "SWIFT_BACKTRACE": "enable=no"],
            steps: [.waitText("Working"), .signal("SEGV"), .waitExit(20)])
        #expect(result.exit.signal == Int(SIGSEGV) || result.exit.code == 128 + Int(SIGSEGV))
        #expect(sent == [Self.indeterminate, Self.cleared])
        #expect(!result.final.cursor.hidden)
    }

    @Test func clearedAfterAPresenterCrash() throws {
        let files = try SandboxEndToEndTests.Files()
        var environment = files.environment("crash:show")
        environment["WT_SESSION"] = "1"
        let go = GoFile()
        let (result, sent) = try run(
            files.runArguments + go.command(), environment: environment,
            steps: [.waitText("crashed"), go.touch, .waitExit(20)])
        #expect(result.exit.code == 0)
        #expect(sent == [Self.indeterminate, Self.cleared])
        #expect(result.final.row(containing: "crashed in show") != nil)
    }

    @Test(arguments: [
        ([String: String](), [String]()),  // not on the allow-list
        (["WT_SESSION": "1", "TMUX": "/tmp/tmux-0/default,1,0"], []),  // inside tmux
        (["TERM_PROGRAM": "iTerm.app", "TERM_FEATURES": "T3LrMSc7UUw9Ts3BFGsSyHNoSxF"], []),  // an iTerm2 without "P"
        (["TERM_PROGRAM": "iTerm.app", "TERM_FEATURES": "T3LrMSc7PUw9"], [indeterminate, cleared]),
        (["VTE_VERSION": "7802"], []),
        (["VTE_VERSION": "7900"], [indeterminate, cleared]),
        (["TERM_PROGRAM": "ghostty"], [indeterminate, cleared]),
    ])
    func onlyWhereItIsUnderstood(environment: [String: String], expected: [String]) throws {
        let go = GoFile()
        let (result, sent) = try run(
            ["run", "--working", "Working", "--"] + go.command(), environment: environment,
            steps: [.waitText("Working"), go.touch, .waitExit(20)])
        #expect(result.exit.code == 0)
        #expect(sent == expected)
    }

    @Test func alwaysAndNeverWin() throws {
        let (first, second) = (GoFile(), GoFile())
        let (_, always) = try run(
            ["run", "--terminal-progress", "always", "--working", "Working", "--"] + first.command(),
            environment: ["TMUX": "/tmp/tmux-0/default,1,0"], steps: [.waitText("Working"), first.touch, .waitExit(20)])
        #expect(always == [Self.indeterminate, Self.cleared])
        let (_, never) = try run(
            ["run", "--terminal-progress", "never", "--working", "Working", "--"] + second.command(),
            environment: ["WT_SESSION": "1"], steps: [.waitText("Working"), second.touch, .waitExit(20)])
        #expect(never == [])
    }
}
