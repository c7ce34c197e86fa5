import Foundation
@testable import HostText
@testable import HostRuntime
import HostSystem
import Testing

@Suite("TerminalBackend")
struct TerminalBackendTests {
    /// A terminal of 30 × 10 with two lines of earlier output (and optionally
    /// an unfinished third); the backend's region is 3 rows (a 29 × 3 view),
    /// below the cursor's line (the anchor).
    struct Setup {
        let pipe = OutputPipe()
        let backend: TerminalBackend
        let foreground: SharedFlag
        var terminal: VirtualTerminal
        init(color: Bool = true, partial: String = "", foreground: SharedFlag = SharedFlag()) {
            self.foreground = foreground
            terminal = VirtualTerminal(cols: 30, rows: 10, text: ["$ make", "compiling..."], partial: partial)
            backend = TerminalBackend(
                fd: pipe.writeEnd, regionRows: 3, color: color, unicode: true,
                terminalSize: (30, 10), silenceInput: false,
                isForeground: { foreground.isSet })
        }
        /// Presents `canvas`; returns the bytes written.
        @discardableResult
        mutating func present(_ canvas: Canvas) -> [UInt8] {
            backend.present(canvas)
            let bytes = pipe.read()
            terminal.feed(bytes)
            return bytes
        }
        mutating func run(_ action: (TerminalBackend) -> Void) -> [UInt8] {
            action(backend)
            let bytes = pipe.read()
            terminal.feed(bytes)
            return bytes
        }
        /// The region's rows on the virtual screen (the anchor is row 2).
        var region: [String] { Array(terminal.lines[3..<6]) }
        /// What the screen showed before the backend wrote anything.
        var blankScreen: [String] { ["$ make", "compiling..."] + Array(repeating: "", count: 8) }
    }

    /// What reserves the 3 rows of a region below the anchor: room made
    /// (IND, scrolling at the bottom), back up, the anchor saved, the rows
    /// inserted below it (IL), back on the anchor.
    static let reserve = "\u{1B}D\u{1B}D\u{1B}D\u{1B}[3A\u{1B}7\u{1B}D\u{1B}[3L\u{1B}8"
    /// What takes those rows off again (DL), from the saved anchor and back to it.
    static let erase = "\u{1B}8\u{1B}D\u{1B}[3M\u{1B}8"
    /// The same after a resize, from the cursor (the saved anchor is stale
    /// then), and the rest of the anchor's line.
    static let eraseAfterResize = "\u{1B}7\u{1B}D\u{1B}[3M\u{1B}8\u{1B}[K"

    func hud(_ spinner: String, message: String = "Saving bookmark...", spinnerStyle: CellStyle = .plain) -> Canvas {
        var canvas = Canvas(cols: 29, rows: 3)
        canvas.drawBox(col: 2, row: 0, width: 25, height: 3)
        canvas.drawText(spinner, col: 4, row: 1, maxColumns: 1, style: spinnerStyle)
        canvas.drawText(message, col: 6, row: 1, maxColumns: 19)
        return canvas
    }

    @Test("the view is one column narrower than the terminal and at most regionRows high")
    func size() {
        let setup = Setup()
        #expect(setup.backend.size == (29, 3))
        #expect(setup.backend.flags == [.unicode, .animated, .color])
    }

    @Test("the first frame hides the cursor, makes room below the cursor's line, saves the cursor there and draws")
    func firstFrame() {
        var setup = Setup()
        let bytes = setup.present(hud("⠋"))
        #expect(
            String(decoding: bytes, as: UTF8.self).hasPrefix("\u{1B}[?25l" + Self.reserve)
        )
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\u{1B}8"))
        #expect(setup.terminal.lines[0..<3] == ["$ make", "compiling...", ""])
        #expect(setup.region == hud("⠋").lines())
        #expect(!setup.terminal.cursorVisible)
        #expect(setup.terminal.cursor == (2, 0))
        #expect(setup.backend.writeCount == 1)
        #expect(setup.terminal.unknown.isEmpty)
    }

    @Test("an unfinished line before the region is kept, and the cursor ends after it")
    func partialLine() {
        var setup = Setup(partial: "Progress so far: ")
        setup.present(hud("⠋"))
        #expect(setup.terminal.lines[2] == "Progress so far:")
        #expect(setup.region == hud("⠋").lines())
        setup.present(hud("⠙"))
        _ = setup.run { $0.finish() }
        #expect(setup.terminal.cursor == (2, 17))
        #expect(setup.terminal.cursorVisible)
        setup.terminal.feed(Array("DONE".utf8))
        #expect(
            setup.terminal.lines == ["$ make", "compiling...", "Progress so far: DONE"] + Array(repeating: "", count: 7)
        )
    }

    @Test("a blank frame before anything was shown writes nothing")
    func blankFirstFrame() {
        var setup = Setup()
        #expect(setup.present(Canvas(cols: 29, rows: 3)).isEmpty)
        #expect(setup.backend.writeCount == 0)
        #expect(setup.run { $0.finish() }.isEmpty)
    }

    @Test("an unchanged frame writes nothing at all")
    func unchanged() {
        var setup = Setup()
        setup.present(hud("⠋"))
        #expect(setup.present(hud("⠋")).isEmpty)
        #expect(setup.backend.writeCount == 1)
    }

    @Test(
        "a spinner-only frame costs at most 24 bytes in one write",
        arguments: [CellStyle.plain, CellStyle(rawValue: 6)])
    func spinnerFrame(style: CellStyle) {
        var setup = Setup()
        setup.present(hud("⠋", spinnerStyle: style))
        for (index, frame) in ["⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"].enumerated() {
            let writes = setup.backend.writeCount
            let bytes = setup.present(hud(frame, spinnerStyle: style))
            #expect(bytes.count <= 24, "frame \(index): \(bytes.count) bytes")
            #expect(setup.backend.writeCount == writes + 1)
            #expect(setup.region == hud(frame).lines())
        }
        // Back on the saved anchor (DECRC): next lines (CNL), forward (CUF), the cell, back (DECRC).
        let expected =
            style == .plain
            ? "\u{1B}8\u{1B}[2E\u{1B}[4C⠙\u{1B}8" : "\u{1B}8\u{1B}[2E\u{1B}[4C\u{1B}[36m⠙\u{1B}[m\u{1B}8"
        #expect(String(decoding: setup.present(hud("⠙", spinnerStyle: style)), as: UTF8.self) == expected)
    }

    @Test("only changed cells are written")
    func minimalDiff() {
        var setup = Setup()
        setup.present(hud("⠋", message: "Saving bookmark..."))
        let bytes = String(decoding: setup.present(hud("⠋", message: "Saving bookmarks.")), as: UTF8.self)
        #expect(!bytes.contains("Saving"))
        #expect(bytes.contains("s."))
        #expect(bytes.utf8.count <= 16)
        #expect(setup.region == hud("⠋", message: "Saving bookmarks.").lines())
    }

    @Test("a gap of unchanged cells narrower than a cursor move is written again; a wider one is moved over")
    func gapsBetweenChanges() {
        var setup = Setup()
        var before = Canvas(cols: 29, rows: 3)
        before.drawText("xyz.........w", col: 0, row: 1, maxColumns: 29)
        setup.present(before)
        var after = Canvas(cols: 29, rows: 3)
        after.drawText("XyZ.........W", col: 0, row: 1, maxColumns: 29)
        let bytes = String(decoding: setup.present(after), as: UTF8.self)
        #expect(bytes.contains("XyZ"), "one unchanged cell (1 byte) is cheaper than ESC[C (3)")
        #expect(bytes.contains("Z\u{1B}[9CW"), "nine unchanged cells (9 bytes) cost more than ESC[9C (4)")
        #expect(setup.region == after.lines())
    }

    @Test(
        "frames of random text, wide characters and emoji always leave the screen equal to the canvas and the cursor on the anchor",
        arguments: ["", "$ "])
    func randomFrames(partial: String) {
        var setup = Setup(partial: partial)
        var generator = SeededGenerator(seed: 42)
        let words = ["a", "bc", "日本", "😀", "Saving", "…", "✔", "x😀y", "한", "   ", "é"]
        for _ in 0..<200 {
            var canvas = Canvas(cols: 29, rows: 3)
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let text = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    words.randomElement(using: &generator)!
                }.joined()
                canvas.drawText(
                    text, col: Int.random(in: -2...28, using: &generator),
                    row: Int.random(in: 0...2, using: &generator),
                    maxColumns: Int.random(in: 1...30, using: &generator),
                    style: CellStyle(rawValue: UInt32.random(in: 0...0x7F, using: &generator)))
            }
            if Bool.random(using: &generator) { canvas.drawBox(col: 1, row: 0, width: 10, height: 3) }
            setup.present(canvas)
            #expect(setup.region == canvas.lines())
            #expect(setup.terminal.cursor == (2, partial.count))
        }
        #expect(setup.terminal.lastColumnWrites == 0)
        #expect(setup.terminal.unknown.isEmpty)
        #expect(
            setup.terminal.lines[0..<3] == ["$ make", "compiling...", partial.trimmingCharacters(in: .whitespaces)])
    }

    @Test("finish clears the region, shows the cursor and leaves it where it was before the region came")
    func finish() {
        var setup = Setup()
        setup.present(hud("⠋", spinnerStyle: CellStyle(rawValue: 0x12)))
        let bytes = setup.run { $0.finish() }
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix(Self.erase + "\u{1B}[?25h"))
        #expect(setup.terminal.lines == setup.blankScreen)
        #expect(setup.terminal.cursorVisible)
        #expect(setup.terminal.cursor == (2, 0))
        #expect(setup.run { $0.finish() }.isEmpty)
    }

    @Test("suspend (Ctrl-Z) clears the region and shows the cursor; the next frame draws it all again")
    func suspendAndResume() {
        var setup = Setup()
        setup.present(hud("⠋"))
        _ = setup.run { $0.suspend() }
        #expect(setup.terminal.lines == setup.blankScreen)
        #expect(setup.terminal.cursorVisible)
        setup.present(hud("⠋"))
        #expect(setup.region == hud("⠋").lines())
        #expect(!setup.terminal.cursorVisible)
    }

    @Test("after suspend (Ctrl-Z), printAbove prints the text alone: the region comes back with the next frame")
    func printAboveWhileSuspended() {
        // The soak found it: a log line printed between suspend and the
        // host's stop drew the region again, so the job stopped with the
        // cursor hidden (and echo off, which `bg` could not set back).
        var setup = Setup()
        setup.present(hud("⠋"))
        _ = setup.run { $0.suspend() }
        _ = setup.run { $0.printAbove("log line") }
        #expect(setup.terminal.lines[0..<4] == ["$ make", "compiling...", "log line", ""])
        #expect(setup.terminal.lines[3...].allSatisfy { $0.isEmpty })
        #expect(setup.terminal.cursorVisible)
        setup.present(hud("⠙"))
        #expect(Array(setup.terminal.lines[4..<7]) == hud("⠙").lines())
        #expect(!setup.terminal.cursorVisible)
    }

    @Test("printAbove puts the text above the region and redraws it")
    func printAbove() {
        var setup = Setup()
        setup.present(hud("⠋"))
        _ = setup.run { $0.printAbove("line one\nline two") }
        #expect(setup.terminal.lines[0..<5] == ["$ make", "compiling...", "line one", "line two", ""])
        #expect(Array(setup.terminal.lines[5..<8]) == hud("⠋").lines())
        #expect(!setup.terminal.cursorVisible)
        setup.present(hud("⠙"))
        #expect(Array(setup.terminal.lines[5..<8]) == hud("⠙").lines())
        _ = setup.run { $0.finish() }
        #expect(setup.terminal.cursor == (4, 0))
        #expect(setup.terminal.lines[5...].allSatisfy { $0.isEmpty })
    }

    @Test("printAbove continues an unfinished line as it would have without the region")
    func printAboveAfterPartialLine() {
        var setup = Setup(partial: "Progress so far: ")
        setup.present(hud("⠋"))
        _ = setup.run { $0.printAbove("50%\n") }
        #expect(setup.terminal.lines[2] == "Progress so far: 50%")
        #expect(Array(setup.terminal.lines[4..<7]) == hud("⠋").lines())
        _ = setup.run { $0.finish() }
        #expect(setup.terminal.cursor == (3, 0))
        #expect(setup.terminal.lines[3...].allSatisfy { $0.isEmpty })
    }

    @Test(
        "a region reserved on the last line scrolls earlier output up; finish leaves the cursor after it",
        arguments: ["", "50% "])
    func reserveAtBottom(partial: String) {
        let pipe = OutputPipe()
        var terminal = VirtualTerminal(
            cols: 30, rows: 6, text: ["one", "two", "three", "four", "five"], partial: partial)
        let backend = TerminalBackend(
            fd: pipe.writeEnd, regionRows: 3, color: false, unicode: true,
            terminalSize: (30, 6), silenceInput: false)
        var canvas = Canvas(cols: backend.size.cols, rows: backend.size.rows)
        canvas.drawText("hud", col: 0, row: 1, maxColumns: 10)
        backend.present(canvas)
        terminal.feed(pipe.read())
        let kept = partial.trimmingCharacters(in: .whitespaces)
        #expect(terminal.lines == ["four", "five", kept, "", "hud", ""])
        backend.finish()
        terminal.feed(pipe.read())
        #expect(terminal.lines == ["four", "five", kept, "", "", ""])
        #expect(terminal.cursor == (2, partial.count))
    }

    @Test("without colour no colour code is written, but attributes and cursor moves still are")
    func noColor() {
        var setup = Setup(color: false)
        var canvas = hud("⠋", spinnerStyle: CellStyle(rawValue: 0x16))
        canvas.drawText("!", col: 0, row: 0, maxColumns: 1, style: CellStyle(rawValue: 1))
        let bytes = String(decoding: setup.present(canvas), as: UTF8.self)
        #expect(setup.terminal.colorCodes == 0)
        #expect(bytes.contains("\u{1B}[1m"))
        #expect(bytes.contains("\u{1B}[?25l"))
        // A change of colour alone is no change at all.
        var recolored = hud("⠋", spinnerStyle: CellStyle(rawValue: 0x13))
        recolored.drawText("!", col: 0, row: 0, maxColumns: 1, style: CellStyle(rawValue: 2))
        #expect(setup.present(recolored).isEmpty)
    }

    @Test(
        "a spinner's turns handed over again as the same canvases write what they wrote the first time; not after a refresh"
    )
    func turnsAlreadyEncoded() {
        var setup = Setup()
        let turns = ["⠋", "⠙", "⠹"].map { hud($0) }
        setup.present(turns[0])
        let first = (1...3).map { setup.present(turns[$0 % 3]) }
        let again = (1...3).map { setup.present(turns[$0 % 3]) }
        #expect(first == again)
        #expect(setup.region == turns[0].lines())
        // Canvases of their own (nothing kept for them) are encoded the same.
        var fresh = Setup()
        fresh.present(hud("⠋"))
        #expect((1...3).map { fresh.present(hud(["⠋", "⠙", "⠹"][$0 % 3])) } == first)
        // After a resize the turn that was encoded before is drawn whole again.
        _ = setup.run { $0.refresh() }
        let redrawn = String(decoding: setup.present(turns[1]), as: UTF8.self)
        #expect(redrawn.hasPrefix(Self.eraseAfterResize + Self.reserve))
        #expect(setup.region == turns[1].lines())
        #expect(setup.present(turns[2]) == first[1])
    }

    @Test(
        "after refresh (a resize) the next frame takes the region's rows and the rest of the anchor's line off and redraws everything"
    )
    func refresh() {
        var setup = Setup(partial: "> ")
        setup.present(hud("⠋"))
        _ = setup.run { $0.refresh() }
        let bytes = String(decoding: setup.present(hud("⠋")), as: UTF8.self)
        #expect(bytes.hasPrefix(Self.eraseAfterResize + Self.reserve))
        #expect(bytes.contains("Saving bookmark..."))
        #expect(setup.region == hud("⠋").lines())
        #expect(setup.terminal.lines[2] == ">")
        #expect(setup.terminal.cursor == (2, 2))
    }

    // MARK: - Background jobs

    @Test("started in the background: nothing is written, the cursor is left alone; the first foreground frame draws")
    func startedInBackground() {
        var setup = Setup(foreground: SharedFlag(false))
        #expect(setup.present(hud("⠋")).isEmpty)
        #expect(setup.present(hud("⠙")).isEmpty)
        #expect(setup.backend.writeCount == 0)
        #expect(setup.terminal.cursorVisible)
        setup.foreground.isSet = true
        setup.present(hud("⠹"))
        #expect(setup.region == hud("⠹").lines())
        #expect(!setup.terminal.cursorVisible)
    }

    @Test(
        "sent to the background: the region is taken off once, nothing more is drawn; back in the foreground it is drawn again"
    )
    func sentToBackground() {
        var setup = Setup(partial: "$ ")
        setup.present(hud("⠋"))
        setup.foreground.isSet = false
        let bytes = String(decoding: setup.present(hud("⠙")), as: UTF8.self)
        #expect(bytes == Self.erase + "\u{1B}[?25h")
        #expect(setup.terminal.lines == ["$ make", "compiling...", "$"] + Array(repeating: "", count: 7))
        #expect(setup.terminal.cursor == (2, 2))
        #expect(setup.terminal.cursorVisible)
        let writes = setup.backend.writeCount
        for frame in ["⠹", "⠸", "⠼"] { #expect(setup.present(hud(frame)).isEmpty) }
        #expect(setup.run { $0.suspend() }.isEmpty)
        #expect(setup.backend.writeCount == writes)
        setup.foreground.isSet = true
        setup.present(hud("⠴"))
        #expect(setup.region == hud("⠴").lines())
        #expect(!setup.terminal.cursorVisible)
        _ = setup.run { $0.finish() }
        #expect(setup.terminal.cursor == (2, 2))
        #expect(setup.terminal.cursorVisible)
    }

    @Test("in the background, printAbove writes the text only; finish writes nothing")
    func printAboveInBackground() {
        var setup = Setup(foreground: SharedFlag(false))
        setup.present(hud("⠋"))
        let bytes = setup.run { $0.printAbove("output") }
        #expect(String(decoding: bytes, as: UTF8.self) == "output\n")
        #expect(setup.run { $0.finish() }.isEmpty)
        #expect(setup.terminal.cursorVisible)
    }

    @Test(
        "a view waiting in the background is redrawn once we are the foreground job again, without a frame of its own")
    func foregroundAgainRedraws() {
        let setup = Setup(foreground: SharedFlag(false))
        let called = SharedFlag(false)
        setup.backend.watchResize { called.isSet = true }
        setup.backend.present(hud("✔"))
        // The watch asked twice whether we are in the foreground, and was
        // told no: it would have redrawn had the answer been yes.
        let asked = setup.foreground.reads
        #expect(waitUntil(timeout: 10) { setup.foreground.reads >= asked + 2 }, "the foreground is not watched")
        #expect(!called.isSet)
        setup.foreground.isSet = true
        #expect(waitUntil(timeout: 10) { called.isSet })
        setup.backend.finish()
    }
}

/// The backend on a real pseudo-terminal, for what only a terminal has:
/// its settings (echo, TOSTOP) and its size.
@Suite("TerminalBackend on a pseudo-terminal")
struct TerminalBackendPseudoTerminalTests {
    func hud() -> Canvas {
        var canvas = Canvas(cols: 39, rows: 3)
        canvas.drawBox(col: 2, row: 0, width: 20, height: 3)
        return canvas
    }

    func lflag(_ fd: Int32) -> tcflag_t {
        var settings = termios()
        tcgetattr(fd, &settings)
        return settings.c_lflag
    }

    @Test func framesGoThroughADescriptionOfItsOwnAndTheSharedOneStaysBlocking() throws {
        // The terminal's description is the shell's and the command's too:
        // O_NONBLOCK on it would be theirs. The backend opens the terminal again.
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        let backend = TerminalBackend(
            fd: terminal.followerFD, regionRows: 3, color: false, unicode: true, isForeground: { true })
        // The descriptors on this terminal (no other test opens it) besides the pair.
        let path = { (fd: String) in try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd) }
        let terminalPath = try #require(path(String(terminal.follower)))
        let ownFlags = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
            .filter { $0 != String(terminal.follower) && path($0) == terminalPath }
            .compactMap(Int32.init).map { fcntl($0, F_GETFL) }
        #expect(ownFlags.contains { $0 >= 0 && $0 & O_NONBLOCK != 0 && $0 & O_ACCMODE == O_WRONLY })
        backend.present(hud())
        backend.finish()
        #expect(fcntl(terminal.follower, F_GETFL) & O_NONBLOCK == 0)
        let written = String(decoding: terminal.drain(), as: UTF8.self)
        #expect(written.contains("\u{1B}[?25l") && written.hasSuffix("\u{1B}[?25h"))
    }

    /// A Ctrl-C may discard the last bytes as soon as they are queued: the
    /// repair must be armed by then, so while they wait for room it is.
    @Test func theFlushRepairIsArmedBeforeTheLastBytesAreWritten() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        let backend = TerminalBackend(
            fd: terminal.followerFD, regionRows: 3, color: false, unicode: true, isForeground: { true })
        backend.present(hud())
        _ = terminal.drain()
        // Nobody reads the terminal now: fill it, so the last bytes wait.
        let filler = open("/proc/self/fd/\(terminal.follower)", O_WRONLY | O_NONBLOCK | O_NOCTTY)
        try #require(filler >= 0)
        defer { close(filler) }
        let chunk = [UInt8](repeating: 0x61, count: 1024)
        while write(filler, chunk, chunk.count) > 0 {}
        let finished = DispatchSemaphore(value: 0)
        // Used by that thread alone until it signals.
        nonisolated(unsafe) let finishing = backend
        DispatchQueue.global().async {
            finishing.finish()
            finished.signal()
        }
        defer { TerminalFlushRepair.disarm() }
        // Polled without a pause: other tests' backends arm and disarm the
        // same repair, so the moment this one arms is caught as it comes.
        let deadline = ContinuousClock.now + .seconds(TestTime.scaled(10))
        var armed = false
        while !armed && ContinuousClock.now < deadline {
            armed = TerminalFlushRepair.isArmed(on: terminal.followerFD)
            if !armed { sched_yield() }
        }
        #expect(armed)
        var written: [UInt8] = []
        while finished.wait(timeout: .now() + .milliseconds(10)) == .timedOut { written += terminal.drain() }
        written += terminal.drain()
        #expect(String(decoding: written, as: UTF8.self).hasSuffix("\u{1B}[?25h"))
    }

    @Test("in the background the terminal's settings are never touched; echo goes off only in the foreground")
    func settingsOnlyInForeground() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        let foreground = SharedFlag(false)
        let backend = TerminalBackend(
            fd: terminal.followerFD, regionRows: 3, color: false, unicode: true,
            isForeground: { foreground.isSet })
        let before = lflag(terminal.follower)
        #expect(before & tcflag_t(ECHO) != 0)
        backend.present(hud())
        #expect(lflag(terminal.follower) == before)
        #expect(terminal.drain().isEmpty)
        foreground.isSet = true
        backend.present(hud())
        #expect(lflag(terminal.follower) & tcflag_t(ECHO) == 0)
        backend.finish()
        #expect(lflag(terminal.follower) == before)
    }

    @Test("with TOSTOP a background job writes nothing at all (it would be stopped) and draws anew in the foreground")
    func tostop() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        var settings = termios()
        tcgetattr(terminal.follower, &settings)
        settings.c_lflag |= tcflag_t(TOSTOP)
        tcsetattr(terminal.follower, TCSANOW, &settings)
        let foreground = SharedFlag(true)
        let backend = TerminalBackend(
            fd: terminal.followerFD, regionRows: 3, color: false, unicode: true,
            silenceInput: false, isForeground: { foreground.isSet })
        backend.present(hud())
        #expect(!terminal.drain().isEmpty)
        foreground.isSet = false
        backend.present(hud())
        #expect(terminal.drain().isEmpty)
        foreground.isSet = true
        backend.present(hud())
        #expect(String(decoding: terminal.drain(), as: UTF8.self).hasPrefix("\u{1B}[?25l\u{1B}D"))
        foreground.isSet = false
        backend.finish()
        #expect(terminal.drain().isEmpty)
    }

    @Test("a frame or printAbove laid out for the old size after a resize draws no region; the next frame draws it all")
    func frameAfterResize() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        let backend = TerminalBackend(
            fd: terminal.followerFD, regionRows: 3, color: false, unicode: true, silenceInput: false)
        backend.present(hud())
        #expect(!terminal.drain().isEmpty)
        terminal.resize(cols: 30, rows: 10)
        var moved = hud()
        moved.drawText("x", col: 5, row: 1, maxColumns: 1)
        backend.present(moved)
        #expect(terminal.drain().isEmpty)
        #expect(backend.size == (29, 3))
        // Output still comes, after the old region is erased; the old canvas is not drawn again.
        backend.printAbove("output\n")
        #expect(
            String(decoding: terminal.drain(), as: UTF8.self) == TerminalBackendTests.eraseAfterResize
                + "\u{1B}[?25houtput\r\n")
        var smaller = Canvas(cols: 29, rows: 3)
        smaller.drawBox(col: 2, row: 0, width: 20, height: 3)
        backend.present(smaller)
        let bytes = String(decoding: terminal.drain(), as: UTF8.self)
        #expect(bytes.hasPrefix("\u{1B}[?25l" + TerminalBackendTests.reserve))
        backend.finish()
    }
}
