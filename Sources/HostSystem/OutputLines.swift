/// Cuts a byte stream into whole lines, so output shown above a presenter is
/// never a half line that the next frame would overwrite.
///
/// What it keeps of an unfinished line is bounded, whatever the command
/// writes without a newline: text a carriage return redrew is forgotten
/// once the line is long (a `\r`-redrawn bar, as curl and wget draw, costs
/// what its last frame costs), and a line whose visible text reaches
/// ``longestLine`` bytes is passed on in pieces of that size, each a line
/// of its own (cut between two UTF-8 characters), so no byte of it is lost.
package struct OutputLines {
    /// The most bytes of one line kept before it is passed on as a piece:
    /// 64 KiB, wider than any terminal shows on one row.
    package static let longestLine = 65536

    private let longest: Int
    private var pending: [UInt8] = []
    /// Bytes of the unfinished line no longer in ``unfinished``: passed on
    /// as pieces, or redrawn over by a carriage return.
    package private(set) var forgotten = 0

    /// An empty splitter; `longestLine` is for tests (at least 4 bytes,
    /// the longest UTF-8 character).
    package init(longestLine: Int = OutputLines.longestLine) {
        longest = max(4, longestLine)
    }

    /// Adds `bytes` and returns the lines they complete, without their `\n`,
    /// and the pieces of a line too long to keep (``longestLine``).
    /// A line's text is what follows its last carriage return, which is what
    /// a terminal would have left visible of a progress line redrawn in place.
    package mutating func append(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        while let index = bytes[start...].firstIndex(of: 0x0a) {
            pending.append(contentsOf: bytes[start..<index])
            bound(into: &lines)
            lines.append(Self.visibleText(pending))
            pending.removeAll(keepingCapacity: true)
            forgotten = 0
            start = index + 1
        }
        pending.append(contentsOf: bytes[start...])
        bound(into: &lines)
        return lines
    }

    /// The bytes of the unfinished last line that are kept, as written (a
    /// prompt is shown as it is, from them); ``forgotten`` bytes came before them.
    package var unfinished: [UInt8] { pending }

    /// The unfinished last line, if any, and forgets it.
    package mutating func flush() -> String? {
        guard !pending.isEmpty else { return nil }
        defer {
            pending.removeAll()
            forgotten = 0
        }
        let text = Self.visibleText(pending)
        return text.isEmpty ? nil : text
    }

    /// Keeps the unfinished line within `longest` bytes: drops what a
    /// carriage return redrew (from the last one on, which is kept: a
    /// final one may be a CRLF's), then passes on pieces of the rest.
    private mutating func bound(into lines: inout [String]) {
        guard pending.count > longest else { return }
        if let cr = pending.dropLast().lastIndex(of: 0x0d), cr > 0 {
            pending.removeFirst(cr)
            forgotten += cr
        }
        while pending.count > longest {
            var cut = longest
            // Not inside a UTF-8 character: back to the start of the one at `cut`.
            while cut > longest - 3, pending[cut] & 0xC0 == 0x80 { cut -= 1 }
            lines.append(Self.visibleText(pending[..<cut]))
            pending.removeFirst(cut)
            forgotten += cut
        }
    }

    private static func visibleText(_ line: some Collection<UInt8>) -> String {
        var bytes = ArraySlice(line)
        if bytes.last == 0x0d { bytes = bytes.dropLast() }  // CRLF
        if let cr = bytes.lastIndex(of: 0x0d) { bytes = bytes[(cr + 1)...] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
