import Foundation
import Testing

/// The terminal region of `presenter-host run` in tmux, a real terminal that
/// rewraps lines on a resize and runs a real shell with job control: the
/// built binary runs in a session of 80 × 24 (a tmux server of its own per
/// test) and the tests read the screen back with `capture-pane`.
@Suite("run end to end: the terminal region in tmux", .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct TerminalRegionEndToEndTests {
    /// What only our region draws: the mbhud box, the spinner, the marks.
    static func drawnByUs(_ line: String) -> Bool {
        line.unicodeScalars.contains { "╭╮╰╯│─✔✖".unicodeScalars.contains($0) || (0x2800...0x28FF).contains($0.value) }
    }

    static var binary: String { TmuxSession.quoted(TestPaths.binary.path) }

    /// `sh -c` waiting for `go`, as words for the shell in tmux.
    static func waiting(for go: GoFile) -> String { "sh -c " + TmuxSession.quoted(go.wait) }

    @Test func anUnfinishedLineBeforeRunIsKept() throws {
        let go = GoFile()
        let tmux = try TmuxSession(
            command: "printf 'Progress so far: '; \(Self.binary) run --working Working -- \(Self.waiting(for: go)); "
                + "echo DONE; exec sleep 60")
        defer { tmux.kill() }
        // While the box is shown, the text is there above it.
        let shown = try #require(tmux.waitFor { $0.contains { $0.contains("Working") } })
        #expect(shown.first == "Progress so far:")
        go.create()
        let screen = try #require(tmux.waitFor { $0.contains { $0.contains("DONE") } })
        #expect(screen == ["Progress so far: DONE"], "left behind: \(screen)")
        #expect(tmux.cursor().visible)
    }

    /// A presenter that animates by asking for a frame every 100 ms, so
    /// that its renders, in the trace, show the frames of a run in the
    /// background (mbhud's spinner turns without a render: draw_cycle).
    static func animating(_ trace: TraceLog) throws -> String {
        let plugins = try FixtureBuilder.directory([.misbehaving])
        return "\(binary) --plugin-dir \(TmuxSession.quoted(plugins.path)) \(trace.shellFlags("run")) "
            + "--presenter fixture.misbehaving"
    }

    @Test func aBackgroundRunDrawsNothingAndLeavesThePromptClean() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        let trace = TraceLog(), go = GoFile()
        tmux.type("\(try Self.animating(trace)) --working Background -- \(Self.waiting(for: go)) &")
        // Frames the presenter drew in the background: each would be on the
        // screen in the foreground. The shell echoes what is typed next after
        // the terminal got whatever they wrote.
        #expect(
            waitUntil(timeout: 10) { trace.count("fixture.misbehaving.render") >= 3 }, "no frames: \(trace.calls)")
        tmux.type("echo typed at the prompt")
        let typed = try #require(tmux.waitFor { $0.contains("typed at the prompt") })
        #expect(!typed.contains(where: Self.drawnByUs), "drawn in the background: \(typed)")
        #expect(typed.contains("$ echo typed at the prompt"))
        #expect(tmux.cursor().visible)
        go.create()
        tmux.type("wait; echo END")
        let screen = try #require(tmux.waitFor(timeout: 10) { $0.contains("END") && $0.last == "$" })
        #expect(!screen.contains(where: Self.drawnByUs), "left behind: \(screen)")
        #expect(tmux.cursor().visible)
    }

    @Test func ctrlZThenBgTakesTheRegionOffAndDrawsNothingMore() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        // The command runs until the test is done with the job (a guessed
        // sleep of 2.5 s ended under load before Ctrl-Z, or before the frames after bg).
        let trace = TraceLog(), go = GoFile()
        tmux.type("\(try Self.animating(trace)) --working Stopping -- \(Self.waiting(for: go))")
        // The box, not the typed command line (which holds "Stopping" too):
        // a Ctrl-Z before the job runs goes to the shell and is lost.
        try #require(tmux.waitFor { $0.contains { Self.drawnByUs($0) && $0.contains("Stopping") } } != nil)
        tmux.keys("C-z")
        try #require(
            tmux.waitFor { $0.contains { $0.contains("Stopped") } } != nil,
            "the job did not stop:\n\(processTreeReport(root: tmux.panePid))\nthe last hook calls: \(trace.calls.suffix(4))"
        )
        let renders = trace.count("fixture.misbehaving.render")
        tmux.type("bg")
        // Frames drawn after bg, which the foreground would show (see above).
        #expect(
            waitUntil(timeout: 10) { trace.count("fixture.misbehaving.render") >= renders + 3 },
            "no frames after bg: \(trace.calls)")
        tmux.type("echo typed at the prompt")
        let typed = try #require(tmux.waitFor { $0.contains("typed at the prompt") })
        #expect(!typed.contains(where: Self.drawnByUs), "drawn in the background: \(typed)")
        #expect(tmux.cursor().visible)
        go.create()
        tmux.type("wait; echo END")
        let screen = try #require(tmux.waitFor(timeout: 10) { $0.contains("END") && $0.last == "$" })
        #expect(!screen.contains(where: Self.drawnByUs), "left behind: \(screen)")
        #expect(tmux.cursor().visible)
    }

    @Test func fgRedrawsAViewThatDoesNotAnimate() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        // With --linger the success message stands still for 1.5 s + 10 ms a
        // character (4 s here).
        let message = "Finished" + String(repeating: ".", count: 242)
        let trace = TraceLog(), go = GoFile()
        tmux.type(
            "\(Self.binary) \(trace.shellFlags("run")) --linger --working W --success \(message) -- "
                + "\(Self.waiting(for: go)) &")
        // The command ends once the presenter drew its box.
        #expect(waitUntil(timeout: 10) { trace.count("mbhud.render") >= 1 }, "no frame: \(trace.calls)")
        go.create()
        // fg once the view stands still: the command ended and the success
        // message was rendered (in the background). After that the view asks
        // for no frame until it goes, so only the foreground watch can draw it.
        #expect(
            waitUntil(timeout: 10) { trace.called("mbhud.render", after: "mbhud.hide") },
            "the success message was never rendered: \(trace.calls)")
        tmux.type("fg")
        let shown = try #require(tmux.waitFor(timeout: 5) { $0.contains { $0.contains("✔ Finished") } })
        #expect(shown.contains { $0.contains("╭") })
        // Then the box goes, and the outcome's line stays above the prompt.
        let box = { (line: String) in line.unicodeScalars.contains { "╭╮╰╯│".unicodeScalars.contains($0) } }
        let screen = try #require(tmux.waitFor(timeout: 10) { $0.last == "$" && !$0.contains(where: box) })
        #expect(screen.filter { !$0.isEmpty }.suffix(2).first?.hasPrefix("✔ Finished...") == true, "\(screen)")
        #expect(screen.filter { !$0.isEmpty }.last == "$")
        #expect(tmux.cursor().visible)
    }

    @Test func shrinkingTheWindowLeavesNoDebris() throws {
        let go = GoFile()
        let earlier = (1...10).map { "earlier output line \($0), long enough to wrap at forty columns" }
        let tmux = try TmuxSession(
            command:
                "for i in $(seq 1 10); do echo \"earlier output line $i, long enough to wrap at forty columns\"; done; "
                + "printf 'Progress so far: '; \(Self.binary) run --working 'Resizing the window' -- "
                + "\(Self.waiting(for: go)); "
                + "echo DONE; exec sleep 60")
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("Resizing") } } != nil)
        tmux.run(["resize-window", "-t", "main", "-x", "40"])
        // Redrawn at the new width: one whole box, no halves of the old one
        // (a fourth row once the run passed 3 s: mbhud's elapsed time).
        let redrawn = try #require(
            tmux.waitFor { lines in
                lines.filter { $0.contains("╭") }.count == 1 && (3...4).contains(lines.filter(Self.drawnByUs).count)
                    && lines.allSatisfy { $0.count < 40 || !Self.drawnByUs($0) }
            })
        #expect(redrawn.contains("Progress so far:"))
        go.create()
        let screen = try #require(tmux.waitFor(timeout: 10) { $0.contains { $0.contains("DONE") } })
        #expect(!screen.contains(where: Self.drawnByUs), "left behind: \(screen)")
        // The earlier output (some of it in the history now), whole, then our line, then nothing.
        let all = tmux.capture(history: true)
        #expect(!all.contains(where: Self.drawnByUs), "left behind in the history: \(all)")
        let start = try #require(all.firstIndex(of: earlier[0]), "earlier output lost: \(all)")
        #expect(Array(all[start...]) == earlier + ["Progress so far: DONE"], "stray or broken lines: \(all)")
        #expect(tmux.cursor().visible)
    }
}

/// Fails when tmux is missing, in CI and locally alike: the region tests
/// above would otherwise pass by being skipped. scripts/test installs tmux.
@Suite("run end to end: tmux available")
struct TmuxAvailabilityTests {
    @Test func tmuxIsAvailable() {
        #expect(
            TmuxSession.isAvailable,
            "tmux is missing: the terminal region and add-bookmark tests did not run; run scripts/test (it installs tmux) or apt-get install tmux"
        )
    }
}
