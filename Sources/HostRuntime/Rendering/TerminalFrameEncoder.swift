/// Turns canvases into the bytes that draw them in a region of rows at the
/// bottom of a terminal, using relative cursor moves only.
///
/// The region goes below the line the cursor is on when the first non-blank
/// frame comes, which is left as it is (it may hold a prompt's or a
/// command's unfinished line). That spot is the *anchor*: room is made below
/// it with `IND` (which scrolls when needed and keeps the column), the cursor
/// comes back up to it and saves it with `DECSC` (`ESC 7`), and everything
/// from it to the end of the screen is erased. The cursor is hidden while a
/// region exists.
///
/// Every frame starts at the anchor and ends there with `DECRC` (`ESC 8`):
/// between frames the cursor sits on the anchor, the one spot whose column we
/// never need to know. Terminals that rewrap lines on a resize carry the
/// cursor along with its cell (tmux does; it leaves the `DECSC` position as
/// it was, so that is not trusted after a resize), so the cursor is still on
/// the anchor even though the region's rows were rewrapped: the redraw
/// erases from there and saves the anchor again, and ``clearRegion()``
/// leaves the cursor exactly where it was before the region came, with
/// nothing of ours left on the screen.
///
/// Within a frame the canvas is diffed cell by cell against what the region
/// shows: only changed cells are written, a move is skipped when the next
/// cell is where the cursor already is, SGR is written only when the style
/// changes, and a row whose tail became blank is erased with one `EL`. A
/// frame where one narrow cell changed costs its bytes, the move to it
/// (`CNL` + `CUF`) and the `DECRC`.
///
/// Pure: it only builds bytes, the backend writes them.
import HostText

struct TerminalFrameEncoder {
    /// Colour codes are written (else only attributes).
    let colorEnabled: Bool
    /// What the region shows now; `nil` while no region is reserved.
    private(set) var screen: Canvas?
    /// The cursor's row in the region; -1 is the anchor's line.
    private var cursorRow = -1
    /// `nil` when the terminal's column is not known to us: on the anchor's
    /// line, and after a cluster whose width the terminal may see
    /// differently (emoji). The next move then goes through column 0.
    private var cursorCol: Int?
    private var style = CellStyle.plain
    private var needsFullRedraw = false
    private var out: [UInt8] = []

    init(colorEnabled: Bool) { self.colorEnabled = colorEnabled }

    /// True while a region is reserved (and the cursor hidden).
    var isReserved: Bool { screen != nil }

    /// The bytes that make the region show `canvas`; empty when nothing changed.
    mutating func frame(_ canvas: Canvas) -> [UInt8] {
        out.removeAll(keepingCapacity: true)
        if screen == nil {
            guard !canvas.isBlank else { return [] }
            emit("\u{1B}[?25l")
            reserve(canvas)
        } else if needsFullRedraw || screen!.rows != canvas.rows || screen!.cols != canvas.cols {
            // The cursor is on the anchor, wherever a resize moved it: start
            // over from there (reserve erases what the region showed).
            reserve(canvas)
        }
        needsFullRedraw = false
        drawDifferences(to: canvas)
        if !out.isEmpty { returnToAnchor() }
        screen = canvas
        return out
    }

    /// The bytes that remove the region and show the cursor again, leaving it
    /// on the anchor (where it was before the region came) in the default
    /// style; empty when no region is reserved.
    mutating func clearRegion() -> [UInt8] {
        out.removeAll(keepingCapacity: true)
        guard screen != nil else { return [] }
        // Between frames the cursor is on the anchor: erase from there.
        emit("\u{1B}[J\u{1B}[?25h")
        screen = nil
        return out
    }

    /// Forgets the region without a byte written (it can no longer be
    /// reached: the terminal went to another process group that stops us if
    /// we write). The next frame reserves a new one.
    mutating func forget() { screen = nil }

    /// Makes the next frame erase the region and draw every cell again (after a resize).
    mutating func invalidate() { needsFullRedraw = screen != nil }

    // MARK: - Building a frame

    /// Makes room for `canvas` below the cursor's line, saves the cursor
    /// there as the anchor and erases from it to the end of the screen; what
    /// the region shows is then blank.
    private mutating func reserve(_ canvas: Canvas) {
        // IND keeps the column (a newline would lose it) and scrolls at the bottom.
        emit(String(repeating: "\u{1B}D", count: canvas.rows))
        csi(canvas.rows, "A")
        emit("\u{1B}7\u{1B}[J")
        cursorRow = -1
        cursorCol = nil
        screen = Canvas(cols: canvas.cols, rows: canvas.rows)
    }

    /// Ends a frame: back on the anchor (DECRC), in the default style.
    private mutating func returnToAnchor() {
        if style != .plain { setStyle(.plain) }
        emit("\u{1B}8")
        cursorRow = -1
        cursorCol = nil
    }

    private mutating func drawDifferences(to canvas: Canvas) {
        guard let old = screen else { return }
        for row in 0..<canvas.rows {
            // An unchanged row writes nothing: most of them, most frames.
            if canvas.rowEquals(row, in: old) { continue }
            var tail = canvas.cols
            while tail > 0 && canvas[tail - 1, row] == .blank { tail -= 1 }
            var col = 0
            while col < tail {
                let cell = canvas[col, row]
                if same(cell, old[col, row]) || cell.isContinuation { col += 1; continue }
                moveTo(row: row, col: col, over: canvas)
                setStyle(effective(cell.style))
                emit(cell.text)
                let width = DisplayWidth.of(Character(cell.text))
                let emoji = width == 2 && cell.text.unicodeScalars.first!.properties.isEmoji
                cursorCol = emoji ? nil : col + width
                col += width
            }
            // The rest of the row is blank now: one erase if anything was there.
            if let first = (tail..<canvas.cols).first(where: { old[$0, row] != .blank }) {
                moveTo(row: row, col: first, over: canvas)
                if style != .plain { setStyle(.plain) }
                emit("\u{1B}[K")
            }
        }
    }

    /// Moves the cursor with the fewest bytes. With `over`, a short forward
    /// move in the same row rewrites the unchanged cells in between instead,
    /// when that is cheaper.
    private mutating func moveTo(row: Int, col: Int, over canvas: Canvas? = nil) {
        if row != cursorRow {
            if cursorCol == nil && row > cursorRow {
                // Down and to column 0 in one (CNL): the column was unknown anyway.
                csi(row - cursorRow, "E")
                cursorCol = 0
            } else {
                csi(abs(row - cursorRow), row > cursorRow ? "B" : "A")
            }
            cursorRow = row
        }
        guard let from = cursorCol else {
            emit("\r")
            if col > 0 { csi(col, "C") }
            cursorCol = col
            return
        }
        if col == from { return }
        if col == 0 {
            emit("\r")
        } else if col < from {
            let back = from - col
            let options = [String(repeating: "\u{8}", count: back), csiText(back, "D"), "\r" + csiText(col, "C")]
            emit(options.min { $0.utf8.count < $1.utf8.count }!)
        } else if let canvas, col - from < csiText(col - from, "C").utf8.count,
            let text = rewrite(canvas, row: row, from: from, to: col),
            text.utf8.count < csiText(col - from, "C").utf8.count
        {
            // Only a gap narrower than the move's own bytes can be cheaper
            // to rewrite (each cell takes a byte at least): the spinner's
            // move across 35 columns never builds the text of 35 cells.
            emit(text)
        } else {
            csi(col - from, "C")
        }
        cursorCol = col
    }

    /// The unchanged cells `from..<to` of `row` as text, when writing them in
    /// the current style draws exactly what is there.
    private func rewrite(_ canvas: Canvas, row: Int, from: Int, to: Int) -> String? {
        guard let screen, screen.cols == canvas.cols, screen.rows == canvas.rows else { return nil }
        var text = ""
        for col in from..<to {
            let cell = canvas[col, row]
            guard same(cell, screen[col, row]), effective(cell.style) == style,
                !cell.isContinuation, DisplayWidth.of(Character(cell.text)) == 1
            else { return nil }
            text += cell.text
        }
        return text
    }

    private mutating func setStyle(_ target: CellStyle) {
        emit(target.sgr(from: style))
        style = target
    }

    private func effective(_ style: CellStyle) -> CellStyle { colorEnabled ? style : style.withoutColor }

    private func same(_ a: Canvas.Cell, _ b: Canvas.Cell) -> Bool {
        a.hasSameText(as: b) && effective(a.style) == effective(b.style)
    }

    private func csiText(_ count: Int, _ final: Character) -> String {
        count == 1 ? "\u{1B}[\(final)" : "\u{1B}[\(count)\(final)"
    }

    private mutating func csi(_ count: Int, _ final: Character) { emit(csiText(count, final)) }

    private mutating func emit(_ text: String) { out.append(contentsOf: text.utf8) }
}
