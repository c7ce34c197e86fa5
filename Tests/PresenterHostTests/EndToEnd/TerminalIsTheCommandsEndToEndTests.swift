import Foundation
import Testing

/// The terminal is the command's, through the real binary in tmux: the
/// settings as the command left them (read back with `stty -a` in the same
/// terminal after the run), a command asking for a password gets the
/// terminal, the region touches only its own rows and leaves nothing in
/// the scrollback, messages and the tail keep their meaning without their
/// escape codes, and `--events -` stays above the region.
@Suite("run end to end: the terminal is the command's", .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct TerminalIsTheCommandsEndToEndTests {
    static var binary: String { TerminalRegionEndToEndTests.binary }
    static func drawnByUs(_ line: String) -> Bool { TerminalRegionEndToEndTests.drawnByUs(line) }

    /// `run` with a presenter that renders every frame, traced (so the
    /// test and the command know frames were drawn), and `flags`, then
    /// `after`, in tmux; the session's command ends waiting.
    static func session(
        _ trace: TraceLog, _ flags: String, command: String, after: String = "", cols: Int = 80, rows: Int = 24
    ) throws -> TmuxSession {
        try TmuxSession(
            command:
                "\(try TerminalRegionEndToEndTests.animating(trace)) \(flags) -- sh -c \(TmuxSession.quoted(command)); "
                + "\(after) echo RUN-ENDED; exec sleep 60", cols: cols, rows: rows)
    }

    /// A shell command that waits until the presenter rendered `count` times more than when it was run.
    static func rendered(_ trace: TraceLog, _ count: Int) -> String {
        let renders = "$(grep -c 'misbehaving[.]render' '\(trace.path)')"
        return "n=\(renders); " + shellWaitUntil("[ \(renders) -ge $((n + \(count))) ]")
    }

    /// `stty -a` as the terminal is after the run, one word a setting (it
    /// may begin on the line of a prompt whose newline the command wrote
    /// with its output, which `run` keeps for a failure).
    static func settings(_ screen: [String]) -> [String] {
        let text = screen.prefix { $0 != "RUN-ENDED" }.joined(separator: " ")
        guard let start = text.range(of: "speed ") else { return [] }
        return text[start.lowerBound...].split(whereSeparator: { $0 == " " || $0 == ";" }).map(String.init)
    }

    @Test func echoTurnedOffAndOnByTheCommandIsOnAfterTheRun() throws {
        let trace = TraceLog()
        // Off before the presenter's frames, on after some: today's code
        // saved the settings at the first frame, echo off, and put them back.
        let tmux = try Self.session(
            trace, "--working Working", command: "stty -echo; \(Self.rendered(trace, 3)); stty echo", after: "stty -a;")
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor(timeout: 20) { $0.contains("RUN-ENDED") })
        let settings = Self.settings(screen)
        #expect(settings.contains("echo") && !settings.contains("-echo"), "\(screen)")
    }

    @Test func aSettingTheCommandChangedMidRunStays() throws {
        let trace = TraceLog()
        let tmux = try Self.session(
            trace, "--working Working", command: "\(Self.rendered(trace, 2)); stty -ixon; \(Self.rendered(trace, 2))",
            after: "stty -a;")
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor(timeout: 20) { $0.contains("RUN-ENDED") })
        let settings = Self.settings(screen)
        #expect(settings.contains("-ixon"), "\(screen)")
        #expect(settings.contains("echo") && !settings.contains("-echo"), "\(screen)")
    }

    /// Password readers set up once the box is shown: bash's `read -s -p`,
    /// its prompt on stderr (which `run` reads) or on the terminal itself,
    /// and what OpenSSH's and sudo's `readpassphrase` do (echo and `ECHONL`
    /// off, the prompt on the terminal). `ANSWER` is where the answer goes.
    @Test(arguments: [
        "bash -c 'read -s -p Password: pw; echo; echo \"$pw\" > ANSWER'",
        "bash -c 'read -s -p Password: pw 2>/dev/tty; echo; echo \"$pw\" > ANSWER'",
        "stty -echo -echonl; printf Password: >/dev/tty; read pw; stty echo; echo \"$pw\" > ANSWER",
    ])
    func aPasswordPromptGetsTheTerminal(reader: String) throws {
        let trace = TraceLog(), go = GoFile()
        let answer = TestPaths.temporaryDirectory("answer").appendingPathComponent("answer").path
        let tmux = try Self.session(
            trace, "--working Working",
            command: "\(go.wait); " + reader.replacingOccurrences(of: "ANSWER", with: answer),
            after: "stty -a;")
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { Self.drawnByUs($0) && $0.contains("Working") } } != nil)
        go.create()
        let asking = try #require(tmux.waitFor { $0.contains("Password:") && !$0.contains(where: Self.drawnByUs) })
        // Frames go on meanwhile, and the region stays off.
        let renders = trace.count("fixture.misbehaving.render")
        #expect(
            waitUntil(timeout: 10) { trace.count("fixture.misbehaving.render") >= renders + 3 },
            "no frames: \(trace.calls)")
        let still = tmux.capture()
        #expect(still.contains("Password:") && !still.contains(where: Self.drawnByUs), "\(asking) then \(still)")
        #expect(tmux.cursor().visible)
        tmux.type("secret")
        let screen = try #require(tmux.waitFor(timeout: 20) { $0.contains("RUN-ENDED") })
        #expect(!screen.contains { $0.contains("secret") }, "echoed: \(screen)")
        #expect((try? String(contentsOfFile: answer, encoding: .utf8)) == "secret\n")
        let settings = Self.settings(screen)
        #expect(settings.contains("echo") && !settings.contains("-echo"), "\(screen)")
    }

    @Test func rowsBelowTheCursorSurvive() throws {
        let go = GoFile()
        // The cursor moved up into earlier output, as `tput cuu 6` does.
        let tmux = try TmuxSession(
            command: "seq 1 8 | sed s/^/keep-me-/; printf '\\033[6A'; \(Self.binary) run --working Keeping -- "
                + "sh -c \(TmuxSession.quoted(go.wait)); touch \(go.path)-ended; exec sleep 60")
        defer { tmux.kill() }
        let shown = try #require(tmux.waitFor { $0.contains { $0.contains("Keeping") } })
        // The rows below the cursor's line moved down, out of the region's way.
        #expect(shown.firstIndex(of: "keep-me-8") ?? 0 > shown.lastIndex(where: Self.drawnByUs) ?? 99, "\(shown)")
        go.create()
        #expect(waitUntil(timeout: 20) { FileManager.default.fileExists(atPath: go.path + "-ended") })
        let screen = tmux.capture()
        #expect(screen == (1...8).map { "keep-me-\($0)" }, "lost or moved: \(screen)")
    }

    @Test func narrowingTheWindowLeavesNothingInTheScrollback() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        let go = GoFile()
        tmux.type(
            "\(Self.binary) run --working 'Resizing the window' -- sh -c \(TmuxSession.quoted(go.wait)); echo DONE")
        try #require(tmux.waitFor { $0.contains { Self.drawnByUs($0) && $0.contains("Resizing") } } != nil)
        try #require(tmux.resize(cols: 40, rows: 24))
        // Redrawn at the new width: one whole box (a fourth row once the run
        // passed 3 s: mbhud's elapsed time).
        try #require(
            tmux.waitFor { lines in
                lines.filter { $0.contains("╭") }.count == 1 && (3...4).contains(lines.filter(Self.drawnByUs).count)
                    && lines.allSatisfy { $0.count < 40 || !Self.drawnByUs($0) }
            } != nil)
        go.create()
        try #require(tmux.waitFor(timeout: 10) { $0.contains("DONE") && $0.last == "$" } != nil)
        let all = tmux.capture(history: true)
        #expect(!all.contains(where: Self.drawnByUs), "left behind in the history: \(all)")
        #expect(all.filter { !$0.isEmpty }.count == 3, "stray lines: \(all)")
    }

    /// The region as tall as the terminal allows (`--output tail`): its
    /// lines never reach the scrollback (an erase from the top left corner
    /// made tmux keep the whole screen in its history).
    @Test(arguments: [(30, 10, "tail", 12), (80, 24, "tail=20", 30)])
    func aShortTerminalLeavesNothingInTheScrollback(cols: Int, rows: Int, tail: String, lines: Int) throws {
        let trace = TraceLog()
        let tmux = try Self.session(
            trace, "--output \(tail) --working Tail",
            command: "for i in $(seq 1 \(lines)); do echo L$i; done; \(Self.rendered(trace, 3))", cols: cols,
            rows: rows)
        defer { tmux.kill() }
        try #require(tmux.waitFor(timeout: 20) { $0.contains("RUN-ENDED") } != nil)
        let all = tmux.capture(history: true)
        // It succeeded: its output is dropped, and the region is gone.
        #expect(all.filter { !$0.isEmpty } == ["RUN-ENDED"], "left behind: \(all)")
    }

    @Test func ctrlZLeavesNoBlankLineBeforeTheShellsStoppedLine() throws {
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        let go = GoFile()
        tmux.type("\(Self.binary) run --working Stopping -- sh -c \(TmuxSession.quoted(go.wait))")
        try #require(tmux.waitFor { $0.contains { Self.drawnByUs($0) && $0.contains("Stopping") } } != nil)
        tmux.keys("C-z")
        let stopped = try #require(tmux.waitFor { $0.contains { $0.contains("Stopped") } })
        let line = try #require(stopped.firstIndex { $0.contains("Stopped") })
        // As without run: the terminal's echo of the key, then the shell's line.
        #expect(stopped[line - 1] == "^Z", "\(stopped)")
        go.create()
    }

    @Test func colourCodesInAMessageAreNotShown() throws {
        let go = GoFile()
        let tmux = try TmuxSession(
            command: "\(Self.binary) run --working \"$(tput bold)Building$(tput sgr0) $(tput setaf 1)now$(tput sgr0)\" "
                + "-- sh -c \(TmuxSession.quoted(go.wait)); exec sleep 60")
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor { $0.contains { Self.drawnByUs($0) && $0.contains("Building") } })
        #expect(screen.contains { $0.contains(" Building now │") }, "\(screen)")
        #expect(!screen.contains { $0.contains("[") || $0.contains("(B") }, "\(screen)")
        go.create()
    }

    @Test func theTailShowsLinesWithoutColoursAndWithTabsExpanded() throws {
        let go = GoFile()
        let tmux = try TmuxSession(
            command: "\(Self.binary) run --output tail --working Tail -- sh -c "
                + TmuxSession.quoted("printf '\\033[31mred\\033[0m\\tafter\\n'; \(go.wait)") + "; exec sleep 60")
        defer { tmux.kill() }
        let screen = try #require(
            tmux.waitFor { $0.contains { $0.contains("after") } && $0.contains { $0.contains("Tail") } })
        #expect(screen.contains("red     after"), "\(screen)")
        go.create()
    }

    @Test func eventsOnTheTerminalStayAboveTheRegion() throws {
        let go = GoFile()
        let tmux = try TmuxSession(
            command: "\(Self.binary) run --events - --working Eventful --success Done -- sh -c "
                + TmuxSession.quoted("echo 50% >&$PRESENTER_PROGRESS_FD; \(go.wait)")
                + "; echo RUN-ENDED; exec sleep 60", cols: 200)
        defer { tmux.kill() }
        let running = try #require(
            tmux.waitFor { lines in
                lines.contains { $0.contains(#""event":"progress""#) }
                    && lines.contains { Self.drawnByUs($0) && $0.contains("Eventful") }
            })
        let start = try #require(running.firstIndex { $0.contains(#""event":"start""#) }, "\(running)")
        let progress = try #require(running.firstIndex { $0.contains(#""event":"progress""#) })
        let box = try #require(running.firstIndex(where: Self.drawnByUs))
        #expect(start == 0 && progress == 1 && box > progress, "\(running)")
        go.create()
        let screen = try #require(tmux.waitFor(timeout: 20) { $0.contains("RUN-ENDED") })
        #expect(screen.first?.contains(#""event":"start""#) == true, "\(screen)")
        #expect(screen.dropFirst().first?.contains(#""event":"progress""#) == true, "\(screen)")
        let success = try #require(screen.first { $0.contains(#""event":"success""#) }, "\(screen)")
        #expect(success.contains(#""message":"Done""#))
    }
}
