import Foundation
@testable import HostRuntime
@testable import HostText
import HostSystem
import Testing

/// `TerminalBackend.finish(keeping:)`: the region goes, and the outcome's
/// final look stays where a line printed then would go, read back from a
/// ``VirtualTerminal``.
@Suite("TerminalBackend: the final look stays")
struct TerminalBackendFinalLookTests {
    /// A terminal of `cols` × 10 with two lines of earlier output (and
    /// `partial`, an unfinished third); the region is 3 rows below the
    /// cursor's line (the anchor, row 2).
    struct Setup {
        let pipe = OutputPipe()
        let backend: TerminalBackend
        var terminal: VirtualTerminal
        init(cols: Int = 30, color: Bool = true, partial: String = "", foreground: Bool = true) {
            terminal = VirtualTerminal(cols: cols, rows: 10, text: ["$ make", "compiling..."], partial: partial)
            backend = TerminalBackend(
                fd: pipe.writeEnd, regionRows: 3, color: color, unicode: true, terminalSize: (cols, 10),
                silenceInput: false, isForeground: { foreground })
        }
        /// Runs `action`; returns the bytes it wrote.
        @discardableResult
        mutating func run(_ action: (TerminalBackend) -> Void) -> [UInt8] {
            action(backend)
            let bytes = pipe.read()
            terminal.feed(bytes)
            return bytes
        }
    }

    /// The region's picture: a box with a spinner.
    func hud(cols: Int = 29) -> Canvas {
        var canvas = Canvas(cols: cols, rows: 3)
        canvas.drawBox(col: 2, row: 0, width: 25, height: 3)
        canvas.drawText("⠋ Building", col: 4, row: 1, maxColumns: 19)
        return canvas
    }

    /// A final look of `rows` (text by row; "" blank), `cols` wide and 3 high,
    /// the first cell of the first row green (a mark).
    func look(_ rows: [String], cols: Int = 29) -> Canvas {
        var canvas = Canvas(cols: cols, rows: 3)
        for (row, text) in rows.enumerated() where !text.isEmpty {
            let first = String(text.prefix(1)), rest = String(text.dropFirst())
            let width = canvas.drawText(
                first, col: 0, row: row, maxColumns: cols, style: CellStyle(rawValue: row == 0 ? 2 : 0))
            canvas.drawText(rest, col: width, row: row, maxColumns: cols - width)
        }
        return canvas
    }

    @Test("the region goes and the look's rows stay from the anchor, the cursor on the line below them")
    func lookStays() {
        var setup = Setup()
        setup.run { $0.present(hud()) }
        #expect(!setup.terminal.cursorVisible)
        let bytes = setup.run { $0.finish(keeping: look(["✔ Built"])) }
        #expect(setup.terminal.lines == ["$ make", "compiling...", "✔ Built"] + Array(repeating: "", count: 7))
        #expect(setup.terminal.cursor == (3, 0))
        #expect(setup.terminal.cursorVisible)
        // The mark's colour, then the plain style back before the line ends.
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\u{1B}[K\u{1B}[32m✔\u{1B}[m Built\r\n"))
        #expect(setup.terminal.unknown.isEmpty)
        #expect(setup.run { $0.finish() }.isEmpty)
    }

    @Test("blank rows between drawn ones stay, blank rows after the last drawn one do not")
    func rowsThroughTheLastDrawnOne() {
        var setup = Setup()
        setup.run { $0.present(hud()) }
        setup.run { $0.finish(keeping: look(["✖ Failed", "", "details"])) }
        #expect(setup.terminal.lines[2..<5] == ["✖ Failed", "", "details"])
        #expect(setup.terminal.cursor == (5, 0))
        #expect(setup.terminal.lines[5...].allSatisfy { $0.isEmpty })
    }

    @Test("a blank look, or none, leaves nothing: the cursor back where the region came")
    func blankLook() {
        for kept in [Canvas(cols: 29, rows: 3), nil] {
            var setup = Setup()
            setup.run { $0.present(hud()) }
            setup.run { $0.finish(keeping: kept) }
            #expect(setup.terminal.lines == ["$ make", "compiling..."] + Array(repeating: "", count: 8))
            #expect(setup.terminal.cursor == (2, 0))
            #expect(setup.terminal.cursorVisible)
        }
    }

    @Test("with no region drawn (within --grace), the look is written at the cursor")
    func noRegion() {
        var setup = Setup()
        let bytes = setup.run { $0.finish(keeping: look(["✔ Built"])) }
        #expect(setup.terminal.lines[0..<4] == ["$ make", "compiling...", "✔ Built", ""])
        #expect(setup.terminal.cursor == (3, 0))
        // No cursor to show again: it was never hidden.
        #expect(!String(decoding: bytes, as: UTF8.self).contains("\u{1B}[?25"))
    }

    @Test("an unfinished line before the region is continued, as a line printed then would")
    func afterAnUnfinishedLine() {
        var setup = Setup(partial: "Step 1: ")
        setup.run { $0.present(hud()) }
        setup.run { $0.finish(keeping: look(["✔ Built"])) }
        #expect(setup.terminal.lines[2..<4] == ["Step 1: ✔ Built", ""])
        #expect(setup.terminal.cursor == (3, 0))
    }

    @Test("without colour the look keeps its text and no colour code is written")
    func withoutColour() {
        var setup = Setup(color: false)
        setup.run { $0.present(hud()) }
        setup.run { $0.finish(keeping: look(["✔ Built"])) }
        #expect(setup.terminal.lines[2] == "✔ Built")
        #expect(setup.terminal.colorCodes == 0)
    }

    @Test("in the background nothing is written: the cursor is not ours there")
    func inTheBackground() {
        var setup = Setup(foreground: false)
        #expect(setup.run { $0.finish(keeping: look(["✔ Built"])) }.isEmpty)
    }

    @Test("a terminal one column wide keeps a look of one column: the view has none, the line may use it")
    func oneColumn() {
        var setup = Setup(cols: 1)
        #expect(setup.backend.size.cols == 0)
        setup.run { $0.present(Canvas(cols: 0, rows: 3)) }
        setup.run { $0.finish(keeping: look(["✔"], cols: 1)) }
        #expect(setup.terminal.lines[2] == "✔")
        #expect(setup.terminal.cursor == (3, 0))
    }
}
