import PresenterABI

/// The view a hook was called for: the screen region a presenter draws on,
/// with its named elements.
///
/// Valid only during the hook call that received it; never keep one.
/// Drawing works only inside ``Presenter/render(view:now:)``; elsewhere it
/// draws nothing. Columns and rows count cells from the view's top-left.
public struct View {
    /// The host's table of services.
    let table: UnsafePointer<presenter_host>
    /// The host's handle for the view.
    let handle: OpaquePointer

    init(table: UnsafePointer<presenter_host>, handle: OpaquePointer) {
        self.table = table
        self.handle = handle
    }

    /// The view's size in cells.
    public var size: (cols: Int, rows: Int) {
        var cols: UInt32 = 0
        var rows: UInt32 = 0
        table.pointee.view_size(handle, &cols, &rows)
        return (Int(cols), Int(rows))
    }

    /// What the view can show and do.
    public var flags: Flags { Flags(rawValue: table.pointee.view_flags(handle)) }

    /// The width of `text` in display columns as this view shows it (wide CJK
    /// and emoji count two, combining marks zero).
    public func textWidth(_ text: String) -> Int {
        Int(text.withCString { table.pointee.text_width(handle, $0) })
    }

    /// Draws `text` at (`col`, `row`) using at most `maxCols` columns (longer
    /// text is cut and ends with an ellipsis); cells outside the view are
    /// clipped. Returns the number of columns drawn.
    @discardableResult
    public func drawText(
        _ text: String, col: Int, row: Int, maxCols: Int = Int(UInt32.max),
        style: Style = []
    ) -> Int {
        let drawn = text.withCString {
            table.pointee.draw_text(
                handle, Int32(clamping: col), Int32(clamping: row),
                UInt32(clamping: maxCols), $0, style.rawValue)
        }
        return Int(drawn)
    }

    /// Draws a bordered box with its top-left corner at (`col`, `row`), `cols`
    /// by `rows` cells (each at least 2), and blanks its inside.
    public func drawBox(col: Int, row: Int, cols: Int, rows: Int, style: Style = []) {
        table.pointee.draw_box(
            handle, Int32(clamping: col), Int32(clamping: row),
            UInt32(clamping: cols), UInt32(clamping: rows), style.rawValue)
    }

    /// Draws an animation the host plays by itself (ABI 1.2's `draw_cycle`):
    /// at each moment the text of `frames` due then, each shown for
    /// `interval` nanoseconds from `start` in turn, at (`col`, `row`) in at
    /// most `maxCols` columns. The host draws the next text when it is due
    /// without calling render, until the next render replaces the drawing.
    /// Returns the columns the widest text takes, or nil when the host
    /// cannot play it: its table lacks the service, or the animation is
    /// outside the service's rules (no text, more than
    /// `PRESENTER_CYCLE_MAX_FRAMES`, an interval under
    /// `PRESENTER_CYCLE_MIN_INTERVAL_NS`). Then draw the current text and
    /// ask for a frame when it changes
    /// (``Spinner/draw(on:col:row:maxCols:style:since:at:)`` does both).
    public func drawCycle(
        _ frames: [String], col: Int, row: Int, maxCols: Int = Int(UInt32.max), style: Style = [],
        start: UInt64, interval: UInt64
    ) -> Int? {
        let end = MemoryLayout<presenter_host>.offset(of: \presenter_host.draw_cycle)! + MemoryLayout<UInt>.size
        guard Int(table.pointee.struct_size) >= end, let drawCycle = table.pointee.draw_cycle,
            (1...Int(PRESENTER_CYCLE_MAX_FRAMES)).contains(frames.count),
            interval >= UInt64(PRESENTER_CYCLE_MIN_INTERVAL_NS)
        else { return nil }
        // The texts one after another, each with its NUL, and a pointer to each.
        var bytes: [CChar] = []
        var offsets: [Int] = []
        for frame in frames {
            offsets.append(bytes.count)
            bytes += frame.utf8CString
        }
        let drawn = bytes.withUnsafeBufferPointer { buffer in
            let texts: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 }
            return texts.withUnsafeBufferPointer {
                drawCycle(
                    handle, Int32(clamping: col), Int32(clamping: row), UInt32(clamping: maxCols), $0.baseAddress,
                    UInt32(clamping: frames.count), start, interval, style.rawValue)
            }
        }
        return Int(drawn)
    }

    /// Applies `operation` to the view's element called `name` (e.g.
    /// "get-title-button"). Works from any hook.
    /// - Throws: ``PresenterError`` with code ``PresenterError/Code/notFound``
    ///   when the view has no such element.
    public func element(_ name: String, _ operation: ElementOperation) throws {
        let status = name.withCString { table.pointee.element(handle, $0, operation.rawValue) }
        try PresenterError.check(
            status, orElse: "element \"\(name)\": the host refused \(operation) (status \(status))")
    }

    /// `PRESENTER_VIEW_*` bits.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `PRESENTER_VIEW_UNICODE`: the view shows Unicode (else use ASCII only).
        public static let unicode = Flags(rawValue: PRESENTER_VIEW_UNICODE)
        /// `PRESENTER_VIEW_INTERACTIVE`: a user can press keys in this view.
        public static let interactive = Flags(rawValue: PRESENTER_VIEW_INTERACTIVE)
        /// `PRESENTER_VIEW_ANIMATED`: frames reach a screen.
        public static let animated = Flags(rawValue: PRESENTER_VIEW_ANIMATED)
        /// `PRESENTER_VIEW_FINAL` (ABI 1.3): this render is the view's last,
        /// and what it draws stays on the screen after the host has left (in
        /// a terminal's scrollback). Draw the outcome's final look in as few
        /// rows as it needs, from the top (a line: `✔ Built`), or nothing to
        /// have the host write its own line; no render comes after it.
        public static let final = Flags(rawValue: PRESENTER_VIEW_FINAL)
    }

    /// Operations on a view's element, `PRESENTER_ELEMENT_*`.
    public enum ElementOperation: Int32, Sendable {
        /// `PRESENTER_ELEMENT_HIDE`
        case hide = 1
        /// `PRESENTER_ELEMENT_SHOW`
        case show = 2
        /// `PRESENTER_ELEMENT_START_ANIMATING` (e.g. an activity indicator)
        case startAnimating = 3
        /// `PRESENTER_ELEMENT_STOP_ANIMATING`
        case stopAnimating = 4
    }

    /// The style of drawn text and boxes: at most one colour, plus attributes.
    /// The host drops colour where the user asked for none.
    public struct Style: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `PRESENTER_COLOR_RED`
        public static let red = Style(rawValue: PRESENTER_COLOR_RED)
        /// `PRESENTER_COLOR_GREEN`
        public static let green = Style(rawValue: PRESENTER_COLOR_GREEN)
        /// `PRESENTER_COLOR_YELLOW`
        public static let yellow = Style(rawValue: PRESENTER_COLOR_YELLOW)
        /// `PRESENTER_COLOR_BLUE`
        public static let blue = Style(rawValue: PRESENTER_COLOR_BLUE)
        /// `PRESENTER_COLOR_MAGENTA`
        public static let magenta = Style(rawValue: PRESENTER_COLOR_MAGENTA)
        /// `PRESENTER_COLOR_CYAN`
        public static let cyan = Style(rawValue: PRESENTER_COLOR_CYAN)
        /// `PRESENTER_STYLE_BOLD`
        public static let bold = Style(rawValue: PRESENTER_STYLE_BOLD)
        /// `PRESENTER_STYLE_DIM`
        public static let dim = Style(rawValue: PRESENTER_STYLE_DIM)
        /// `PRESENTER_STYLE_REVERSE`
        public static let reverse = Style(rawValue: PRESENTER_STYLE_REVERSE)
    }
}
