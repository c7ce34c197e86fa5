import Foundation
@testable import HostText
import Testing

/// The line the command is still writing, shown live (issue 34), through
/// the real binary in a terminal (pyte): a `\r`-redrawn progress line shows
/// its latest state in `--output tail` and `stream` before its newline,
/// stream commits its last state above the region once, and the replay of
/// a failure shows each line's last state.
@Suite("run end to end: the live line", .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct LiveLineEndToEndTests {
    /// A line redrawn with `\r` in states that get shorter, each held until
    /// the test saw it: `downloading  10%`, `downloading  50%`, `ok` and
    /// its newline. Raw, a terminal would leave `okwnloading  50%`.
    static func redrawn(_ go: [GoFile], then: String) -> [String] {
        [
            "sh", "-c",
            "printf 'first\\n'; printf '\\rdownloading  10%%'; \(go[0].wait); printf '\\rdownloading  50%%'; "
                + "\(go[1].wait); printf '\\rok\\r\\n'; \(go[2].wait); \(then)",
        ]
    }

    @Test func theTailShowsTheLatestStateBeforeTheNewlineAndTheReplayItsLastState() throws {
        let go = (0..<3).map { _ in GoFile() }
        let run = try TerminalDriver.run(
            ["run", "--output", "tail=3", "--working", "Fetching", "--"] + Self.redrawn(go, then: "exit 3"),
            steps: [
                .waitText("Fetching"), .waitText("downloading  10%"), .snapshot("ten"), go[0].touch,
                .waitText("downloading  50%"), .snapshot("fifty"), go[1].touch, .waitGone("downloading"),
                .snapshot("ended"), go[2].touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        #expect(run.exit.code == 3)
        let ten = try #require(run.snapshots["ten"])
        let box = try #require(ten.row(containing: "Fetching"))
        let live = try #require(ten.row(containing: "downloading  10%"))
        #expect(live > box && ten.lines[live - 1] == "first", "\(ten.lines)")
        let fifty = try #require(run.snapshots["fifty"])
        #expect(fifty.row(containing: "10%") == nil, "\(fifty.lines)")
        #expect(fifty.row(containing: "downloading  50%") == live, "\(fifty.lines)")
        let ended = try #require(run.snapshots["ended"])
        #expect(ended.lines[live] == "ok", "the line ended in its last state: \(ended.lines)")
        // The replay: each line once, in its last state.
        let final = run.final.nonEmptyLines
        #expect(final.filter { $0 == "ok" }.count == 1, "\(final)")
        #expect(final.contains("first"))
        #expect(!final.contains { $0.contains("downloading") }, "a state the line redrew: \(final)")
    }

    @Test func streamShowsTheLineLiveBelowAndCommitsItsLastStateAbove() throws {
        let go = (0..<4).map { _ in GoFile() }
        let run = try TerminalDriver.run(
            ["run", "--output", "stream", "--working", "Streaming", "--"]
                + Self.redrawn(go, then: "printf 'Progress: '; \(go[3].wait); printf 'done\\n'"),
            steps: [
                .waitText("Streaming"), .waitText("downloading  10%"), .snapshot("ten"), go[0].touch,
                .waitText("downloading  50%"), go[1].touch, .waitGone("downloading"), .waitText("ok"),
                .snapshot("committed"), go[2].touch, .waitText("Progress:"), .snapshot("partial"), go[3].touch,
                .waitExit(20),
            ])
        #expect(run.errors == [])
        #expect(run.exit.code == 0)
        let ten = try #require(run.snapshots["ten"])
        let box = try #require(ten.row(containing: "Streaming"))
        #expect((ten.row(containing: "first") ?? 99) < box, "\(ten.lines)")
        #expect((ten.row(containing: "downloading  10%") ?? -1) > box, "\(ten.lines)")
        let committed = try #require(run.snapshots["committed"])
        #expect(
            (committed.row(containing: "ok") ?? 99) < (committed.row(containing: "Streaming") ?? -1),
            "\(committed.lines)")
        let partial = try #require(run.snapshots["partial"])
        #expect(
            (partial.row(containing: "Progress:") ?? -1) > (partial.row(containing: "Streaming") ?? 99),
            "a partial line shows live too: \(partial.lines)")
        #expect(run.final.nonEmptyLines == ["first", "ok", "Progress: done"])
    }

    /// A line of 10 MB without a newline: the live row shows its start, cut
    /// at the edge (the host's memory for such a line is
    /// BoundedOutputLineTests').
    @Test func aHugeLineShowsCutAtTheEdge() throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            [
                "run", "--output", "tail=2", "--working", "Copying", "--", "sh", "-c",
                "head -c 10000000 /dev/zero | tr '\\0' a; printf '\\rtail end'; \(go.wait)",
            ],
            steps: [.waitText("Copying"), .waitText("tail end"), .snapshot("live"), go.touch, .waitExit(60)])
        #expect(run.exit.code == 0)
        let live = try #require(run.snapshots["live"])
        let row = try #require(live.row(containing: "tail end"))
        #expect(live.lines[row] == "tail end")
        #expect(live.lines[row - 1].hasPrefix("aaaa") && live.lines[row - 1].hasSuffix("…"), "\(live.lines)")
        #expect(live.lines.allSatisfy { DisplayWidth.of($0) <= 79 })
    }

    /// `--working-from-output` (gum #157): the latest line, escaped as
    /// messages are, then the line being written, live, is the working
    /// message; the default output mode shows the output nowhere else.
    @Test func workingFromOutputShowsTheLatestLineAsTheMessage() throws {
        let go = (0..<2).map { _ in GoFile() }
        let script =
            "printf '\\033[1mStep one\\033[0m\\n'; \(go[0].wait); printf '\\rfetch  10%%'; \(go[1].wait); "
            + "printf '\\rfetch 100%%\\n'"
        let run = try TerminalDriver.run(
            ["run", "--working-from-output", "--working", "Starting", "--", "sh", "-c", script],
            steps: [
                .waitText("Step one"), .snapshot("line"), go[0].touch, .waitText("fetch  10%"), .snapshot("live"),
                go[1].touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        #expect(run.exit.code == 0)
        let line = try #require(run.snapshots["line"])
        let row = try #require(line.row(containing: "Step one"))
        #expect(line.lines[row].contains("│"), "not in the box: \(line.lines)")
        #expect(!line.lines[row].contains("[1m"), "an escape code left: \(line.lines[row])")
        let live = try #require(run.snapshots["live"])
        #expect(live.row(containing: "fetch  10%") == row && live.row(containing: "Step one") == nil, "\(live.lines)")
        #expect(run.final.isBlank, "left behind: \(run.final.lines)")
    }
}

/// Plain mode (stderr not a terminal) reads nothing of the output: every
/// state of a redrawn line passes through as it was written, whatever
/// `--output` and `--working-from-output` say.
@Suite("run end to end: the live line in plain mode")
struct LiveLinePlainTests {
    @Test(arguments: ["tail", "stream", "on-failure"])
    func plainModePassesEveryStateThrough(mode: String) throws {
        let result = try ProcessRunner.host(
            [
                "run", "--output", mode, "--working-from-output", "--working", "W", "--", "sh", "-c",
                "printf '\\r 10%%\\r 50%%\\rok\\r\\n' >&2; exit 1",
            ],
            environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("W\n\r 10%\r 50%\rok\r\n✖ "), "\(result.stderr.debugDescription)")
    }
}

/// The scrollback of a real terminal (tmux) keeps each streamed line once,
/// in its last state, however often the live row showed it.
@Suite("run end to end: the live line's scrollback", .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct LiveLineScrollbackTests {
    @Test func theScrollbackHasNoIntermediateState() throws {
        let go = (0..<6).map { _ in GoFile() }
        // Six lines, each followed by a line redrawn with \r whose first
        // state the test sees before its last ends it, in a terminal of 10
        // rows: the output scrolls under the region.
        let script = go.enumerated().map { step, file in
            "echo 'line \(step)'; printf '\\r 10%% of \(step)'; \(file.wait); printf '\\r100%% of \(step)\\n'"
        }.joined(separator: "; ")
        let tmux = try TmuxSession(
            command: "\(TmuxSession.quoted(TestPaths.binary.path)) run --output stream --working Working -- "
                + "sh -c \(TmuxSession.quoted(script)); echo \"DONE $?\"; exec sleep 60",
            rows: 10)
        defer { tmux.kill() }
        for (step, file) in go.enumerated() {
            try #require(tmux.waitFor { $0.contains { $0.contains(" 10% of \(step)") } } != nil)
            file.create()
        }
        try #require(tmux.waitFor(timeout: 20) { $0.contains { $0.hasPrefix("DONE") } } != nil)
        let history = tmux.capture(history: true)
        let expected = (0..<6).flatMap { ["line \($0)", "100% of \($0)"] }
        #expect(history.filter { $0.hasPrefix("line ") || $0.contains("%") } == expected, "\(history)")
        #expect(history.contains("DONE 0"))
    }
}
