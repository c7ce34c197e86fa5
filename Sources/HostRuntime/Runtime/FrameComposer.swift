import HostEngine
import HostText

/// Lays a frame out and puts it together, for a ``PresenterRuntime`` on its
/// presenter thread: which of the backend's rows the presenters' view covers,
/// the geometry the presenters are given, and the canvas the views draw on,
/// each in turn, their presenters' pictures over them.
struct FrameComposer {
    /// Rows at the bottom that presenters are not given (``PresenterRuntime/reservedRows``).
    let reservedRows: Int
    /// The presenters' rows for a backend of so many rows (``PresenterRuntime``'s `presenterRows`).
    let presenterRows: (@Sendable (Int) -> Range<Int>)?
    /// The backend's rows the presenters' view covers now.
    private(set) var presenterArea: Range<Int>
    /// What the presenters were last told of their view.
    private(set) var geometry: ViewGeometry
    private var canvas: Canvas
    /// Frames made since the inputs last changed, by the texts their cycles
    /// showed (``Screenlet/appendShownTexts(at:to:)``): a spinner's turn
    /// is one of them again, reused instead of drawn (docs/BENCHMARKS.md,
    /// "The frame as plain memory, frames already made").
    private var made: [[Int]: Canvas] = [:]
    /// The cells ``made`` holds, kept under ``madeCellBudget``.
    private var madeCells = 0
    /// The size of the frames in ``made``.
    private var madeSize = (cols: 0, rows: 0)
    /// 32,768 cells (1.25 MiB): a 5-row region of 80 columns keeps 81
    /// frames, a 200 × 50 screen three.
    static let madeCellBudget = 32_768

    init(backend: RenderBackend, reservedRows: Int, presenterRows: (@Sendable (Int) -> Range<Int>)?) {
        self.reservedRows = reservedRows
        self.presenterRows = presenterRows
        canvas = Canvas(cols: backend.size.cols, rows: backend.size.rows)
        presenterArea = Self.area(rows: backend.size.rows, reserving: reservedRows, presenterRows)
        geometry = Self.geometry(of: backend, area: presenterArea)
    }

    /// Follows the backend's size and flags; returns the presenters' new
    /// geometry when it changed (they must be told, and render again).
    mutating func follow(_ backend: RenderBackend) -> ViewGeometry? {
        presenterArea = Self.area(rows: backend.size.rows, reserving: reservedRows, presenterRows)
        let current = Self.geometry(of: backend, area: presenterArea)
        guard current != geometry else { return nil }
        geometry = current
        return current
    }

    /// The frame: a blank canvas the backend's size, on which each
    /// screenlet, in attach order, draws its view and its presenter's picture.
    ///
    /// With `reusing` (nothing but the time changed since the last frame),
    /// a frame whose cycles show the texts of one made before is that
    /// frame: the views and pictures are not drawn again. A frame is kept
    /// for that only while no view asks for frames of its own (time shows
    /// in it then, not only in the cycles).
    mutating func compose(
        _ screenlets: [Screenlet], at now: UInt64, for backend: RenderBackend, reusing: Bool = false
    ) -> Canvas {
        let size = backend.size
        let flags = backend.flags
        if !reusing || size != madeSize { forgetMade() }
        madeSize = size
        // A view that asks for frames of its own draws at each.
        let viewsStill = screenlets.allSatisfy { $0.state.value.viewFrameRequest == nil }
        var shown: [Int] = []
        for screenlet in screenlets { screenlet.appendShownTexts(at: now, to: &shown) }
        if !shown.isEmpty, viewsStill, let frame = made[shown] {
            for screenlet in screenlets { screenlet.followPicture(at: now, flags: flags) }
            return frame
        }
        if canvas.cols != size.cols || canvas.rows != size.rows {
            canvas = Canvas(cols: size.cols, rows: size.rows)
        } else {
            canvas.clear()
        }
        for screenlet in screenlets { screenlet.draw(on: &canvas, at: now, flags: flags, area: presenterArea) }
        let cells = size.cols * size.rows
        // Asked again after drawing: a view may have asked for frames just now.
        if !shown.isEmpty, madeCells + cells <= Self.madeCellBudget,
            screenlets.allSatisfy({ $0.state.value.viewFrameRequest == nil })
        {
            made[shown] = canvas
            madeCells += cells
        }
        return canvas
    }

    private mutating func forgetMade() {
        guard madeCells > 0 else { return }
        made.removeAll(keepingCapacity: true)
        madeCells = 0
    }

    /// The presenters' rows of a backend of `rows` rows: `presenterRows`'
    /// within them, else from the top without the reserved rows; at least
    /// one row is theirs (when there is one).
    private static func area(
        rows: Int, reserving reserved: Int, _ presenterRows: (@Sendable (Int) -> Range<Int>)?
    ) -> Range<Int> {
        guard rows > 0 else { return 0..<0 }
        guard let presenterRows else { return 0..<max(1, rows - reserved) }
        let asked = presenterRows(rows).clamped(to: 0..<rows)
        let top = min(asked.lowerBound, rows - 1)
        return top..<max(top + 1, asked.upperBound)
    }

    /// The presenters' view: the backend's columns, the rows of `area`.
    private static func geometry(of backend: RenderBackend, area: Range<Int>) -> ViewGeometry {
        ViewGeometry(cols: backend.size.cols, rows: area.count, flags: backend.flags.abiValue)
    }
}
