/// Turns canvases into the bytes that draw them in a region of rows at the
/// bottom of a terminal, using relative cursor moves only.
///
/// The region starts on the line the cursor is on when the first non-blank
/// frame comes: it is reserved by writing newlines (scrolling the terminal
/// when needed) and moving back up, and the cursor is hidden while it exists.
/// Each frame is diffed cell by cell against what the region shows: only
/// changed cells are written, a move is skipped when the next cell is where
/// the cursor already is, SGR is written only when the style changes, and a
/// row whose tail became blank is erased with one `EL`. Between frames the
/// cursor stays where it last wrote and the style is the default one, so a
/// frame where one narrow cell changed costs its bytes plus a backspace.
///
/// Pure: it only builds bytes, the backend writes them.
struct TerminalFrameEncoder {
    /// Colour codes are written (else only attributes).
    let colorEnabled: Bool
    /// What the region shows now; `nil` while no region is reserved.
    private(set) var screen: Canvas?
    private var cursorRow = 0
    /// `nil` after a cluster whose width the terminal may see differently
    /// (emoji): the next move in that row starts from column 0.
    private var cursorCol: Int? = 0
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
            reserve(canvas)
            emit("\u{1B}[?25l")
        } else if needsFullRedraw || screen!.rows != canvas.rows || screen!.cols != canvas.cols {
            // Start over from the region's top: erase it and reserve it again.
            moveTo(row: 0, col: 0)
            reserve(canvas)
        }
        needsFullRedraw = false
        drawDifferences(to: canvas)
        if style != .plain { setStyle(.plain) }
        screen = canvas
        return out
    }

    /// The bytes that remove the region, leave the cursor at its top (column
    /// 0) in the default style and show the cursor again; empty when no
    /// region is reserved.
    mutating func clearRegion() -> [UInt8] {
        out.removeAll(keepingCapacity: true)
        guard screen != nil else { return [] }
        moveTo(row: 0, col: 0)
        if style != .plain { setStyle(.plain) }
        emit("\u{1B}[J\u{1B}[?25h")
        screen = nil
        cursorRow = 0
        cursorCol = 0
        return out
    }

    /// Makes the next frame redraw every cell (after a resize).
    mutating func invalidate() { needsFullRedraw = screen != nil }

    // MARK: - Building a frame

    /// Makes room for `canvas` from the cursor's line down and erases it;
    /// what the region shows is then blank.
    private mutating func reserve(_ canvas: Canvas) {
        emit("\r")
        emit(String(repeating: "\n", count: max(0, canvas.rows - 1)))
        if canvas.rows > 1 { csi(canvas.rows - 1, "A") }
        emit("\u{1B}[J")
        cursorRow = 0
        cursorCol = 0
        screen = Canvas(cols: canvas.cols, rows: canvas.rows)
    }

    private mutating func drawDifferences(to canvas: Canvas) {
        guard let old = screen else { return }
        for row in 0..<canvas.rows {
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
            csi(abs(row - cursorRow), row > cursorRow ? "B" : "A")
            cursorRow = row
        }
        guard let from = cursorCol else {
            emit("\r")
            if col > 0 { csi(col, "C") }
            cursorCol = col
            return
        }
        if col == from { return }
        if col == 0 { emit("\r") }
        else if col < from {
            let back = from - col
            let options = [String(repeating: "\u{8}", count: back), csiText(back, "D"), "\r" + csiText(col, "C")]
            emit(options.min { $0.utf8.count < $1.utf8.count }!)
        } else if let canvas, let text = rewrite(canvas, row: row, from: from, to: col), text.utf8.count < csiText(col - from, "C").utf8.count {
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
                  !cell.isContinuation, DisplayWidth.of(Character(cell.text)) == 1 else { return nil }
            text += cell.text
        }
        return text
    }

    private mutating func setStyle(_ target: CellStyle) {
        guard target != style else { return }
        var parameters: [String] = target == .plain || style == .plain ? [] : ["0"]
        if target.isBold { parameters.append("1") }
        if target.isDim { parameters.append("2") }
        if target.isReverse { parameters.append("7") }
        if target.color != 0 { parameters.append(String(30 + target.color)) }
        emit("\u{1B}[" + parameters.joined(separator: ";") + "m")
        style = target
    }

    private func effective(_ style: CellStyle) -> CellStyle { colorEnabled ? style : style.withoutColor }

    private func same(_ a: Canvas.Cell, _ b: Canvas.Cell) -> Bool {
        a.text == b.text && effective(a.style) == effective(b.style)
    }

    private func csiText(_ count: Int, _ final: Character) -> String {
        count == 1 ? "\u{1B}[\(final)" : "\u{1B}[\(count)\(final)"
    }

    private mutating func csi(_ count: Int, _ final: Character) { emit(csiText(count, final)) }

    private mutating func emit(_ text: String) { out.append(contentsOf: text.utf8) }
}
