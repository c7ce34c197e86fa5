import Foundation
import PresenterHost
import Testing

/// A small terminal emulator for the sequences the host writes, so tests can
/// check what a screen shows, not only which bytes were sent. It follows a
/// tty's defaults (LF is CR LF) and what xterm does when half of a wide
/// character is overwritten.
struct VirtualTerminal {
    let cols: Int, rows: Int
    private(set) var cells: [[String]]
    private(set) var row: Int, col = 0
    private(set) var cursorVisible = true
    private(set) var lastColumnWrites = 0
    private(set) var colorCodes = 0
    private(set) var unknown: [String] = []

    init(cols: Int, rows: Int, text: [String] = []) {
        self.cols = cols
        self.rows = rows
        cells = Array(repeating: Array(repeating: " ", count: cols), count: rows)
        row = 0
        for line in text { write(line); newline() }
    }

    /// The screen as lines, trailing blanks removed.
    var lines: [String] { cells.map { $0.joined().replacingOccurrences(of: " +$", with: "", options: .regularExpression) } }

    mutating func feed(_ bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }

    private mutating func write(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r": col = 0
            case "\n", "\r\n": newline()
            case "\u{8}": col = max(0, col - 1)
            case "\u{1B}":
                guard characters.popFirst() == "[" else { unknown.append("ESC"); continue }
                var parameters = ""
                while let next = characters.popFirst() {
                    if next.isLetter { control(parameters, next); break }
                    parameters.append(next)
                }
            default: put(character)
            }
        }
    }

    private mutating func newline() {
        col = 0
        if row == rows - 1 { cells.removeFirst(); cells.append(Array(repeating: " ", count: cols)) } else { row += 1 }
    }

    private mutating func put(_ character: Character) {
        let width = DisplayWidth.of(character)
        guard width > 0 else { return }
        if col + width > cols - 1 { lastColumnWrites += 1 }
        guard col + width <= cols else { return }
        for x in col..<(col + width) { detach(x) }
        cells[row][col] = String(character)
        if width == 2 { cells[row][col + 1] = "" }
        col = min(cols - 1, col + width)
    }

    private mutating func detach(_ x: Int) {
        if cells[row][x] == "", x > 0 { cells[row][x - 1] = " " }
        if x + 1 < cols, cells[row][x + 1] == "" { cells[row][x + 1] = " " }
    }

    private mutating func control(_ parameters: String, _ final: Character) {
        let count = max(1, Int(parameters) ?? 1)
        switch (parameters, final) {
        case ("?25", "l"): cursorVisible = false
        case ("?25", "h"): cursorVisible = true
        case (_, "A"): row = max(0, row - count)
        case (_, "B"): row = min(rows - 1, row + count)
        case (_, "C"): col = min(cols - 1, col + count)
        case (_, "D"): col = max(0, col - count)
        case ("", "K"): for x in col..<cols { cells[row][x] = " " }
        case ("", "J"):
            for x in col..<cols { cells[row][x] = " " }
            for y in (row + 1)..<rows { cells[y] = Array(repeating: " ", count: cols) }
        case (_, "m"): colorCodes += parameters.split(separator: ";").filter { $0.count == 2 && $0.hasPrefix("3") }.count
        default: unknown.append(parameters + String(final))
        }
    }
}

/// A pipe standing in for the terminal: the backend writes, the test reads.
final class OutputPipe {
    let readEnd: Int32, writeEnd: Int32
    init() {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        readEnd = fds[0]
        writeEnd = fds[1]
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
    }
    deinit { close(readEnd); close(writeEnd) }
    /// Everything written since the last read.
    func read() -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(readEnd, &buffer, buffer.count)
            if count <= 0 { return result }
            result += buffer[0..<count]
        }
    }
}

@Suite("TerminalBackend")
struct TerminalBackendTests {
    /// A terminal of 30 × 10 with two lines of earlier output; the backend's
    /// region is 3 rows (a 29 × 3 view).
    struct Setup {
        let pipe = OutputPipe()
        let backend: TerminalBackend
        var terminal = VirtualTerminal(cols: 30, rows: 10, text: ["$ make", "compiling..."])
        init(color: Bool = true) {
            backend = TerminalBackend(fd: pipe.writeEnd, regionRows: 3, color: color, unicode: true,
                                      terminalSize: (30, 10), silenceInput: false)
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
        /// The region's rows on the virtual screen.
        var region: [String] { Array(terminal.lines[2..<5]) }
    }

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

    @Test("the first frame reserves the region below earlier output, hides the cursor and draws it")
    func firstFrame() {
        var setup = Setup()
        let bytes = setup.present(hud("⠋"))
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("\r\n\n\u{1B}[2A\u{1B}[J\u{1B}[?25l"))
        #expect(setup.terminal.lines[0..<2] == ["$ make", "compiling..."])
        #expect(setup.region == hud("⠋").lines())
        #expect(!setup.terminal.cursorVisible)
        #expect(setup.backend.writeCount == 1)
        #expect(setup.terminal.unknown.isEmpty)
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

    @Test("a spinner-only frame costs at most 24 bytes in one write", arguments: [CellStyle.plain, CellStyle(rawValue: 6)])
    func spinnerFrame(style: CellStyle) {
        var setup = Setup()
        setup.present(hud("⠋", spinnerStyle: style))
        // The cursor is left where the last frame wrote: move once to the spinner.
        setup.present(hud("⠙", spinnerStyle: style))
        for (index, frame) in ["⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"].enumerated() {
            let writes = setup.backend.writeCount
            let bytes = setup.present(hud(frame, spinnerStyle: style))
            #expect(bytes.count <= 24, "frame \(index): \(bytes.count) bytes")
            #expect(setup.backend.writeCount == writes + 1)
            #expect(setup.region == hud(frame).lines())
        }
        let expected = style == .plain ? "\u{8}⠙" : "\u{8}\u{1B}[36m⠙\u{1B}[m"
        #expect(String(decoding: setup.present(hud("⠙", spinnerStyle: style)), as: UTF8.self) == expected)
    }

    @Test("only changed cells are written")
    func minimalDiff() {
        var setup = Setup()
        setup.present(hud("⠋", message: "Saving bookmark..."))
        let bytes = String(decoding: setup.present(hud("⠋", message: "Saving bookmarks.")), as: UTF8.self)
        #expect(!bytes.contains("Saving"))
        #expect(bytes.contains("s."))
        #expect(bytes.utf8.count <= 12)
        #expect(setup.region == hud("⠋", message: "Saving bookmarks.").lines())
    }

    @Test("frames of random text, wide characters and emoji always leave the screen equal to the canvas")
    func randomFrames() {
        var setup = Setup()
        var generator = SeededGenerator(seed: 42)
        let words = ["a", "bc", "日本", "😀", "Saving", "…", "✔", "x😀y", "한", "   ", "é"]
        for _ in 0..<200 {
            var canvas = Canvas(cols: 29, rows: 3)
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let text = (0..<Int.random(in: 1...4, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined()
                canvas.drawText(text, col: Int.random(in: -2...28, using: &generator), row: Int.random(in: 0...2, using: &generator),
                                maxColumns: Int.random(in: 1...30, using: &generator),
                                style: CellStyle(rawValue: UInt32.random(in: 0...0x7F, using: &generator)))
            }
            if Bool.random(using: &generator) { canvas.drawBox(col: 1, row: 0, width: 10, height: 3) }
            setup.present(canvas)
            #expect(setup.region == canvas.lines())
        }
        #expect(setup.terminal.lastColumnWrites == 0)
        #expect(setup.terminal.unknown.isEmpty)
        #expect(setup.terminal.lines[0..<2] == ["$ make", "compiling..."])
    }

    @Test("finish clears the region, shows the cursor and leaves it at the region's top")
    func finish() {
        var setup = Setup()
        setup.present(hud("⠋", spinnerStyle: CellStyle(rawValue: 0x12)))
        let bytes = setup.run { $0.finish() }
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\u{1B}[J\u{1B}[?25h"))
        #expect(setup.terminal.lines == ["$ make", "compiling...", "", "", "", "", "", "", "", ""])
        #expect(setup.terminal.cursorVisible)
        #expect((setup.terminal.row, setup.terminal.col) == (2, 0))
        #expect(setup.run { $0.finish() }.isEmpty)
    }

    @Test("suspend (Ctrl-Z) clears the region and shows the cursor; the next frame draws it all again")
    func suspendAndResume() {
        var setup = Setup()
        setup.present(hud("⠋"))
        _ = setup.run { $0.suspend() }
        #expect(setup.terminal.lines == ["$ make", "compiling...", "", "", "", "", "", "", "", ""])
        #expect(setup.terminal.cursorVisible)
        setup.present(hud("⠋"))
        #expect(setup.region == hud("⠋").lines())
        #expect(!setup.terminal.cursorVisible)
    }

    @Test("printAbove puts the text above the region and redraws it")
    func printAbove() {
        var setup = Setup()
        setup.present(hud("⠋"))
        _ = setup.run { $0.printAbove("line one\nline two") }
        #expect(setup.terminal.lines[0..<4] == ["$ make", "compiling...", "line one", "line two"])
        #expect(Array(setup.terminal.lines[4..<7]) == hud("⠋").lines())
        #expect(!setup.terminal.cursorVisible)
        setup.present(hud("⠙"))
        #expect(Array(setup.terminal.lines[4..<7]) == hud("⠙").lines())
    }

    @Test("a region reserved on the last line scrolls earlier output up")
    func reserveAtBottom() {
        let pipe = OutputPipe()
        var terminal = VirtualTerminal(cols: 30, rows: 4, text: ["one", "two", "three"])
        let backend = TerminalBackend(fd: pipe.writeEnd, regionRows: 3, color: false, unicode: true,
                                      terminalSize: (30, 4), silenceInput: false)
        var canvas = Canvas(cols: backend.size.cols, rows: backend.size.rows)
        canvas.drawText("hud", col: 0, row: 1, maxColumns: 10)
        backend.present(canvas)
        terminal.feed(pipe.read())
        #expect(terminal.lines == ["three", "", "hud", ""])
        backend.finish()
        terminal.feed(pipe.read())
        #expect(terminal.lines == ["three", "", "", ""])
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

    @Test("after refresh (a resize) the next frame redraws everything")
    func refresh() {
        var setup = Setup()
        setup.present(hud("⠋"))
        _ = setup.run { $0.refresh() }
        let bytes = setup.present(hud("⠋"))
        #expect(String(decoding: bytes, as: UTF8.self).contains("Saving bookmark..."))
        #expect(setup.region == hud("⠋").lines())
    }
}

/// A deterministic random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
