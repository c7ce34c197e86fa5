import Glibc

/// A grid of cells that presenters paint on and backends show.
///
/// Each cell holds one grapheme cluster (up to ``Cell/maxUTF8Count`` bytes
/// of it) and a style, as plain bytes. A wide cluster (two
/// columns) sits in its left cell; the right cell is its continuation (empty
/// text). Drawing keeps that pairing intact: overwriting either half of a wide
/// cluster blanks the other half, and a wide cluster that would straddle the
/// canvas edge is not drawn. Text never carries control characters, so no
/// escape sequence can reach the terminal through a canvas.
///
/// Reading a cell is `@inlinable`: the frame encoders (HostRuntime) read
/// every cell of two canvases each frame, and a call into this module per
/// cell, with the copy of its text it returns, cost more than the rest of
/// the frame (docs/BENCHMARKS.md, "The module split").
public struct Canvas: Equatable, Sendable {
    /// One cell of the grid: plain bytes, no reference. The frame path
    /// clears, copies, compares and frees whole canvases every frame; with
    /// a `String` in each cell every one of those was a retain or release
    /// per cell (docs/BENCHMARKS.md, "The frame as plain memory").
    public struct Cell: Equatable, Sendable {
        /// The cluster's UTF-8, zero-padded, its length in the last byte.
        @usableFromInline var utf8: (UInt64, UInt64, UInt64, UInt64)
        /// The ``CellStyle`` bits, widened so that a cell has no padding.
        @usableFromInline var styleBits: UInt64

        /// The most UTF-8 bytes a cell keeps of its cluster. Every emoji
        /// sequence but a handful fits; a longer cluster (an emoji of more
        /// than seven parts, a letter under a pile of combining marks)
        /// keeps the whole scalars that fit, which still show its base.
        public static let maxUTF8Count = 31

        /// The grapheme cluster shown here: " " when blank, "" for the right
        /// half of a wide cluster.
        public var text: String {
            get {
                withUnsafeBytes(of: utf8) { bytes in
                    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<Int(bytes[31])]), as: UTF8.self)
                }
            }
            set { utf8 = Self.packed(newValue) }
        }

        /// Its style.
        @inlinable public var style: CellStyle {
            get { CellStyle(bits: UInt32(truncatingIfNeeded: styleBits)) }
            set { styleBits = UInt64(newValue.rawValue) }
        }

        /// An empty cell in the default style (made where it is used: a
        /// stored `static let` is reached through a lazy initialiser's check).
        @inlinable public static var blank: Cell {
            Cell(utf8: (UInt64(0x20).littleEndian, 0, 0, (UInt64(1) << 56).littleEndian), styleBits: 0)
        }
        /// True for the right half of a wide cluster.
        @inlinable public var isContinuation: Bool { withUnsafeBytes(of: utf8) { $0[31] == 0 } }

        /// A cell of `text` (one grapheme cluster; "" for a continuation) in `style`.
        public init(text: String, style: CellStyle) {
            utf8 = Self.packed(text)
            styleBits = UInt64(style.rawValue)
        }

        @inlinable init(utf8: (UInt64, UInt64, UInt64, UInt64), styleBits: UInt64) {
            self.utf8 = utf8
            self.styleBits = styleBits
        }

        /// Appends the cluster's UTF-8 to `out` (a frame's buffer), without
        /// making its `text`.
        @inlinable public func appendUTF8(to out: inout [UInt8]) {
            withUnsafeBytes(of: utf8) { bytes in out.append(contentsOf: bytes[0..<Int(bytes[31])]) }
        }

        /// True when `other` holds the same cluster, whatever the styles:
        /// compared as bytes, without making either's `text`.
        @inlinable public func hasSameText(as other: Cell) -> Bool { utf8 == other.utf8 }

        /// True when a terminal shows `other` as this cell: the same cluster
        /// in the same style, colour aside where it is off.
        @inlinable package func looksLike(_ other: Cell, withColor color: Bool) -> Bool {
            hasSameText(as: other) && style.shown(withColor: color) == other.style.shown(withColor: color)
        }

        @inlinable public static func == (lhs: Cell, rhs: Cell) -> Bool {
            lhs.utf8 == rhs.utf8 && lhs.styleBits == rhs.styleBits
        }

        /// `text`'s UTF-8 as a cell holds it: cut after the last whole
        /// scalar that fits in ``maxUTF8Count`` bytes (and a joiner left
        /// dangling at the cut dropped), zero-padded, the length last.
        @usableFromInline static func packed(_ text: String) -> (UInt64, UInt64, UInt64, UInt64) {
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var text = text
            text.withUTF8 { source in
                var count = min(source.count, maxUTF8Count)
                if count < source.count {
                    // Back to the start of the scalar the cut falls in.
                    while count > 0 && source[count] & 0xC0 == 0x80 { count -= 1 }
                    // A zero-width joiner (E2 80 8D) left at the cut joins nothing.
                    if count >= 3 && source[count - 3] == 0xE2 && source[count - 2] == 0x80 && source[count - 1] == 0x8D
                    {
                        count -= 3
                    }
                }
                withUnsafeMutableBytes(of: &words) { cell in
                    cell.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: source[0..<count])))
                    cell[31] = UInt8(count)
                }
            }
            return words
        }
    }

    /// Width in columns.
    public let cols: Int
    /// Height in rows.
    public let rows: Int
    @usableFromInline private(set) var cells: [Cell]

    /// A blank canvas of `cols` × `rows` cells (negative sizes count as 0).
    public init(cols: Int, rows: Int) {
        self.cols = max(0, cols)
        self.rows = max(0, rows)
        cells = Array(repeating: .blank, count: self.cols * self.rows)
    }

    /// The cell at (`col`, `row`); both must be inside the canvas.
    @inlinable public subscript(col: Int, row: Int) -> Cell {
        precondition(contains(col: col, row: row), "cell (\(col), \(row)) outside a \(cols)×\(rows) canvas")
        return cells[row * cols + col]
    }

    /// True when row `row` of `other`, a canvas as wide, holds the same
    /// cells as this one's: one compare of the row's bytes (the frame
    /// encoder asks this of every row of every frame, most unchanged).
    public func rowEquals(_ row: Int, in other: Canvas) -> Bool {
        precondition(other.cols == cols && (0..<min(rows, other.rows)).contains(row), "row \(row) of unlike canvases")
        guard cols > 0 else { return true }
        // A cell is plain bytes without padding (``Cell``): a row is one compare.
        let stride = MemoryLayout<Cell>.stride
        return cells.withUnsafeBytes { mine in
            other.cells.withUnsafeBytes { theirs in
                memcmp(
                    mine.baseAddress! + row * cols * stride, theirs.baseAddress! + row * cols * stride, cols * stride)
                    == 0
            }
        }
    }

    /// Where the cells are kept: two canvases with the same one hold the
    /// same cells (a canvas's cells are copied before they change), for as
    /// long as either exists.
    package var storageAddress: UInt { cells.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }

    /// The columns of row `row` from the first to the last cell that differs
    /// from `other`'s (a canvas as wide), or `nil` when the rows are equal:
    /// a frame encoder need look at no cell outside them.
    public func changedColumns(inRow row: Int, from other: Canvas) -> ClosedRange<Int>? {
        guard !rowEquals(row, in: other) else { return nil }  // most rows, most frames: one compare
        let start = row * cols
        return cells.withUnsafeBufferPointer { mine in
            other.cells.withUnsafeBufferPointer { theirs in
                var first = start
                while first < start + cols && mine[first] == theirs[first] { first += 1 }
                guard first < start + cols else { return nil }
                var last = start + cols - 1
                while mine[last] == theirs[last] { last -= 1 }
                return (first - start)...(last - start)
            }
        }
    }

    /// True when no cell holds anything but a blank in the default style.
    public var isBlank: Bool { cells.allSatisfy { $0 == .blank } }

    /// Blanks every cell.
    public mutating func clear() {
        // A new buffer: the old one is usually shared with the frame the
        // backend keeps, and blanking it in place would copy it first.
        cells = Array(repeating: .blank, count: cells.count)
    }

    /// Draws `text` from (`col`, `row`) in at most `maxColumns` columns, cut
    /// with `ellipsis` when longer (``DisplayWidth/truncate(_:toColumns:ellipsis:)``).
    /// Control and layout characters are dropped (``withoutControls(_:)``).
    /// Cells outside the canvas are clipped.
    ///
    /// - Returns: the columns the (cut) text takes, whether or not clipped.
    @discardableResult
    public mutating func drawText(
        _ text: String, col: Int, row: Int, maxColumns: Int,
        style: CellStyle = .plain, ellipsis: String = DisplayWidth.unicodeEllipsis
    ) -> Int {
        guard maxColumns > 0 else { return 0 }
        let visible = Self.withoutControls(text)
        let cut = DisplayWidth.truncate(visible, toColumns: maxColumns, ellipsis: ellipsis)
        var x = col
        for character in cut {
            let width = DisplayWidth.of(character)
            guard width > 0 else { continue }  // a stray combining mark has nothing to sit on
            put(Cell(text: String(character), style: style), width: width, col: x, row: row)
            x += width
        }
        return x - col
    }

    /// Draws a bordered box with its top-left corner at (`col`, `row`),
    /// `width` × `height` cells, and blanks its inside in `style`. Sizes under
    /// 2 draw nothing. Cells outside the canvas, or outside the rows of
    /// `clip` when given, are clipped.
    public mutating func drawBox(
        col: Int, row: Int, width: Int, height: Int,
        style: CellStyle = .plain, unicode: Bool = true, clip: Range<Int>? = nil
    ) {
        guard width >= 2, height >= 2 else { return }
        let glyphs = unicode ? ["╭", "╮", "╰", "╯", "─", "│", " "] : ["+", "+", "+", "+", "-", "|", " "]
        let (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical, inside) = (
            Cell(text: glyphs[0], style: style), Cell(text: glyphs[1], style: style),
            Cell(text: glyphs[2], style: style), Cell(text: glyphs[3], style: style),
            Cell(text: glyphs[4], style: style), Cell(text: glyphs[5], style: style),
            Cell(text: glyphs[6], style: style)
        )
        // Only the cells inside the canvas: a box may be far larger than it.
        let visible = (clip ?? 0..<rows).clamped(to: 0..<rows)
        let first = max(row, visible.lowerBound), last = min(row + height, visible.upperBound)
        for y in first..<max(last, first) {
            for x in max(col, 0)..<max(min(col + width, cols), max(col, 0)) {
                let top = y == row, bottom = y == row + height - 1
                let left = x == col, right = x == col + width - 1
                let glyph: Cell
                switch (top, bottom, left, right) {
                case (true, _, true, _): glyph = topLeft
                case (true, _, _, true): glyph = topRight
                case (_, true, true, _): glyph = bottomLeft
                case (_, true, _, true): glyph = bottomRight
                case (true, _, _, _), (_, true, _, _): glyph = horizontal
                case (_, _, true, _), (_, _, _, true): glyph = vertical
                default: glyph = inside
                }
                put(glyph, width: 1, col: x, row: y)
            }
        }
    }

    /// The rows as text, wide clusters once each. With `trimmed` (the
    /// default) trailing blanks are removed, so screen tests read naturally.
    public func lines(trimmed: Bool = true) -> [String] {
        (0..<rows).map { row in
            var line = ""
            for col in 0..<cols { line += cells[row * cols + col].text }
            guard trimmed else { return line }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// True when (`col`, `row`) lies inside the canvas.
    @inlinable public func contains(col: Int, row: Int) -> Bool {
        col >= 0 && col < cols && row >= 0 && row < rows
    }

    private mutating func put(_ cell: Cell, width: Int, col: Int, row: Int) {
        // A wide cluster is drawn whole or not at all.
        guard contains(col: col, row: row), contains(col: col + width - 1, row: row) else { return }
        for x in col..<(col + width) { detachWideNeighbour(col: x, row: row) }
        cells[row * cols + col] = cell
        if width == 2 { cells[row * cols + col + 1] = Cell(utf8: (0, 0, 0, 0), styleBits: cell.styleBits) }
    }

    /// Before (`col`, `row`) is overwritten: blanks the other half of the wide
    /// cluster it belongs to, if any.
    private mutating func detachWideNeighbour(col: Int, row: Int) {
        let index = row * cols + col
        if cells[index].isContinuation, col > 0 {
            cells[index - 1] = .blank
        } else if col + 1 < cols, cells[index + 1].isContinuation {
            cells[index + 1] = .blank
        }
    }

    /// `text` without the characters of every ``ControlCharacters`` rule
    /// (C0, DEL, C1 and the layout characters), which never reach a canvas:
    /// the host places each cell itself, and a character that reorders or
    /// breaks a line (U+2028 took a cell, and some terminals start a new
    /// line at it) would make the terminal's row differ from the canvas.
    package static func withoutControls(_ text: String) -> String {
        ControlCharacters.all.removed(from: text)
    }
}
