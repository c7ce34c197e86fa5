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
    mutating func compose(_ screenlets: [Screenlet], at now: UInt64, for backend: RenderBackend) -> Canvas {
        let size = backend.size
        if canvas.cols != size.cols || canvas.rows != size.rows {
            canvas = Canvas(cols: size.cols, rows: size.rows)
        } else {
            canvas.clear()
        }
        let flags = backend.flags
        for screenlet in screenlets { screenlet.draw(on: &canvas, at: now, flags: flags) }
        return canvas
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
