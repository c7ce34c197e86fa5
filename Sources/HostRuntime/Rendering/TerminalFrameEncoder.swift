import HostText

/// Turns canvases into the bytes that draw them in a region of rows at the
/// bottom of a terminal, using relative cursor moves only.
///
/// The region goes below the line the cursor is on when the first non-blank
/// frame comes, which is left as it is (it may hold a prompt's or a
/// command's unfinished line). That spot is the *anchor*: room is made below
/// it with `IND` (which scrolls when needed and keeps the column), the cursor
/// comes back up to it, and the region's rows are inserted below it with
/// `IL`, which moves whatever was there (rows below a cursor moved up with
/// `tput cuu`) down, out of the region's way. The region touches only its
/// own rows: it is taken off with `DL`, which brings those rows back up.
/// Nothing else is ever erased (`ED` from the top left corner would also
/// push the whole screen into tmux's history). The cursor is hidden while a
/// region exists.
///
/// The anchor is saved with `DECSC` (`ESC 7`) when the region is reserved;
/// every frame starts there with `DECRC` (`ESC 8`) and ends there with
/// another: between frames the cursor sits on the anchor, the one spot
/// whose column we never need to know, and a cursor moved meanwhile (a
/// newline typed with `ECHONL` on, see ``TerminalEcho``) is brought back.
/// Terminals that rewrap lines on a resize carry the cursor along with its
/// cell (tmux does; it leaves the `DECSC` position as it was, so that is
/// not trusted after a resize), so the cursor is still on the anchor even
/// though the region's rows were rewrapped into more: the redraw deletes,
/// from the cursor, as many rows as they take at the terminal's new width
/// (``resized(terminalColumns:)``) and reserves the region again, and
/// ``clearRegion()`` leaves the cursor exactly where it was before the
/// region came, with nothing of ours left on the screen or in the scrollback.
///
/// Within a frame the canvas is diffed cell by cell against what the region
/// shows: only changed cells are written, a move is skipped when the next
/// cell is where the cursor already is, SGR is written only when the style
/// changes, and a row whose tail became blank is erased with one `EL`. A
/// frame where one narrow cell changed costs its bytes, a `DECRC`, the move
/// to it (`CNL` + `CUF`) and the `DECRC` back.
///
/// Pure: it only builds bytes, the backend writes them.
struct TerminalFrameEncoder {
    /// Colour codes are written (else only attributes).
    let colorEnabled: Bool
    /// The terminal's width in columns (the region is one column narrower),
    /// at which a terminal that rewraps lines on a resize has rewrapped the
    /// region's rows; 0 when unknown (no row is taken as rewrapped).
    private var terminalColumns: Int
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
    /// Frames already encoded, by where the cells of what the region showed
    /// and of what it shows next are kept (each entry holds both canvases,
    /// so neither place can be reused meanwhile): a spinner's turns, which
    /// the runtime hands over as the same few canvases again
    /// (``FrameComposer``), are encoded once each.
    private var encoded: [EncodedPair: (shown: Canvas, next: Canvas, bytes: [UInt8])] = [:]
    /// The cells of the canvases ``encoded`` holds. Every frame is kept
    /// (the encoder cannot tell a turn from a frame seen once), so they are
    /// dropped together past ``encodedCellBudget``: the composer's own
    /// budget, as a spinner's turns are its frames.
    private var encodedCells = 0
    static let encodedCellBudget = FrameComposer.madeCellBudget

    private struct EncodedPair: Hashable {
        let shown: UInt
        let next: UInt
    }

    init(colorEnabled: Bool, terminalColumns: Int = 0) {
        self.colorEnabled = colorEnabled
        self.terminalColumns = terminalColumns
    }

    /// True while a region is reserved (and the cursor hidden).
    var isReserved: Bool { screen != nil }

    /// The bytes that make the region show `canvas`; empty when nothing changed.
    mutating func frame(_ canvas: Canvas) -> [UInt8] {
        out.removeAll(keepingCapacity: true)
        var pair: EncodedPair?
        if screen == nil {
            guard !canvas.isBlank else { return [] }
            emit("\u{1B}[?25l")
            reserve(canvas)
        } else if needsFullRedraw || screen!.rows != canvas.rows || screen!.cols != canvas.cols {
            // The cursor is on the anchor, wherever a resize moved it: take
            // the old region's rows off from there and start over.
            eraseRegion()
            reserve(canvas)
        } else if let shown = screen {
            // Between frames the cursor is on the anchor in the plain style:
            // the bytes from one canvas to another are always the same.
            pair = EncodedPair(shown: shown.storageAddress, next: canvas.storageAddress)
            if let known = encoded[pair!] {
                screen = canvas
                return known.bytes
            }
            emit("\u{1B}8")
        }
        needsFullRedraw = false
        let shown = screen
        let start = out.count
        drawDifferences(to: canvas)
        if out.count > start { returnToAnchor() } else if pair != nil { out.removeAll() }
        screen = canvas
        if let pair, let shown {
            let cells = canvas.cols * canvas.rows
            if encodedCells + cells > Self.encodedCellBudget { forgetEncoded() }
            encoded[pair] = (shown, canvas, out)
            encodedCells += cells
        }
        return out
    }

    /// The bytes that remove the region and show the cursor again, leaving it
    /// on the anchor (where it was before the region came) in the default
    /// style; empty when no region is reserved.
    ///
    /// With `look` (the outcome that stays), its rows from the top through
    /// the last one that is not blank are then written from there, reserved
    /// region or not, as lines a program prints there: each row's line
    /// erased from the cursor first (no cell of an earlier picture shows
    /// through), the row's cells in their styles without its trailing
    /// blanks, then `CR LF`, which leaves the cursor at the start of the
    /// line below them. Lines, not a region: a row may reach the terminal's
    /// last column (`CR` ends the wrap it waits for), and the terminal
    /// scrolls them away as it scrolls the lines before them.
    mutating func clearRegion(keeping look: Canvas? = nil) -> [UInt8] {
        out.removeAll(keepingCapacity: true)
        if screen != nil {
            // Between frames the cursor is on the anchor: the region's rows
            // below it go, and what was below them comes back.
            eraseRegion()
            emit("\u{1B}[?25h")
            screen = nil
            forgetEncoded()
        }
        guard let look else { return out }
        let kept = (0..<look.rows).last { row in (0..<look.cols).contains { look[$0, row] != .blank } }
        for row in 0..<(kept.map { $0 + 1 } ?? 0) {
            emit("\u{1B}[K")
            var tail = look.cols
            while tail > 0 && look[tail - 1, row] == .blank { tail -= 1 }
            for col in 0..<tail where !look[col, row].isContinuation {
                setStyle(look[col, row].style.shown(withColor: colorEnabled))
                look[col, row].appendUTF8(to: &out)
            }
            if style != .plain { setStyle(.plain) }
            emit("\r\n")
        }
        return out
    }

    /// The bytes that remove the region as ``clearRegion(keeping:)`` does,
    /// for a command that asks the user something: from the line the cursor
    /// is on, where the command may have written its prompt on the anchor's
    /// line, so that the cursor stays after it.
    mutating func stepAside() -> [UInt8] {
        out.removeAll(keepingCapacity: true)
        guard screen != nil else { return [] }
        eraseRegion(fromCursor: true)
        emit("\u{1B}[?25h")
        screen = nil
        forgetEncoded()
        return out
    }

    /// Forgets the region without a byte written (it can no longer be
    /// reached: the terminal went to another process group that stops us if
    /// we write). The next frame reserves a new one.
    mutating func forget() {
        screen = nil
        forgetEncoded()
    }

    /// Makes the next frame erase the region and draw every cell again (after a resize).
    mutating func invalidate() { needsFullRedraw = screen != nil }

    /// The terminal is now `columns` wide: what the region shows is erased
    /// as the rows it takes at that width, and the next frame draws it all
    /// again.
    mutating func resized(terminalColumns columns: Int) {
        terminalColumns = columns
        invalidate()
    }

    /// How many rows what the region shows takes now: one a row, or, in a
    /// terminal narrower than a row's text (a terminal that rewraps lines
    /// on a resize made more rows of it), as many as its text wraps to.
    /// A row's text ends at its last non-blank cell (the encoder never
    /// writes past it).
    private var rowsTaken: Int {
        guard let screen else { return 0 }
        guard terminalColumns > 0, terminalColumns < screen.cols else { return screen.rows }
        var rows = 0
        for row in 0..<screen.rows {
            var used = screen.cols
            while used > 0 && screen[used - 1, row] == .blank { used -= 1 }
            rows += max(1, (used + terminalColumns - 1) / terminalColumns)
        }
        return rows
    }

    // MARK: - Building a frame

    /// Makes room for `canvas` below the cursor's line, saves the cursor
    /// there as the anchor and inserts the region's rows below it (what was
    /// there moves down); what the region shows is then blank.
    private mutating func reserve(_ canvas: Canvas) {
        forgetEncoded()
        // IND keeps the column (a newline would lose it) and scrolls at the bottom.
        emit(String(repeating: "\u{1B}D", count: canvas.rows))
        csi(canvas.rows, UInt8(ascii: "A"))
        // IL takes the cursor to the line's start: DECRC brings it back.
        emit("\u{1B}7\u{1B}D")
        csi(canvas.rows, UInt8(ascii: "L"))
        emit("\u{1B}8")
        cursorRow = -1
        cursorCol = nil
        screen = Canvas(cols: canvas.cols, rows: canvas.rows)
    }

    /// Deletes the rows the region takes (``rowsTaken``) below the anchor,
    /// which brings up what was below them, and leaves the cursor on the
    /// anchor. The anchor is the saved one, or, after a resize (the saved
    /// one is stale) and with `fromCursor`, the cursor's line and column.
    /// Nothing else is touched: not a row above or below the region, and
    /// not the anchor's line, except after a resize: the rest of it is
    /// erased then. tmux, when rewrapping made more lines than its screen
    /// holds, moves the top ones into its history, the anchor's line too
    /// when the region's rows were below few lines, and puts the cursor on
    /// the top row: on a row of the region.
    private mutating func eraseRegion(fromCursor: Bool = false) {
        emit(fromCursor || needsFullRedraw ? "\u{1B}7\u{1B}D" : "\u{1B}8\u{1B}D")
        csi(rowsTaken, UInt8(ascii: "M"))
        emit("\u{1B}8")
        if needsFullRedraw { emit("\u{1B}[K") }
        cursorRow = -1
        cursorCol = nil
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
            guard let changed = canvas.changedColumns(inRow: row, from: old) else { continue }
            var tail = canvas.cols
            while tail > 0 && canvas[tail - 1, row] == .blank { tail -= 1 }
            // Outside `changed` every cell is the screen's, byte for byte.
            var col = changed.lowerBound
            let end = min(tail, changed.upperBound + 1)
            while col < end {
                let cell = canvas[col, row]
                if cell.looksLike(old[col, row], withColor: colorEnabled) || cell.isContinuation { col += 1; continue }
                moveTo(row: row, col: col, over: canvas)
                setStyle(cell.style.shown(withColor: colorEnabled))
                cell.appendUTF8(to: &out)
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
                csi(row - cursorRow, UInt8(ascii: "E"))
                cursorCol = 0
            } else {
                csi(abs(row - cursorRow), UInt8(ascii: row > cursorRow ? "B" : "A"))
            }
            cursorRow = row
        }
        guard let from = cursorCol else {
            emit("\r")
            if col > 0 { csi(col, UInt8(ascii: "C")) }
            cursorCol = col
            return
        }
        if col == from { return }
        if col == 0 {
            emit("\r")
        } else if col < from {
            // The fewest bytes of: backspaces, CUB, CR and CUF (the first on a tie).
            let back = from - col
            let backspaces = back, left = Self.csiCount(back), fromStart = 1 + Self.csiCount(col)
            if backspaces <= left && backspaces <= fromStart {
                out.append(contentsOf: repeatElement(0x08, count: back))
            } else if left <= fromStart {
                csi(back, UInt8(ascii: "D"))
            } else {
                emit("\r")
                csi(col, UInt8(ascii: "C"))
            }
        } else if let canvas, col - from < Self.csiCount(col - from),
            let text = rewrite(canvas, row: row, from: from, to: col),
            text.utf8.count < Self.csiCount(col - from)
        {
            // Only a gap narrower than the move's own bytes can be cheaper
            // to rewrite (each cell takes a byte at least): the spinner's
            // move across 35 columns never builds the text of 35 cells.
            emit(text)
        } else {
            csi(col - from, UInt8(ascii: "C"))
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
            guard cell.looksLike(screen[col, row], withColor: colorEnabled),
                cell.style.shown(withColor: colorEnabled) == style,
                !cell.isContinuation, DisplayWidth.of(Character(cell.text)) == 1
            else { return nil }
            text += cell.text
        }
        return text
    }

    private mutating func setStyle(_ target: CellStyle) {
        target.appendSGR(from: style, to: &out)
        style = target
    }

    private mutating func forgetEncoded() {
        encoded.removeAll()
        encodedCells = 0
    }

    /// The bytes of ``csi(_:_:)``'s sequence for `count`.
    private static func csiCount(_ count: Int) -> Int {
        var digits = 1
        var rest = count / 10
        while rest > 0 { digits += 1; rest /= 10 }
        return count == 1 ? 3 : 3 + digits
    }

    /// `CSI count final`, the count left out when it is 1 (the default).
    private mutating func csi(_ count: Int, _ final: UInt8) {
        out.append(0x1B)
        out.append(UInt8(ascii: "["))
        if count != 1 { out.append(contentsOf: String(count).utf8) }
        out.append(final)
    }

    private mutating func emit(_ text: String) { out.append(contentsOf: text.utf8) }
}
