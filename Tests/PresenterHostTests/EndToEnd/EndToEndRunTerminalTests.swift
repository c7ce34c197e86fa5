import Foundation
import Testing

/// `presenter-host run` in a real terminal emulator: the built binary runs in
/// a pseudo-terminal of 80 × 24 and its output goes through pyte (a VT100 /
/// xterm emulator in Python, driven by Fixtures/term/pty_screen.py); the
/// tests read the screen back.
@Suite("run end to end: in a terminal", .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct EndToEndRunTerminalTests {
    private let rows = 24, cols = 80
    private let spinnerFrames = Set("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    @Test func successShowsACentredBoxThenLeavesTheCheckMarkLine() throws {
        // 30 lines of earlier output fill the screen: the region goes below them.
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "Sleeping...", "--success", "Done!", "--"] + go.command(), printFirst: 30,
            steps: [.waitText("Sleeping..."), .waitText("╰"), .snapshot("working"), go.touch, .waitExit(20)])
        #expect(run.errors == [])
        let working = try #require(run.snapshots["working"])
        let row = try #require(working.row(containing: "Sleeping..."))
        // The region is at the bottom of the terminal, below the earlier output.
        #expect(row >= rows - 6)
        let lastOutput = try #require(working.lines.lastIndex(of: "30"))
        #expect(lastOutput < row - 1)
        // A bordered box around the message, centred.
        let line = working.lines[row]
        #expect(line.contains("│") || line.contains("|"))
        let text = line.trimmingCharacters(in: .whitespaces)
        let left = line.prefix { $0 == " " }.count
        let right = cols - left - text.count
        #expect(abs(left - right) <= 2, "box not centred: \(left) columns left, \(right) right in \(line)")
        #expect(row > 0 && working.lines[row - 1].contains { "╭┌+─-".contains($0) })
        #expect(line.contains { spinnerFrames.contains($0) }, "no spinner in \(line)")
        #expect(working.cursor.hidden)

        #expect(run.exit.code == 0)
        // The earlier output, then the outcome's line, where the region
        // began (the box is gone); the cursor just below it.
        #expect(run.final.nonEmptyLines.suffix(2) == ["30", "✔ Done!"])
        #expect(run.final.nonEmptyLines.dropLast().allSatisfy { Int($0) != nil }, "left behind: \(run.final.lines)")
        #expect(!run.final.cursor.hidden)
        #expect(run.final.cursor.y == (run.final.lines.lastIndex(of: "✔ Done!") ?? -1) + 1)
    }

    @Test func failureLeavesTheCrossLineThenTheCommandsOutput() throws {
        // The output comes while the box is up; the command fails once the test saw the box.
        let go = GoFile()
        let run = try TerminalDriver.run(
            [
                "run", "--working", "Working", "--failure", "It broke", "--",
                "sh", "-c", "echo some output; echo more >&2; \(go.wait); exit 3",
            ],
            steps: [.waitText("Working"), .snapshot("working"), go.touch, .waitExit(20)])
        #expect(run.errors == [])
        // Kept back while the presenter was on screen...
        let working = try #require(run.snapshots["working"])
        #expect(working.row(containing: "some output") == nil)
        // ...and shown after the failure's line, which stays, with nothing else left.
        #expect(run.exit.code == 3)
        #expect(run.final.nonEmptyLines == ["✖ It broke: exit status 3", "some output", "more"])
        #expect(!run.final.cursor.hidden)
    }

    @Test func aCtrlCThatMakesTheTerminalDropTheRestoringBytesGetsThemAgain() throws {
        // A terminal that fell behind: from the go file on, nothing is read.
        // The tail's frames fill more than the 4 KiB the terminal keeps, the
        // region goes (the cursor's `show` lands in the part a Ctrl-C
        // discards: POSIX flushes output not yet delivered on INTR), and the
        // failed command's output, shown then, blocks the host in its write.
        // Ctrl-C comes then: after the flush the host shows the cursor again.
        let go = GoFile()
        let lines =
            "i=0; while [ $i -lt 300 ]; do echo \"line $i of the command, long enough to fill a row\"; "
            + "i=$((i+1)); sleep 0.005; done"
        let run = try TerminalDriver.run(
            [
                "run", "--output", "tail", "--working", "Working", "--failure", "It broke", "--",
                "sh", "-c", "\(go.wait); \(lines); yes 'more output' | head -n 40000; exit 3",
            ],
            fastPlain: true,
            steps: [.waitText("Working"), go.touch, .waitWriting(), .keys("\u{03}"), .waitExit(20)])
        #expect(run.errors == [])
        #expect(run.exit.code == 3)
        #expect(!run.final.cursor.hidden)
    }

    @Test func outputOfASuccessfulCommandIsDropped() throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "W", "--", "sh", "-c", "echo hidden; \(go.wait)"],
            steps: [.waitText("W"), go.touch, .waitExit(20)])
        #expect(run.exit.code == 0)
        #expect(run.final.isBlank, "left behind: \(run.final.lines)")
    }

    @Test func showOutputPrintsLinesAboveTheRegion() throws {
        // Each line comes once the test saw the one before (the first, the box).
        let go = (0..<4).map { _ in GoFile() }
        let run = try TerminalDriver.run(
            [
                "run", "--show-output", "--working", "Counting", "--", "sh", "-c",
                "\(go[0].wait); echo line1; \(go[1].wait); echo line2; \(go[2].wait); echo line3; \(go[3].wait); "
                    + "printf partial",
            ],
            steps: [
                .waitText("Counting"), go[0].touch, .waitText("line1"), go[1].touch, .waitText("line2"), go[2].touch,
                .waitText("line3"), .snapshot("output"), go[3].touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        let output = try #require(run.snapshots["output"])
        let line1 = try #require(output.row(containing: "line1"))
        let line3 = try #require(output.row(containing: "line3"))
        let box = try #require(output.row(containing: "Counting"))
        #expect(line1 < line3 && line3 < box)
        #expect(output.lines[line1] == "line1")
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["line1", "line2", "line3", "partial"])
        #expect(!run.final.cursor.hidden)
        // The unfinished line as the command wrote it: the cursor after it, no newline added.
        #expect(run.final.cursor.y == run.final.row(containing: "partial"))
        #expect(run.final.cursor.x == "partial".count)
    }

    /// `CI` means CI (plain lines) only when set to something other than
    /// empty, `0` or `false`.
    @Test(arguments: [("false", true), ("0", true), ("", true), ("true", false), ("1", false)])
    func ciMeansCIOnlyWhenItSaysSo(value: String, drawn: Bool) throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "Working", "--"] + go.command(), environment: ["CI": value],
            steps: [.waitText("Working"), .snapshot("working"), go.touch, .waitExit(20)])
        #expect(run.errors == [])
        let working = try #require(run.snapshots["working"])
        #expect((working.row(containing: "╭") != nil) == drawn, "CI=\(value): \(working.lines)")
        #expect(run.exit.code == 0)
    }

    @Test func ctrlCAtTheTerminalDiesOfSIGINTAndRestoresTheScreen() throws {
        let run = try TerminalDriver.run(
            ["run", "--working", "Waiting", "--", "sleep", "30"],
            steps: [.waitText("Waiting"), .keys("\u{03}"), .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.signal == Int(SIGINT))
        #expect(!run.final.cursor.hidden)
        #expect(run.final.row(containing: "Waiting") == nil, "left behind: \(run.final.lines)")
    }

    /// Forwarded to the command, which dies of it: so does the host.
    @Test(arguments: [("INT", SIGINT), ("TERM", SIGTERM), ("HUP", SIGHUP)])
    func signalToTheHostDiesOfItAndRestoresTheScreen(signal: String, number: Int32) throws {
        let run = try TerminalDriver.run(
            ["run", "--working", "Waiting", "--", "sleep", "30"],
            steps: [.waitText("Waiting"), .signal(signal), .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.signal == Int(number))
        #expect(!run.final.cursor.hidden)
        #expect(run.final.row(containing: "Waiting") == nil, "left behind: \(run.final.lines)")
    }

    @Test func noColorDropsColourButKeepsTheAnimation() throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "Spinning", "--failure", "Failed", "--"] + go.command(then: "exit 1"),
            environment: ["NO_COLOR": "1"],
            steps: [
                .waitText("Spinning"), .snapshot("a"), .waitChanged("a"), .snapshot("b"), go.touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        #expect(!run.sgrColor, "colour codes with NO_COLOR: \(run.sgr)")
        let a = try #require(run.snapshots["a"]), b = try #require(run.snapshots["b"])
        #expect(a.lines != b.lines, "the spinner did not move")
        #expect(b.row(containing: "Spinning") != nil, "the change was not the spinner's: \(b.lines)")
    }

    @Test func colorAlwaysWinsOverNoColor() throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--color", "always", "--working", "W", "--failure", "Failed", "--"] + go.command(then: "exit 1"),
            environment: ["NO_COLOR": "1"], steps: [.waitText("W"), go.touch, .waitText("Failed"), .waitExit(20)])
        #expect(run.sgrColor, "no colour codes with --color always: \(run.sgr)")
    }

    @Test(arguments: [TerminalDriver.Step.keys("\u{1a}"), .signalGroup("TSTP")])
    func ctrlZTakesTheRegionOffUntilTheJobIsContinued(stop: TerminalDriver.Step) throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "Working", "--"] + go.command(), jobControl: true,
            steps: [
                .waitText("Working"), stop, .waitStopped(), .snapshot("stopped"),
                .signalGroup("CONT"), .waitText("Working"), .snapshot("resumed"), go.touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        // Only the key's echo, which echo off under the region swallowed and
        // the terminal would have written (a signal from elsewhere has none).
        let echo = stop.json["keys"] == nil ? [] : ["^Z"]
        let stopped = try #require(run.snapshots["stopped"])
        #expect(stopped.nonEmptyLines == echo, "left while stopped: \(stopped.lines)")
        #expect(!stopped.cursor.hidden)
        let resumed = try #require(run.snapshots["resumed"])
        #expect(resumed.row(containing: "Working") != nil)
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == echo, "left behind: \(run.final.lines)")
        #expect(!run.final.cursor.hidden)
    }

    @Test func ctrlZAtOnceStopsTheHostBeforeItDrawsAgain() throws {
        // The stop right after the first frame, several times: the host must
        // not run on (and redraw) between clearing the region and stopping.
        for _ in 0..<5 {
            let go = GoFile()
            let run = try TerminalDriver.run(
                ["run", "--min-show", "0", "--working", "Working", "--"] + go.command(), jobControl: true,
                steps: [
                    .waitText("Working"), .signalGroup("TSTP"), .waitStopped(), .snapshot("stopped"),
                    .signalGroup("CONT"), go.touch, .waitExit(10),
                ])
            #expect(run.errors == [])
            #expect(run.snapshots["stopped"]?.isBlank == true)
            #expect(run.exit.code == 0)
        }
    }

    @Test(
        .disabled(
            if: Sanitizer.current == .thread,
            "ThreadSanitizer's own background thread wakes the host every 100 ms, 20 times in the window"))
    func nothingWakesWhileTheFailureMessageStands() throws {
        // The same 2 s window twice: while the spinner turns, then while the
        // failure message (held 3 s with --linger) stands still.
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--linger", "--working", "Working", "--failure", "It failed", "--"] + go.command(then: "exit 1"),
            steps: [
                .waitText("Working"), .switchesOver("animating", seconds: 2), go.touch,
                .waitText("It failed"), .switchesOver("standing", seconds: 2), .waitExit(20),
            ])
        #expect(run.errors == [])
        #expect(run.exit.code == 1)
        let animating = try #require(run.switches["animating"]), standing = try #require(run.switches["standing"])
        // The window would show wake-ups: a spinner's frame every 80 ms wakes the host.
        #expect(animating >= 10, "the host's threads woke only \(animating) times in 2 s while animating")
        // Polling every 50 ms would wake a thread 40 times in these 2 s.
        #expect(standing < 10, "the host's threads woke \(standing) times in 2 s with nothing to animate")
    }

    /// MBHud draws its spinner with draw_cycle (ABI 1.2): the host turns it,
    /// and the presenter process, asked nothing, sleeps. Asked for every
    /// frame, as before, it woke about 25 times in the window.
    @Test func theSpinnerTurnsWhileThePresenterProcessSleeps() throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "Working", "--"] + go.command(),
            steps: [
                .waitText("Working"), .presenterSwitchesOver("presenter", seconds: 2), .snapshot("after"),
                .waitChanged("after", timeout: 5), go.touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        #expect(run.exit.code == 0)
        let presenter = try #require(run.switches["presenter"])
        #expect(presenter < 5, "the presenter process woke \(presenter) times in 2 s of spinning")
    }

    @Test func timeoutEndsWithOneLineAndACleanScreen() throws {
        // The command would outlive the test: only the timeout ends it.
        let run = try TerminalDriver.run(
            ["run", "--timeout", "0.8", "--working", "Waiting", "--", "sh", "-c", "sleep 60; echo x"],
            steps: [.waitText("Waiting"), .waitExit(20)])
        #expect(run.errors == [])
        #expect(run.exit.code == 124)
        #expect(run.final.nonEmptyLines == ["✖ timed out after 0.8 s"])
        #expect(!run.final.cursor.hidden)
    }

    /// A timeout is said once in either mode (issue 31): the failure's line,
    /// which stays in a terminal and is printed in plain mode, with nothing
    /// after it.
    @Test func aTimeoutIsSaidOnceInBothModes() throws {
        let arguments = ["run", "--timeout", "0.8", "--", "sleep", "30"]
        let terminal = try TerminalDriver.run(arguments, steps: [.waitText("sleep 30"), .waitExit(20)])
        #expect(terminal.exit.code == 124)
        #expect(terminal.final.nonEmptyLines.filter { $0.contains("timed out") }.count == 1, "\(terminal.final.lines)")
        let plain = try ProcessRunner.host(arguments, environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(plain.status == 124)
        #expect(terminal.final.nonEmptyLines == ["✖ timed out after 0.8 s"])
        #expect(plain.stderr == "sleep 30\n✖ timed out after 0.8 s\n")
    }

    @Test func wideTextInANarrowTerminalFitsTheBoxAndIsCut() throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "日本語のメッセージ 🎉 and more text", "--success", "完了 ✅", "--"] + go.command(),
            cols: 20,
            steps: [.waitText("日本"), .snapshot("working"), go.touch, .waitExit(20)])
        #expect(run.errors == [])
        let working = try #require(run.snapshots["working"])
        let row = try #require(working.row(containing: "日本"))
        let line = working.lines[row].trimmingCharacters(in: .whitespaces)
        // Both borders are on screen: the box fits the 20 columns, the text is cut.
        #expect(line.first.map { "│|".contains($0) } == true && line.last.map { "│|".contains($0) } == true, "\(line)")
        #expect(line.contains("…"))
        let top = working.lines[row - 1].trimmingCharacters(in: .whitespaces)
        #expect(top.first.map { "╭┌+".contains($0) } == true && top.last.map { "╮┐+".contains($0) } == true, "\(top)")
        // What stays is one line, the emoji counted two columns.
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["✔ 完了 ✅"])
    }

    @Test func cLocaleGetsTheAsciiSpinnerAndBox() throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "Plain ASCII", "--"] + go.command(), environment: ["LANG": "C", "LC_ALL": "C"],
            steps: [.waitText("Plain ASCII"), .snapshot("working"), go.touch, .waitExit(20)])
        #expect(run.errors == [])
        let working = try #require(run.snapshots["working"])
        let row = try #require(working.row(containing: "Plain ASCII"))
        let line = working.lines[row].trimmingCharacters(in: .whitespaces)
        #expect(line.hasPrefix("| ") && line.hasSuffix(" |"), "\(line)")
        #expect(line.dropFirst(2).first.map { "-\\|/".contains($0) } == true, "no ASCII spinner in \(line)")
        #expect(working.lines[row - 1].trimmingCharacters(in: .whitespaces).hasPrefix("+--"))
        #expect(working.lines.allSatisfy { $0.allSatisfy(\.isASCII) }, "not ASCII: \(working.lines)")
        #expect(run.exit.code == 0)
        #expect(run.final.isBlank)
    }

    @Test func stderrRedirectedToAFileGetsPlainLinesAndTheScreenNothing() throws {
        let dir = TestPaths.temporaryDirectory("run2file")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("log").path
        let raw = dir.appendingPathComponent("raw").path
        let run = try TerminalDriver.run(
            ["run", "--working", "Working", "--success", "Done", "--", "sh", "-c", "echo out"],
            stderrTo: log, rawFile: raw, steps: [.waitExit(20)])
        #expect(run.errors == [])
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["out"])  // the command's stdout, nothing of ours
        #expect(!(try Data(contentsOf: URL(fileURLWithPath: raw))).contains(0x1b))
        let written = try Data(contentsOf: URL(fileURLWithPath: log))
        #expect(!written.contains(0x1b))
        #expect(String(decoding: written, as: UTF8.self) == "Working\n✔ Done\n")
    }

    @Test func largeOutputIsReplayedWholeAfterAFailure() throws {
        let dir = TestPaths.temporaryDirectory("runbig")
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("raw").path
        let lines = 300_000
        // About 9 MB: more than the 4 MiB kept in memory, so it goes through the temporary file.
        let run = try TerminalDriver.run(
            [
                "run", "--working", "Printing", "--failure", "Failed", "--", "sh", "-c",
                "seq -f 'output line %g of the test run' 1 \(lines); exit 3",
            ],
            rawFile: raw, fastPlain: true, steps: [.waitExit(60)])
        #expect(run.errors == [])
        #expect(run.exit.code == 3)
        #expect(run.final.nonEmptyLines.last == "output line \(lines) of the test run")
        #expect(!run.final.cursor.hidden)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: raw)), as: UTF8.self)
        // The failure's line stays, before the output.
        let kept = try #require(text.range(of: "✖\u{1B}[m Failed: exit status 3\r"))
        #expect(kept.upperBound <= (text.range(of: "output line 1 of")?.lowerBound ?? text.startIndex))
        let pattern = try NSRegularExpression(pattern: "output line ([0-9]+) of the test run\r\n")
        var expected = 1
        var inOrder = true
        var bytes = 0
        pattern.enumerateMatches(in: text, range: NSRange(text.startIndex..., in: text)) { match, _, _ in
            guard let match, let range = Range(match.range(at: 1), in: text) else { return }
            if Int(text[range]) != expected { inOrder = false }
            expected += 1
            bytes += match.range.length
        }
        #expect(expected - 1 == lines)
        #expect(inOrder)
        // Every byte of every line, as the terminal received it (\n became \r\n).
        let expectedBytes = (1...lines).reduce(0) { $0 + "output line \($1) of the test run\r\n".utf8.count }
        #expect(bytes == expectedBytes)
    }

    /// With --linger the success message shows for its time once the command
    /// ended: an interrupt then cuts that time short, and the command's
    /// status and its outcome's line stay.
    @Test(arguments: [TerminalDriver.Step.keys("\u{03}"), .signal("INT")])
    func interruptDuringTheSuccessMessageKeepsTheCommandsStatus(interrupt: TerminalDriver.Step) throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--linger", "--working", "Working", "--success", "All done", "--"] + go.command(),
            steps: [.waitText("Working"), go.touch, .waitText("All done"), interrupt, .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.code == 0)
        // The outcome's line stays; then Ctrl-C's echo, as the terminal
        // would have written it under no region.
        let echo = interrupt.json["keys"] == nil ? [] : ["^C"]
        #expect(run.final.nonEmptyLines == ["✔ All done"] + echo, "left behind: \(run.final.lines)")
        #expect(!run.final.cursor.hidden)
    }

    @Test func commandThatCannotStartNeverShowsTheBox() throws {
        let dir = TestPaths.temporaryDirectory("runnoexec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let blob = dir.appendingPathComponent("blob")
        try writeExecutable([0x00, 0x01, 0x02, 0x0a], to: blob)
        let run = try TerminalDriver.run(
            ["run", "--working", "Flash", "--", blob.path], watch: ["Flash"],
            steps: [.waitExit(10)])
        #expect(run.exit.code == 126)
        #expect(run.watched["Flash"] == false, "the box was drawn before the error")
        // One line (wrapped by the 80-column terminal).
        #expect(
            run.final.nonEmptyLines.joined()
                == "Error: \(blob.path): cannot execute: Exec format error; check that it is an executable file")
        #expect(!run.final.cursor.hidden)

        let script = dir.appendingPathComponent("script")
        // The control: a script without a shebang does start, and its box is drawn.
        let go = GoFile()
        try writeExecutable(Array("echo from the script >&2; \(go.wait)\n".utf8), to: script)
        let ran = try TerminalDriver.run(
            ["run", "--working", "Script", "--failure", "F", "--", script.path, "x"],
            watch: ["Script"], steps: [.waitText("Script"), go.touch, .waitExit(10)])
        #expect(ran.exit.code == 0)
        #expect(ran.watched["Script"] == true)
    }

    @Test func dumbTerminalGetsPlainLines() throws {
        let run = try TerminalDriver.run(
            ["run", "--working", "Sleeping...", "--success", "Done!", "--", "true"],
            environment: ["TERM": "dumb"], steps: [.waitExit(20)])
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["Sleeping...", "✔ Done!"])
        #expect(run.sgr.isEmpty)
        #expect(run.bytes == "Sleeping...\r\n✔ Done!\r\n".utf8.count)
    }
}

/// Fails when the terminal driver (python3 with pyte) is missing, in CI and
/// locally alike: the terminal tests would otherwise pass by being skipped.
/// scripts/test installs pyte.
@Suite("run end to end: terminal driver")
struct TerminalDriverAvailabilityTests {
    @Test func driverIsAvailable() {
        #expect(
            TerminalDriver.isAvailable,
            "python3 with pyte is missing: the terminal end-to-end tests did not run; run scripts/test (it installs pyte) or pip install pyte"
        )
    }
}
