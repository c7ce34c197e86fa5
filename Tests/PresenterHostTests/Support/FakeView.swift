import Foundation
import PresenterABI

/// A view: its size and flags, a character grid that draw_text and draw_box
/// paint (one scalar a cell: the tests use no wide characters), and its elements.
final class FakeView {
    let cols: Int
    let rows: Int
    var flags: UInt32
    /// The status element() returns for each name; a missing name is NOT_FOUND.
    var elements: [String: presenter_status] = [:]
    private(set) var elementCalls: [String] = []
    /// The text drawn in the last render, with its style, in call order.
    private(set) var texts: [(text: String, style: UInt32)] = []
    private var grid: [[Character]]
    /// Drawing works only inside render, as in the host.
    var rendering = false

    init(cols: Int = 40, rows: Int = 10, flags: UInt32 = PRESENTER_VIEW_UNICODE | PRESENTER_VIEW_ANIMATED) {
        self.cols = cols
        self.rows = rows
        self.flags = flags
        grid = Array(repeating: Array(repeating: " ", count: cols), count: rows)
    }

    var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func of(_ view: OpaquePointer?) -> FakeView {
        Unmanaged<FakeView>.fromOpaque(UnsafeRawPointer(view!)).takeUnretainedValue()
    }

    /// Clears the overlay before a frame, as the host does.
    func clear() {
        grid = Array(repeating: Array(repeating: " ", count: cols), count: rows)
        texts = []
        cycles = []
    }

    /// The screen as lines, trailing blanks kept.
    var lines: [String] { grid.map { String($0) } }

    /// The screen as lines with trailing blanks removed and blank lines dropped,
    /// for compact expectations.
    var visibleLines: [String] {
        lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.filter { !$0.isEmpty }
    }

    var isBlank: Bool { visibleLines.isEmpty }

    func element(_ name: String, _ op: Int32) -> presenter_status {
        elementCalls.append("\(name) \(op)")
        return elements[name] ?? PRESENTER_ERR_NOT_FOUND
    }

    /// The cycles drawn in the last render (their first text is painted).
    private(set) var cycles: [(frames: [String], interval: UInt64, style: UInt32)] = []

    func drawCycle(
        _ frames: [String], col: Int, row: Int, maxCols: Int, start: UInt64, interval: UInt64, style: UInt32
    ) -> Int {
        guard rendering, let first = frames.first else { return 0 }
        cycles.append((frames, interval, style))
        return drawText(first, col: col, row: row, maxCols: maxCols, style: style)
    }

    func drawText(_ text: String, col: Int, row: Int, maxCols: Int, style: UInt32) -> Int {
        guard rendering else { return 0 }
        var cells = Array(text)
        if cells.count > maxCols { cells = Array(cells.prefix(max(maxCols - 1, 0))) + (maxCols > 0 ? ["…"] : []) }
        texts.append((String(cells), style))
        for (offset, cell) in cells.enumerated() { put(cell, col + offset, row) }
        return cells.count
    }

    func drawBox(col: Int, row: Int, cols: Int, rows: Int) {
        guard rendering, cols >= 2, rows >= 2 else { return }
        let unicode = flags & PRESENTER_VIEW_UNICODE != 0
        let (h, v, corners): (Character, Character, [Character]) =
            unicode ? ("─", "│", ["┌", "┐", "└", "┘"]) : ("-", "|", ["+", "+", "+", "+"])
        for y in row..<(row + rows) {
            for x in col..<(col + cols) {
                let top = y == row, bottom = y == row + rows - 1, left = x == col, right = x == col + cols - 1
                switch (top || bottom, left || right) {
                case (true, true): put(corners[(top ? 0 : 2) + (left ? 0 : 1)], x, y)
                case (true, false): put(h, x, y)
                case (false, true): put(v, x, y)
                case (false, false): put(" ", x, y)
                }
            }
        }
    }

    private func put(_ cell: Character, _ col: Int, _ row: Int) {
        guard (0..<cols).contains(col), (0..<rows).contains(row) else { return }
        grid[row][col] = cell
    }
}
