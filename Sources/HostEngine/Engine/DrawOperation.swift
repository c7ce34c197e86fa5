import HostText
import PresenterABI

/// One `draw_text`, `draw_box` or `draw_cycle` call of a render, as recorded by the engine
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
    /// An animation the host plays by itself (``Cycle``).
    case cycle(Cycle)

    /// The most operations one render keeps; later draws are dropped.
    static let maxPerRender = 4096
    /// The most UTF-8 bytes of one recorded text (a cluster of ten thousand
    /// combining marks is one column wide).
    static let maxTextBytes = 4096
    /// The most UTF-8 bytes of text one render keeps, so that its drawing
    /// always fits a message of the presenter protocol (1 MiB).
    static let maxBytesPerRender = 512 << 10

    /// How many cells one render may have the host paint on a view of
    /// `cols` × `rows` (``paintCost(cols:rows:)``): four times the view,
    /// and at least ``minimumPaintBudget``. A presenter that fills its view,
    /// draws a box over it and texts in that paints three views at most;
    /// without a bound one could have the host paint 4,096 views a frame.
    package static func paintBudget(cols: Int, rows: Int) -> Int {
        max(4 * max(cols, 0) * max(rows, 0), minimumPaintBudget)
    }

    /// The least budget, that of a view of fewer than 256 cells (a row, say).
    package static let minimumPaintBudget = 1024

    /// What painting the operation costs the host on a view of `cols` ×
    /// `rows`, in cells, at least one: a box the cells of it inside the view;
    /// a text its UTF-8 bytes when its row is in the view (the canvas reads
    /// each of them, and they are at least its columns; a row outside is
    /// not read); a cycle its longest text, the one a frame may show.
    /// Computed without drawing: the engine weighs each operation as it is
    /// recorded, the runtime every one it gets before painting any
    /// (``withinPaintBudget(_:cols:rows:)``).
    package func paintCost(cols: Int, rows: Int) -> Int {
        switch self {
        case let .text(_, row, maxColumns, _, text):
            return maxColumns > 0 && row >= 0 && Int(row) < rows ? max(1, text.utf8.count) : 1
        case .cycle(let cycle):
            return cycle.frames.reduce(1) { cost, frame in
                frame.maxColumns > 0 && frame.row >= 0 && Int(frame.row) < rows
                    ? max(cost, frame.text.utf8.count) : cost
            }
        case let .box(col, row, boxCols, boxRows, _):
            guard boxCols >= 2, boxRows >= 2 else { return 1 }
            let width = min(Int(col) + Int(min(boxCols, 0xFFFF)), cols) - max(Int(col), 0)
            let height = min(Int(row) + Int(min(boxRows, 0xFFFF)), rows) - max(Int(row), 0)
            return max(1, max(width, 0) * max(height, 0))
        }
    }

    /// The operations of one render that the host paints on a view of
    /// `cols` × `rows`: the longest start of `operations` whose
    /// ``paintCost(cols:rows:)`` fits ``paintBudget(cols:rows:)``; the rest
    /// of the render is dropped. `dropped` counts what was.
    package static func withinPaintBudget(_ operations: [DrawOperation], cols: Int, rows: Int)
        -> (kept: [DrawOperation], dropped: Int)
    {
        var left = paintBudget(cols: cols, rows: rows)
        for (index, operation) in operations.enumerated() {
            left -= operation.paintCost(cols: cols, rows: rows)
            if left < 0 { return (Array(operations[..<index]), operations.count - index) }
        }
        return (operations, 0)
    }

    /// What the log says, once, of a render on a `cols` × `rows` view that
    /// drew more than ``paintBudget(cols:rows:)``: `dropped` of its `drawn`.
    package static func overBudgetNote(cols: Int, rows: Int, dropped: Int, of drawn: Int) -> String {
        EngineNote.droppedTag
            + "a render drew more than the host paints in one on the \(cols)x\(rows) view "
            + "(\(paintBudget(cols: cols, rows: rows)) cells): the host dropped the last \(dropped) of its \(drawn) "
            + "drawings, and drops the rest of every such render"
    }

    /// Paints the operation on `canvas` as the drawing services define it,
    /// the view's row 0 at `area`'s first row and nothing outside `area`
    /// (the whole canvas by default).
    /// A cycle shows its text for `now`.
    package func draw(on canvas: inout Canvas, unicode: Bool, in area: Range<Int>? = nil, at now: UInt64 = 0) {
        let rows = area ?? 0..<canvas.rows
        switch self {
        case let .text(col, row, maxColumns, style, text):
            let at = Int(row) + rows.lowerBound
            guard rows.contains(at) else { return }
            canvas.drawText(
                text, col: Int(col), row: at, maxColumns: Int(min(maxColumns, UInt32(Int32.max))),
                style: CellStyle(rawValue: style),
                ellipsis: unicode ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis)
        case .cycle(let cycle):
            let frame = cycle.frames[cycle.index(at: now)]
            DrawOperation.text(
                col: frame.col, row: frame.row, maxColumns: frame.maxColumns, style: cycle.style, text: frame.text
            )
            .draw(on: &canvas, unicode: unicode, in: rows)
        case let .box(col, row, cols, boxRows, style):
            canvas.drawBox(
                col: Int(col), row: Int(row) + rows.lowerBound, width: Int(min(cols, 0xFFFF)),
                height: Int(min(boxRows, 0xFFFF)), style: CellStyle(rawValue: style), unicode: unicode,
                clip: rows)
        }
    }

    /// Records `draw_cycle(col, row, maxColumns, texts, start, interval,
    /// style)` on a view of `geometry`: each text as ``text(_:col:row:maxColumns:style:geometry:)``
    /// records it, and the columns the widest takes. Nil when the call
    /// breaks the service's rules (no text, too many, too short an
    /// interval) or no text shows.
    static func cycle(
        _ texts: [String], col: Int32, row: Int32, maxColumns: UInt32, style: UInt32, start: UInt64,
        interval: UInt64, geometry: ViewGeometry
    ) -> (DrawOperation?, Int) {
        guard Cycle.frameCounts.contains(texts.count), interval >= Cycle.minimumInterval else { return (nil, 0) }
        var frames: [Cycle.Frame] = []
        var widest = 0
        for text in texts {
            let (operation, width) = DrawOperation.text(
                text, col: col, row: row, maxColumns: maxColumns, style: style, geometry: geometry)
            widest = max(widest, width)
            if case let .text(col, row, maxColumns, _, kept)? = operation {
                frames.append(Cycle.Frame(col: col, row: row, maxColumns: maxColumns, text: kept))
            } else {
                frames.append(Cycle.Frame(col: col, row: row, maxColumns: 0, text: ""))
            }
        }
        guard frames.contains(where: { !$0.text.isEmpty }) else { return (nil, widest) }
        return (.cycle(Cycle(frames: frames, start: start, interval: interval, style: style)), widest)
    }

    /// What the operation takes of a render's ``maxBytesPerRender``: its
    /// text, and for a cycle each text's place and length too (16 bytes in
    /// a message, shown or not) and the cycle's own 25, so that a render of
    /// many cycles of many texts still fits one message of the presenter
    /// protocol, as the same render in the host's own process does.
    var budgetBytes: Int {
        switch self {
        case .text(_, _, _, _, let text): return text.utf8.count
        case .box: return 0
        case .cycle(let cycle): return cycle.frames.reduce(25) { $0 + 16 + $1.text.utf8.count }
        }
    }

    /// Which of a cycle's texts shows at `now`; nil for an operation that
    /// shows the same at any time.
    package func shownText(at now: UInt64) -> Int? {
        guard case .cycle(let cycle) = self else { return nil }
        return cycle.index(at: now)
    }

    /// When what the operation shows next changes by itself (a cycle's next
    /// text), after `now`; nil when it never does.
    package func nextChange(after now: UInt64) -> UInt64? {
        guard case .cycle(let cycle) = self else { return nil }
        return cycle.nextChange(after: now)
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

/// A `draw_cycle`: texts at one place that the host shows in turn, each for
/// `interval` nanoseconds from `start`, redrawing when the next is due
/// without calling the presenter (ABI 1.2).
package struct Cycle: Equatable, Sendable {
    /// One text, recorded as `draw_text` records it (an empty text: none of it shows).
    package struct Frame: Equatable, Sendable {
        package var col: Int32
        package var row: Int32
        package var maxColumns: UInt32
        package var text: String
    }

    /// `PRESENTER_CYCLE_MAX_FRAMES`: how many texts a cycle may have.
    static let frameCounts = 1...Int(PRESENTER_CYCLE_MAX_FRAMES)
    /// `PRESENTER_CYCLE_MIN_INTERVAL_NS`.
    static let minimumInterval = UInt64(PRESENTER_CYCLE_MIN_INTERVAL_NS)

    package var frames: [Frame]
    package var start: UInt64
    package var interval: UInt64
    package var style: UInt32

    /// The text shown at `now`: the first before `start`.
    func index(at now: UInt64) -> Int {
        guard now > start, interval > 0, !frames.isEmpty else { return 0 }
        return Int((now - start) / interval % UInt64(frames.count))
    }

    /// When the text shown after `now` changes; nil for a single text (or
    /// a time past the clock's end).
    func nextChange(after now: UInt64) -> UInt64? {
        guard frames.count > 1, interval > 0 else { return nil }
        // The first text shows until `start + interval`, from before `start` on.
        let elapsed = now > start ? now - start : 0
        let (step, overflowA) = (elapsed / interval + 1).multipliedReportingOverflow(by: interval)
        let (next, overflowB) = start.addingReportingOverflow(step)
        return overflowA || overflowB ? nil : next
    }
}
