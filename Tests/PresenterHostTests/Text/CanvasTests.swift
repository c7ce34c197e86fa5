import PresenterHost
import Testing

@Suite("Canvas")
struct CanvasTests {
    @Test("text is drawn at its position and returns the columns it takes")
    func text() {
        var canvas = Canvas(cols: 10, rows: 2)
        #expect(canvas.drawText("hi", col: 3, row: 1, maxColumns: 10) == 2)
        #expect(canvas.lines() == ["", "   hi"])
        #expect(canvas.lines(trimmed: false) == ["          ", "   hi     "])
        #expect(canvas[3, 1] == Canvas.Cell(text: "h", style: .plain))
    }

    @Test("text is clipped at every edge of the canvas")
    func clipping() {
        var canvas = Canvas(cols: 5, rows: 2)
        #expect(canvas.drawText("abcdef", col: -2, row: 0, maxColumns: 99) == 6)
        #expect(canvas.drawText("xyz", col: 3, row: 1, maxColumns: 99) == 3)
        canvas.drawText("hidden", col: 0, row: 2, maxColumns: 99)
        canvas.drawText("hidden", col: 0, row: -1, maxColumns: 99)
        #expect(canvas.lines() == ["cdef", "   xy"])
    }

    @Test("maxColumns cuts with an ellipsis; zero draws nothing")
    func ellipsis() {
        var canvas = Canvas(cols: 20, rows: 3)
        #expect(canvas.drawText("Saving bookmark...", col: 0, row: 0, maxColumns: 8) == 8)
        #expect(canvas.drawText("Saving bookmark...", col: 0, row: 1, maxColumns: 8, ellipsis: "...") == 8)
        #expect(canvas.drawText("anything", col: 0, row: 2, maxColumns: 0) == 0)
        #expect(canvas.lines() == ["Saving …", "Savin...", ""])
    }

    @Test("wide clusters take two cells and print once")
    func wide() {
        var canvas = Canvas(cols: 8, rows: 1)
        #expect(canvas.drawText("日本😀", col: 1, row: 0, maxColumns: 99) == 6)
        #expect(canvas.lines() == [" 日本😀"])
        #expect(canvas[2, 0].isContinuation)
        #expect(canvas[2, 0].text == "")
    }

    @Test("a wide cluster straddling the edge is not drawn")
    func wideAtEdge() {
        var canvas = Canvas(cols: 4, rows: 1)
        canvas.drawText("ab日", col: 1, row: 0, maxColumns: 99)
        #expect(canvas.lines(trimmed: false) == [" ab "])
        canvas.drawText("日x", col: -1, row: 0, maxColumns: 99)  // 日 would take columns -1 and 0
        #expect(canvas.lines(trimmed: false) == [" xb "])
    }

    @Test("overwriting half of a wide cluster blanks its other half")
    func wideOverwrite() {
        var canvas = Canvas(cols: 6, rows: 1)
        canvas.drawText("日本", col: 0, row: 0, maxColumns: 99)
        canvas.drawText("x", col: 1, row: 0, maxColumns: 99)  // right half of 日
        #expect(canvas.lines(trimmed: false) == [" x本  "])
        canvas.drawText("y", col: 2, row: 0, maxColumns: 99)  // left half of 本
        #expect(canvas.lines(trimmed: false) == [" xy   "])
        canvas.drawText("語", col: 3, row: 0, maxColumns: 99)
        canvas.drawText("中", col: 2, row: 0, maxColumns: 99)  // over y and 語's left half
        #expect(canvas.lines(trimmed: false) == [" x中  "])
    }

    @Test("control characters never reach a cell")
    func controls() {
        var canvas = Canvas(cols: 20, rows: 1)
        #expect(canvas.drawText("a\u{1B}[31mb\nc\td\u{9B}e", col: 0, row: 0, maxColumns: 99) == 9)
        #expect(canvas.lines() == ["a[31mbcde"])
    }

    @Test("layout characters (bidi formatting, line separators) never reach a cell")
    func layoutCharacters() {
        // A cell holds what the host positions itself: a character that
        // reorders or breaks the line would make a bidi terminal's row differ
        // from the host's picture of it, and its frame diff with it.
        var canvas = Canvas(cols: 20, rows: 1)
        let text = "a\u{202E}b\u{2028}c\u{200F}d\u{2066}e\u{2069}f\u{061C}g\u{2029}h"
        #expect(canvas.drawText(text, col: 0, row: 0, maxColumns: 99) == 8)
        #expect(canvas.lines() == ["abcdefgh"])
        #expect((0..<8).allSatisfy { canvas[$0, 0].text.unicodeScalars.count == 1 })
    }

    @Test("a box has corners and edges and blanks its inside")
    func box() {
        var canvas = Canvas(cols: 8, rows: 4)
        canvas.drawText("xxxxxxxx", col: 0, row: 1, maxColumns: 99)
        canvas.drawBox(col: 1, row: 0, width: 5, height: 3)
        #expect(canvas.lines() == [" ╭───╮", "x│   │xx", " ╰───╯", ""])
        canvas.clear()
        canvas.drawBox(col: 0, row: 0, width: 3, height: 2, unicode: false)
        #expect(canvas.lines() == ["+-+", "+-+", "", ""])
    }

    @Test("a box is clipped, and sizes under two draw nothing")
    func boxClipping() {
        var canvas = Canvas(cols: 4, rows: 3)
        canvas.drawBox(col: 2, row: 1, width: 5, height: 5)
        #expect(canvas.lines() == ["", "  ╭─", "  │"])
        canvas.clear()
        canvas.drawBox(col: 0, row: 0, width: 1, height: 3)
        canvas.drawBox(col: 0, row: 0, width: 3, height: 1)
        #expect(canvas.isBlank)
    }

    @Test("styles are kept per cell, unknown bits dropped")
    func styles() {
        var canvas = Canvas(cols: 3, rows: 1)
        canvas.drawText("ab", col: 0, row: 0, maxColumns: 3, style: CellStyle(rawValue: 0x16 | 0x800))
        #expect(canvas[0, 0].style.rawValue == 0x16)
        #expect(canvas[1, 0].style.color == 6 && canvas[1, 0].style.isBold)
        #expect(CellStyle(rawValue: 0x19).color == 0)
        #expect(CellStyle(rawValue: 0x16).withoutColor == CellStyle(rawValue: 0x10))
    }

    @Test("a cell is plain bytes with no padding, so rows compare as memory")
    func plainCells() {
        // rowEquals compares a row's bytes at once: a reference in a cell
        // would make that wrong, and padding would make it compare garbage.
        #expect(_isPOD(Canvas.Cell.self))
        #expect(MemoryLayout<Canvas.Cell>.size == MemoryLayout<Canvas.Cell>.stride)
        var one = Canvas(cols: 6, rows: 2)
        var other = Canvas(cols: 6, rows: 2)
        one.drawText("ab", col: 1, row: 0, maxColumns: 9)
        other.drawText("ab", col: 1, row: 0, maxColumns: 9, style: CellStyle(rawValue: 1))
        #expect(!one.rowEquals(0, in: other))
        #expect(one.rowEquals(1, in: other))
        other.drawText("ab", col: 1, row: 0, maxColumns: 9)
        #expect(one.rowEquals(0, in: other))
        #expect(one[1, 0].hasSameText(as: Canvas.Cell(text: "a", style: CellStyle(rawValue: 3))))
    }

    @Test("a cluster keeps up to 31 bytes, cut after a whole scalar, no joiner left at the cut")
    func longClusters() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"  // 25 bytes
        #expect(Canvas.Cell(text: family, style: .plain).text == family)
        // A kiss with skin tones: 35 bytes, cut before the last skin tone.
        let kiss = "\u{1F468}\u{1F3FB}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F48B}\u{200D}\u{1F468}\u{1F3FC}"
        #expect(kiss.utf8.count == 35)
        #expect(
            Canvas.Cell(text: kiss, style: .plain).text
                == "\u{1F468}\u{1F3FB}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F48B}\u{200D}\u{1F468}")
        // Cut right after a joiner: the joiner goes too.
        let joined = String(repeating: "a", count: 28) + "\u{200D}" + "b"
        #expect(Canvas.Cell(text: joined, style: .plain).text == String(repeating: "a", count: 28))
        // A letter under 40 combining marks of 2 bytes keeps 15 of them.
        let zalgo = "e" + String(repeating: "\u{0301}", count: 40)
        #expect(Canvas.Cell(text: zalgo, style: .plain).text == "e" + String(repeating: "\u{0301}", count: 15))
        var canvas = Canvas(cols: 4, rows: 1)
        canvas.drawText(zalgo + "x", col: 0, row: 0, maxColumns: 4)
        #expect(canvas[1, 0].text == "x")
    }
}
