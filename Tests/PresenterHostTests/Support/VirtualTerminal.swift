import Foundation
@testable import HostText

/// A small terminal emulator for the sequences the host writes, so tests can
/// check what a screen shows, not only which bytes were sent. It follows a
/// tty's defaults (LF is CR LF) and what xterm does when half of a wide
/// character is overwritten. It does not rewrap lines on a resize (the tmux
/// tests in TerminalRegionEndToEndTests do).
struct VirtualTerminal {
    let cols: Int, rows: Int
    private(set) var cells: [[String]]
    private(set) var row: Int, col = 0
    private(set) var saved: (row: Int, col: Int) = (0, 0)
    private(set) var cursorVisible = true
    private(set) var lastColumnWrites = 0
    private(set) var colorCodes = 0
    private(set) var unknown: [String] = []

    /// A screen showing `text` as lines, then `partial` with no newline
    /// (the cursor is left after it).
    init(cols: Int, rows: Int, text: [String] = [], partial: String = "") {
        self.cols = cols
        self.rows = rows
        cells = Array(repeating: Array(repeating: " ", count: cols), count: rows)
        row = 0
        for line in text { write(line); newline() }
        write(partial)
    }

    /// Where the cursor is.
    var cursor: (row: Int, col: Int) { (row, col) }

    /// The screen as lines, trailing blanks removed.
    var lines: [String] {
        cells.map { $0.joined().replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
    }

    mutating func feed(_ bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }

    private mutating func write(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r": col = 0
            case "\n", "\r\n": newline()
            case "\u{8}": col = max(0, col - 1)
            case "\u{1B}":
                switch characters.popFirst() {
                case "[":
                    var parameters = ""
                    while let next = characters.popFirst() {
                        if next.isLetter { control(parameters, next); break }
                        parameters.append(next)
                    }
                case "7": saved = (row, col)  // DECSC
                case "8": (row, col) = saved  // DECRC
                case "D": index()  // IND: down, same column
                case let other: unknown.append("ESC " + (other.map(String.init) ?? ""))
                }
            default: put(character)
            }
        }
    }

    private mutating func newline() {
        col = 0
        index()
    }

    /// One row down, scrolling the screen up at the bottom row.
    private mutating func index() {
        if row == rows - 1 { cells.removeFirst(); cells.append(Array(repeating: " ", count: cols)) } else { row += 1 }
    }

    private mutating func put(_ character: Character) {
        let width = DisplayWidth.of(character)
        guard width > 0 else { return }
        if col + width > cols - 1 { lastColumnWrites += 1 }
        guard col + width <= cols else { return }
        for x in col..<(col + width) { detach(x) }
        cells[row][col] = String(character)
        if width == 2 { cells[row][col + 1] = "" }
        col = min(cols - 1, col + width)
    }

    private mutating func detach(_ x: Int) {
        if cells[row][x] == "", x > 0 { cells[row][x - 1] = " " }
        if x + 1 < cols, cells[row][x + 1] == "" { cells[row][x + 1] = " " }
    }

    private mutating func control(_ parameters: String, _ final: Character) {
        let count = max(1, Int(parameters) ?? 1)
        switch (parameters, final) {
        case ("?25", "l"): cursorVisible = false
        case ("?25", "h"): cursorVisible = true
        case (_, "A"): row = max(0, row - count)
        case (_, "B"): row = min(rows - 1, row + count)
        case (_, "C"): col = min(cols - 1, col + count)
        case (_, "D"): col = max(0, col - count)
        case (_, "E"): row = min(rows - 1, row + count); col = 0
        case ("", "K"): for x in col..<cols { cells[row][x] = " " }
        case ("", "J"):
            for x in col..<cols { cells[row][x] = " " }
            for y in (row + 1)..<rows { cells[y] = Array(repeating: " ", count: cols) }
        case (_, "L"):
            // IL: blank lines at the cursor's row, the rows below moved down
            // (those past the bottom lost), the cursor to the line's start.
            let inserted = min(count, rows - row)
            cells.removeLast(inserted)
            cells.insert(contentsOf: Array(repeating: Array(repeating: " ", count: cols), count: inserted), at: row)
            col = 0
        case (_, "M"):
            // DL: the cursor's row and those below it deleted, the rest moved up, blank rows in at the bottom.
            let deleted = min(count, rows - row)
            cells.removeSubrange(row..<(row + deleted))
            cells.append(contentsOf: Array(repeating: Array(repeating: " ", count: cols), count: deleted))
            col = 0
        case (_, "m"):
            colorCodes += parameters.split(separator: ";").filter { $0.count == 2 && $0.hasPrefix("3") }.count
        default: unknown.append(parameters + String(final))
        }
    }
}
