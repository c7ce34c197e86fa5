import Foundation
import Glibc
import Testing
@testable import HostSystem

/// Signals end what they would end without the host (issue 31): a command
/// killed by a signal makes the host die of it after cleaning up (so a
/// Ctrl-C stops a shell loop), a command that answered the signal keeps its
/// status, and every command that draws traps the same signals, Ctrl-\
/// too. Through the real binary in a terminal: the pty driver, and bash in
/// tmux. (Plain mode's cases are in EndToEndRunPlainTests.)
@Suite(
    "signals end what they end without the host", .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct SignalEndingTests {
    @Test func ctrlCKillsTheCommandAndTheHostDiesOfSIGINTWithTheScreenRestored() throws {
        let run = try TerminalDriver.run(
            ["run", "--working", "Waiting", "--", "sleep", "30"],
            steps: [.waitText("Waiting"), .keys("\u{03}"), .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.signal == Int(SIGINT), "\(run.exit)")
        #expect(!run.final.cursor.hidden)
        #expect(run.echo == true)
        #expect(run.final.row(containing: "Waiting") == nil, "left behind: \(run.final.lines)")
    }

    /// Ctrl-C reaches the command, which handles it and exits 5: that is
    /// the status, not 130.
    @Test func aCommandThatHandlesCtrlCKeepsItsStatus() throws {
        let run = try TerminalDriver.run(
            [
                "run", "--output", "stream", "--working", "Waiting", "--", "sh", "-c",
                "trap 'exit 5' INT; echo armed; while :; do sleep 0.05; done",
            ],
            steps: [.waitText("armed"), .waitText("Waiting"), .keys("\u{03}"), .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.code == 5, "\(run.exit)")
        #expect(!run.final.cursor.hidden)
    }

    /// Ctrl-\ on `drive` (which did not trap SIGQUIT: a Swift backtrace on
    /// the terminal, echo left off, the cursor hidden): the terminal is
    /// given back, then the host dies of SIGQUIT, as a program Ctrl-\ ends
    /// does, with no core of its own.
    @Test func ctrlBackslashOnDriveRestoresTheTerminalAndDiesOfSIGQUIT() throws {
        let run = try TerminalDriver.run(
            [], environment: ["SWIFT_BACKTRACE": "enable=yes"], shell: "exec \"$0\" drive",
            steps: [
                .keys(#"{"start": "a", "working": "Driving"}"# + "\r"), .waitText("╰"), .keys("\u{1C}"),
                .waitExit(10),
            ])
        #expect(run.errors == [])
        #expect(run.exit.signal == Int(SIGQUIT), "\(run.exit)")
        #expect(!run.final.cursor.hidden)
        #expect(run.echo == true)
        #expect(!run.final.lines.contains { $0.contains("╰") || $0.contains("crashed") }, "\(run.final.lines)")
    }

    /// Ctrl-C during `add-bookmark --get-title` (a fetch that never
    /// answers): the line goes, then the host dies of SIGINT.
    @Test func ctrlCOnGetTitleRestoresTheTerminalAndDiesOfSIGINT() throws {
        let url = TitleServer.shared.url("/gate/never-\(UUID().uuidString)")
        let run = try TerminalDriver.run(
            [],
            shell: "exec \(AddBookmarkTitleTests.direct) \"$0\" add-bookmark --get-title --timeout 30 --url '\(url)'",
            steps: [.waitText("Getting the title"), .keys("\u{03}"), .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.signal == Int(SIGINT), "\(run.exit)")
        #expect(!run.final.cursor.hidden)
        #expect(run.final.row(containing: "Getting the title") == nil, "left behind: \(run.final.lines)")
    }

    /// Ctrl-C in a bash `for` loop of runs stops the loop, as with a bare
    /// `sleep`: bash goes on only when its child exits (it handled the
    /// signal), not when it dies of it.
    @Test(.enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
    func ctrlCStopsABashLoopOfRuns() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        let binary = TmuxSession.quoted(TestPaths.binary.path)
        tmux.type(
            "for i in 1 2 3; do \(binary) run --working \"Iteration $i\" -- sleep 30; echo \"after $i\"; done; echo LOOP-DONE"
        )
        try #require(tmux.waitFor { $0.contains { $0.contains("Iteration 1") && $0.contains("│") } } != nil)
        tmux.keys("C-c")
        let screen = try #require(
            tmux.waitFor { $0.last == "$" || $0.contains { $0.contains("after 1") || $0.contains("Iteration 2") } })
        #expect(
            !screen.contains { $0.contains("after 1") || $0.contains("Iteration 2") }, "the loop went on: \(screen)")
        #expect(!screen.contains("LOOP-DONE"), "the loop went on: \(screen)")
        #expect(tmux.cursor().visible)
    }
}
