import Foundation
import Glibc
@testable import HostSystem
import Testing

/// `run --pty` through the real binary in real terminals (the pty driver
/// with pyte, tmux with a job-control shell): the command sees a terminal
/// on its output, Python prints line by line, colours stay in the stream,
/// its size is the pane's and follows it, and what a user or a script sees
/// of its end (Ctrl-C, Ctrl-Z then `fg`, the exit status, the kept output
/// of a failure) is what it is without `--pty`.
@Suite("run --pty end to end", .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct RunPtyEndToEndTests {
    static var binary: String { TerminalRegionEndToEndTests.binary }
    static func drawnByUs(_ line: String) -> Bool { TerminalRegionEndToEndTests.drawnByUs(line) }

    @Test(arguments: [true, false])
    func standardOutputIsATerminalOnlyWithPty(pty: Bool) throws {
        let run = try TerminalDriver.run(
            ["run"] + (pty ? ["--pty"] : []) + [
                "--output", "stream", "--", "sh", "-c", "[ -t 1 ] && echo ONE-IS-A-TERMINAL || echo ONE-IS-NOT",
            ], steps: [.waitExit(20)])
        #expect(run.errors == [] && run.exit.code == 0, "\(run.exit) \(run.errors)")
        let line = pty ? "ONE-IS-A-TERMINAL" : "ONE-IS-NOT"
        #expect(run.final.lines.contains(line), "\(run.final.lines)")
    }

    /// Python's `print` with no `-u`: a line seen before the test lets
    /// the next one come was not kept in a buffer. In the stream, and in
    /// the tail (which a success takes off with the region).
    @Test(arguments: ["stream", "tail"])
    func aPythonPrintLoopAppearsLineByLine(output: String) throws {
        let python = try #require(TerminalDriver.python)
        let go = GoFile()
        let script = """
            import os, time
            for i in range(3):
                print("printed", i)
                while not os.path.exists("\(go.path)" + str(i)):
                    time.sleep(0.05)
            """
        let run = try TerminalDriver.run(
            ["run", "--pty", "--output", output, "--working", "Printing", "--", python.path, "-c", script],
            steps: (0..<3).flatMap { [.waitText("printed \($0)"), .touch(go.path + String($0))] } + [.waitExit(20)])
        #expect(run.errors == [] && run.exit.code == 0, "\(run.exit) \(run.errors)")
        #expect(
            (0..<3).allSatisfy { run.final.lines.contains("printed \($0)") } == (output == "stream"),
            "\(run.final.lines)")
    }

    @Test(arguments: [true, false])
    func grepKeepsItsColoursInTheStreamOnlyWithPty(pty: Bool) throws {
        let raw = TestPaths.temporaryDirectory("pty-colour").appendingPathComponent("raw").path
        let run = try TerminalDriver.run(
            ["run"] + (pty ? ["--pty"] : []) + [
                "--output", "stream", "--working", "Grep", "--", "sh", "-c",
                "echo a needle here | GREP_COLORS= grep --color=auto needle",
            ], rawFile: raw, steps: [.waitExit(20)])
        #expect(run.errors == [] && run.exit.code == 0, "\(run.exit) \(run.errors)")
        let bytes = try String(contentsOfFile: raw, encoding: .utf8)
        #expect(
            bytes.contains("a ") && bytes.contains("needle") && bytes.contains(" here"), "\(bytes.debugDescription)")
        #expect(bytes.contains("\u{1B}[01;31m\u{1B}[Kneedle") == pty, "\(bytes.debugDescription)")
    }

    /// Both streams on one terminal written as is, so the bytes after the
    /// outcome's line are the replay, as `run` wrote it.
    @Test func theKeptOutputOfAFailureIsTheSameWithAndWithoutPty() throws {
        let output = "one\ntwo\r\nthree\tx\nerr\nno newline"
        let command = "printf 'one\\ntwo\\r\\nthree\\tx\\n'; echo err >&2; printf 'no newline'; exit 3"
        for pty in [false, true] {
            let terminal = try PseudoTerminal.writtenAsIs(cols: 200)
            let process = try TestProcess(
                TestPaths.binary, ["run"] + (pty ? ["--pty"] : []) + ["--", "sh", "-c", command],
                environment: ["TERM": "xterm-256color"], stdout: .descriptor(terminal.follower),
                stderr: .descriptor(terminal.follower))
            terminal.closeFollower()
            let reader = try TerminalReader(terminal.leader)
            _ = process.communicate(input: [])
            #expect(process.wait() == 3)
            let bytes = String(decoding: reader.finish(), as: UTF8.self)
            #expect(bytes.hasSuffix("exit status 3\r\n" + output), "--pty \(pty): \(bytes.debugDescription)")
        }
    }

    @Test func aProcessLeftHoldingTheTerminalDoesNotHoldTheRun() throws {
        // It holds the command's stderr, the pty, for a minute (then the test
        // ends it): a run that ends within half of that did not wait for it.
        let pidFile = TestPaths.temporaryDirectory("pty-orphan").appendingPathComponent("pid").path
        let start = Date()
        let result = try ProcessRunner.hostInTerminal([
            "run", "--pty", "--", "sh", "-c", "sleep 60 >/dev/null & echo $! > \(pidFile); echo started >&2",
        ])
        let orphan = try waitForPid(in: pidFile)
        defer { kill(orphan, SIGKILL) }
        #expect(result.status == 0, "\(result)")
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(kill(orphan, 0) == 0, "the orphan should still run")
    }

    @Test func plainModeReadsNothingSoOpensNoTerminal() throws {
        // No terminal: the output goes straight through, as without --pty.
        let result = try ProcessRunner.host(["run", "--pty", "--", "sh", "-c", "[ -t 1 ] || echo straight-through"])
        #expect(result.status == 0 && result.stdout == "straight-through\n", "\(result)")
    }

    /// Whether a mount namespace can be made here, to hide `/dev/pts`.
    static let canHidePseudoTerminals: Bool = {
        guard Toolchain.find("unshare") != nil else { return false }
        let probe = try? ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "unshare -m sh -c 'mount -t tmpfs tmpfs /dev/pts'"])
        return probe?.status == 0
    }()

    @Test(.enabled(if: canHidePseudoTerminals, "cannot make a mount namespace here (unshare -m refused): not run"))
    func withoutPseudoTerminalsItSaysSoAndStartsNothing() throws {
        let marker = TestPaths.temporaryDirectory("no-pts").appendingPathComponent("started").path
        // --output hide: read even in plain mode, so a terminal is wanted.
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "unshare -m sh -c 'mount -t tmpfs tmpfs /dev/pts && exec \"$0\" \"$@\"' \"$0\" run --pty "
                    + "--output hide -- touch \(marker)",
                TestPaths.binary.path,
            ])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.hasSuffix(
                "touch: cannot start: no pseudo-terminal for --pty (No such device); mount /dev/pts or run it without --pty\n"
            ), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// Types, at the prompt of an interactive shell in tmux, `run` with
    /// `flags`, its command waiting for `go` and then running `then`;
    /// returns once the region is drawn.
    static func startJob(_ tmux: TmuxSession, _ flags: String, tag: String, go: GoFile, then: String) throws {
        tmux.type("\(binary) run \(flags) --working Job-\(tag) -- sh -c \(TmuxSession.quoted(go.wait + "; " + then))")
        try #require(tmux.waitFor { $0.contains { Self.drawnByUs($0) && $0.contains("Job-\(tag)") } } != nil)
    }

    /// Once the prompt is back, the status the shell got, asked for on a
    /// line of its own (a job that a signal killed or stopped ends the line
    /// it was on).
    static func status(_ tmux: TmuxSession, tag: String) throws -> String {
        try #require(tmux.waitFor { $0.last == "$" } != nil)
        tmux.type("echo status-\(tag)=$?")
        let screen = try #require(tmux.waitFor { $0.contains { $0.hasPrefix("status-\(tag)=") } })
        return screen.last { $0.hasPrefix("status-\(tag)=") }.map { String($0.dropFirst(tag.count + 8)) } ?? ""
    }

    @Test(.enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
    func ctrlCEndsTheRunAsWithoutPty() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        var statuses: [String] = []
        for (tag, flags) in [("pipe", ""), ("pty", "--pty")] {
            let go = GoFile()
            defer { go.create() }
            try Self.startJob(tmux, flags, tag: tag, go: go, then: "exit 0")
            tmux.keys("C-c")
            statuses.append(try Self.status(tmux, tag: tag))
            #expect(!tmux.capture().contains(where: Self.drawnByUs), "left behind: \(tmux.capture())")
        }
        #expect(statuses == ["130", "130"])
    }

    @Test(.enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
    func ctrlZThenFgAndTheExitStatusAreAsWithoutPty() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell, cols: 100)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        for (tag, flags) in [("pipe", "--output stream"), ("pty", "--output stream --pty")] {
            let go = GoFile()
            defer { go.create() }
            try Self.startJob(
                tmux, flags, tag: tag, go: go, then: "[ -t 1 ] && echo after-$0-tty; echo after-$0; exit 3")
            tmux.keys("C-z")
            try #require(tmux.waitFor { $0.contains { $0.contains("Stopped") && $0.contains("Job-\(tag)") } } != nil)
            tmux.type("fg")
            // Continued in the foreground: its region is drawn again, and it goes on.
            try #require(
                tmux.waitFor { $0.last.map(Self.drawnByUs) == true && $0.contains { $0.contains("Job-") } } != nil)
            go.create()
            #expect(try Self.status(tmux, tag: tag) == "3")
            let screen = tmux.capture()
            #expect(screen.contains("after-sh"), "\(screen)")
            #expect(screen.contains("after-sh-tty") == (tag == "pty"), "\(screen)")
            tmux.type("clear")
            try #require(tmux.waitFor { $0 == ["$"] } != nil)
        }
    }

    /// The size copied: the command's terminal is the pane's size, and is
    /// again after a resize. (The SIGWINCH the host sends after the copy is
    /// ``aResizeWhileStoppedReachesTheCommandAtFg``'s: here the kernel's own
    /// reaches the shell, which looks only after its wait.)
    @Test(.enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
    func theSizeIsThePanesAndFollowsAResize() throws {
        let go = GoFile()
        defer { go.create() }
        // `stty size` asks its stdin: here the command's stderr, the pty.
        let command = "trap 'echo SIZE $(stty size <&2)' WINCH; echo SIZE $(stty size <&2); \(go.wait)"
        let tmux = try TmuxSession(
            command:
                "\(Self.binary) run --pty --output stream --working Sizing -- sh -c \(TmuxSession.quoted(command)); "
                + "exec sleep 60")
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains("SIZE 24 80") && $0.contains(where: Self.drawnByUs) } != nil)
        try #require(tmux.resize(cols: 60, rows: 20))
        #expect(tmux.waitFor { $0.contains("SIZE 20 60") } != nil)
    }

    /// Resized while stopped: no SIGWINCH reached the job then (the shell
    /// had the terminal), so at `fg` the host gives the command the new
    /// size and tells it, as its stdout's size is no longer the terminal's.
    @Test(.enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
    func aResizeWhileStoppedReachesTheCommandAtFg() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        let go = GoFile()
        defer { go.create() }
        let command = "trap 'echo SIZE $(stty size <&2)' WINCH; echo SIZE $(stty size <&2); \(go.wait)"
        tmux.type(
            "\(Self.binary) run --pty --output stream --working Sizing -- sh -c \(TmuxSession.quoted(command))")
        try #require(tmux.waitFor { $0.contains("SIZE 24 80") && $0.last.map(Self.drawnByUs) == true } != nil)
        tmux.keys("C-z")
        try #require(tmux.waitFor { $0.contains { $0.contains("Stopped") } } != nil)
        try #require(tmux.resize(cols: 60, rows: 20))
        tmux.type("fg")
        #expect(tmux.waitFor { $0.contains("SIZE 20 60") } != nil)
    }
}
