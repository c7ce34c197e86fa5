@testable import HostRuntime
@testable import HostText
import Testing

/// The region's rows, and only them.
@Suite("TerminalFrameEncoder: the region's own rows")
struct TerminalRegionRowsTests {
    @Test func rowsBelowTheCursorMoveDownForTheRegionAndComeBack() {
        var terminal = VirtualTerminal(cols: 30, rows: 10, text: ["one", "two", "three", "four", "five"])
        terminal.feed(Array("\u{1B}[3A".utf8))  // tput cuu 3: the cursor on "three"
        let before = terminal.lines
        var encoder = TerminalFrameEncoder(colorEnabled: false, terminalColumns: 30)
        var canvas = Canvas(cols: 29, rows: 3)
        canvas.drawText("region", col: 0, row: 1, maxColumns: 29)
        terminal.feed(encoder.frame(canvas))
        #expect(Array(terminal.lines[2..<8]) == ["three", "", "region", "", "four", "five"])
        terminal.feed(encoder.clearRegion())
        #expect(terminal.lines == before)
        #expect(terminal.cursor == (2, 0))
        #expect(terminal.unknown.isEmpty)
    }

    @Test("a newline echoed under the region (ECHONL) moves the cursor down; the next frame starts on the anchor again")
    func aTypedNewlineIsUndone() {
        var terminal = VirtualTerminal(cols: 30, rows: 10, text: ["$ make"])
        var encoder = TerminalFrameEncoder(colorEnabled: false, terminalColumns: 30)
        var canvas = Canvas(cols: 29, rows: 3)
        canvas.drawText("one", col: 0, row: 1, maxColumns: 29)
        terminal.feed(encoder.frame(canvas))
        terminal.feed(Array("\r\n".utf8))
        canvas.drawText("two", col: 0, row: 1, maxColumns: 29)
        terminal.feed(encoder.frame(canvas))
        #expect(Array(terminal.lines[0..<5]) == ["$ make", "", "", "two", ""])
        terminal.feed(Array("\r\n".utf8))
        terminal.feed(encoder.clearRegion())
        #expect(terminal.lines.allSatisfy { $0.isEmpty || $0 == "$ make" })
        #expect(terminal.cursor == (1, 0))
    }

    @Test func afterANarrowingResizeTheRowsTheRegionWrappedToAreTakenOff() {
        var encoder = TerminalFrameEncoder(colorEnabled: false, terminalColumns: 40)
        var canvas = Canvas(cols: 39, rows: 3)
        canvas.drawText(String(repeating: "x", count: 30), col: 5, row: 1, maxColumns: 39)
        _ = encoder.frame(canvas)
        // At 20 columns row 1 (35 columns of text) is two rows: four in all.
        encoder.resized(terminalColumns: 20)
        let redraw = String(decoding: encoder.frame(Canvas(cols: 19, rows: 3)), as: UTF8.self)
        #expect(redraw.hasPrefix("\u{1B}7\u{1B}D\u{1B}[4M\u{1B}8\u{1B}[K"))
        // Wider again: a row is one row.
        var narrow = Canvas(cols: 19, rows: 3)
        narrow.drawText("y", col: 0, row: 0, maxColumns: 19)
        _ = encoder.frame(narrow)
        encoder.resized(terminalColumns: 80)
        #expect(String(decoding: encoder.clearRegion(), as: UTF8.self).hasPrefix("\u{1B}7\u{1B}D\u{1B}[3M\u{1B}8"))
    }
}
