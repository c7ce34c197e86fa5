import HostText

/// Turns canvases into the bytes that draw them on a terminal's whole
/// alternate screen, with absolute cursor moves.
///
/// ``enter()`` switches to the alternate screen (the user's screen and
/// scroll-back stay as they were), hides the cursor and turns bracketed
/// paste on; ``leave()`` undoes all three, in the default style. Between
/// them each frame writes only the cells that changed since the last one,
/// moving with `CUP` only when the next cell is not where the cursor
/// already is, and writing SGR only when the style changes; a frame that
/// changes nothing writes nothing. After ``invalidate()`` (a resize, a
/// return from job control) the next frame clears the screen and draws
/// every cell.
///
/// Pure: it only builds bytes, the backend writes them.
struct ScreenFrameEncoder {
    /// Colour codes are written (else only attributes).
    let colorEnabled: Bool
    /// What the screen shows now; `nil` before the next full redraw.
    private var screen: Canvas?
    /// Where the cursor is; `nil` when not known (after a cluster whose
    /// width the terminal may see differently, an emoji).
    private var cursor: (row: Int, col: Int)?
    private var style = CellStyle.plain
    private var out: [UInt8] = []

    init(colorEnabled: Bool) { self.colorEnabled = colorEnabled }

    /// The bytes that switch to the alternate screen, hide the cursor and
    /// turn bracketed paste on. The next frame draws everything.
    mutating func enter() -> [UInt8] {
        screen = nil
        return Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h".utf8)
    }

    /// The bytes that turn bracketed paste off, show the cursor and go back
    /// to the normal screen in the default style.
    mutating func leave() -> [UInt8] {
        screen = nil
        style = .plain
        return Array("\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l".utf8)
    }

    /// Makes the next frame clear the screen and draw every cell.
    mutating func invalidate() { screen = nil }

    /// The bytes that make the screen show `canvas`; empty when nothing changed.
    mutating func frame(_ canvas: Canvas) -> [UInt8] {
        out.removeAll(keepingCapacity: true)
        if screen == nil || screen!.cols != canvas.cols || screen!.rows != canvas.rows {
            emit("\u{1B}[0m\u{1B}[H\u{1B}[2J")
            style = .plain
            cursor = (0, 0)
            screen = Canvas(cols: canvas.cols, rows: canvas.rows)
        }
        let old = screen!
        for row in 0..<canvas.rows {
            var col = 0
            while col < canvas.cols {
                let cell = canvas[col, row]
                if cell.isContinuation || cell.looksLike(old[col, row], withColor: colorEnabled) { col += 1; continue }
                if cursor == nil || cursor! != (row, col) { emit("\u{1B}[\(row + 1);\(col + 1)H") }
                cell.style.shown(withColor: colorEnabled).appendSGR(from: style, to: &out)
                style = cell.style.shown(withColor: colorEnabled)
                cell.appendUTF8(to: &out)
                let width = DisplayWidth.of(Character(cell.text))
                let emoji = width == 2 && cell.text.unicodeScalars.first!.properties.isEmoji
                cursor = emoji ? nil : (row, col + width)
                col += width
            }
        }
        if !out.isEmpty && style != .plain {
            CellStyle.plain.appendSGR(from: style, to: &out)
            style = .plain
        }
        screen = canvas
        return out
    }

    private mutating func emit(_ text: String) { out.append(contentsOf: text.utf8) }
}
