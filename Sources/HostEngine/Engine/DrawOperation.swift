import HostText
import PresenterABI

/// One `draw_text` or `draw_box` call of a render, as recorded by the engine
/// that ran it: what a presenter drew, which the runtime paints over the
/// view's own content. A presenter process sends these instead of cells, so
/// its picture composes with the view exactly as a presenter in the host's
/// own process would draw.
///
/// A recorded text is already cut (`max_cols`, with the ellipsis) and
/// trimmed to the view (characters that fall wholly outside it are dropped),
/// so its size is bounded by the view's width, not by what the plugin passed.
package enum DrawOperation: Equatable, Sendable {
    case text(col: Int32, row: Int32, maxColumns: UInt32, style: UInt32, text: String)
    case box(col: Int32, row: Int32, cols: UInt32, rows: UInt32, style: UInt32)

    /// The most operations one render keeps; later draws are dropped.
    static let maxPerRender = 4096
    /// The most UTF-8 bytes of one recorded text (a cluster of ten thousand
    /// combining marks is one column wide).
    static let maxTextBytes = 4096
    /// The most UTF-8 bytes of text one render keeps, so that its drawing
    /// always fits a message of the presenter protocol (1 MiB).
    static let maxBytesPerRender = 512 << 10

    /// Paints the operation on `canvas` as the drawing services define it,
    /// the view's row 0 at `area`'s first row and nothing outside `area`
    /// (the whole canvas by default).
    package func draw(on canvas: inout Canvas, unicode: Bool, in area: Range<Int>? = nil) {
        let rows = area ?? 0..<canvas.rows
        switch self {
        case let .text(col, row, maxColumns, style, text):
            let at = Int(row) + rows.lowerBound
            guard rows.contains(at) else { return }
            canvas.drawText(
                text, col: Int(col), row: at, maxColumns: Int(min(maxColumns, UInt32(Int32.max))),
                style: CellStyle(rawValue: style),
                ellipsis: unicode ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis)
        case let .box(col, row, cols, boxRows, style):
            canvas.drawBox(
                col: Int(col), row: Int(row) + rows.lowerBound, width: Int(min(cols, 0xFFFF)),
                height: Int(min(boxRows, 0xFFFF)), style: CellStyle(rawValue: style), unicode: unicode,
                clip: rows)
        }
    }

    /// Records `draw_text(col, row, maxColumns, text, style)` on a view of
    /// `geometry`: the operation (nil when nothing of it can show) and the
    /// columns the cut text takes, which the service returns.
    static func text(
        _ text: String, col: Int32, row: Int32, maxColumns: UInt32, style: UInt32,
        geometry: ViewGeometry
    ) -> (DrawOperation?, Int) {
        guard maxColumns > 0 else { return (nil, 0) }
        let visible = Canvas.withoutControls(text)
        let cut = DisplayWidth.truncate(
            visible, toColumns: Int(min(maxColumns, UInt32(Int32.max))),
            ellipsis: geometry.isUnicode ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis)
        // Walk the cut text as the canvas would, and keep the stretch of it
        // from the first cluster that lands at least partly inside the view
        // to the last: a slice of the cut text, so its clusters stay the ones
        // the canvas would draw (rebuilding it cluster by cluster could join
        // neighbours of a dropped zero-width one into a new cluster).
        var x = Int(col)
        var start: (index: String.Index, x: Int)?
        var end = cut.startIndex
        var keptWidth = 0
        var full = false
        for index in cut.indices {
            let character = cut[index]
            let width = DisplayWidth.of(character)
            guard width > 0 else { continue }
            defer { x += width }
            guard !full, x + width > 0, x < geometry.cols else { continue }
            let next = cut.index(after: index)
            if cut.utf8.distance(from: start?.index ?? index, to: next) > maxTextBytes {
                full = true  // the rest is dropped, never a gap
                continue
            }
            if start == nil { start = (index, x) }
            end = next
            keptWidth = x + width - start!.x
        }
        let drawn = x - Int(col)
        guard let start, row >= 0, Int(row) < geometry.rows else { return (nil, drawn) }
        return (
            .text(
                col: Int32(start.x), row: row, maxColumns: UInt32(keptWidth), style: style,
                text: String(cut[start.index..<end])), drawn
        )
    }
}
