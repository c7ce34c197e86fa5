/// Cuts a byte stream into whole lines, so output shown above a presenter is
/// never a half line that the next frame would overwrite.
public struct OutputLines {
    private var pending: [UInt8] = []

    /// An empty splitter.
    public init() {}

    /// Adds `bytes` and returns the lines they complete, without their `\n`.
    /// A line's text is what follows its last carriage return, which is what
    /// a terminal would have left visible of a progress line redrawn in place.
    public mutating func append(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0a {
            pending.append(contentsOf: bytes[start..<index])
            lines.append(Self.visibleText(pending))
            pending.removeAll(keepingCapacity: true)
            start = index + 1
        }
        pending.append(contentsOf: bytes[start...])
        return lines
    }

    /// The bytes of the unfinished last line, as written (a prompt is shown
    /// as it is, from them).
    public var unfinished: [UInt8] { pending }

    /// The unfinished last line, if any, and forgets it.
    public mutating func flush() -> String? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll() }
        let text = Self.visibleText(pending)
        return text.isEmpty ? nil : text
    }

    private static func visibleText(_ line: [UInt8]) -> String {
        var bytes = line[...]
        if bytes.last == 0x0d { bytes = bytes.dropLast() }  // CRLF
        if let cr = bytes.lastIndex(of: 0x0d) { bytes = bytes[(cr + 1)...] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
