/// The byte layer of the presenter protocol: frames, and the little-endian
/// values inside them. Pure: no descriptors, no clocks.
///
/// A frame is a `u32` length (little-endian) followed by that many bytes of
/// body. A length over ``maxBody`` (or a body that does not decode to a
/// message, or bytes left over after one) is a protocol violation.
enum MessageCoding {
    /// The largest body either side accepts: 1 MiB. A render's drawing stays
    /// below it: at most ``DrawOperation/maxPerRender`` operations and
    /// ``DrawOperation/maxBytesPerRender`` bytes of text.
    static let maxBody = 1 << 20

    /// `body` with its length in front.
    static func frame(_ body: [UInt8]) -> [UInt8] {
        // One buffer (every frame of a render crosses here, both ways).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 + body.count)
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: body)
        return bytes
    }
}

/// Why bytes could not be read as a message.
struct MessageError: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Collects bytes as they arrive and gives back whole frame bodies.
struct FrameBuffer {
    private var bytes: [UInt8] = []
    private var start = 0

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        if start > 0 && start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        }
        bytes.append(contentsOf: chunk)
    }

    /// True when no partial frame is waiting.
    var isEmpty: Bool { start == bytes.count }

    /// The next whole body, nil while it has not all arrived.
    /// - Throws: when the announced length is over ``MessageCoding/maxBody``.
    mutating func next() throws(MessageError) -> [UInt8]? {
        guard bytes.count - start >= 4 else { return nil }
        let length =
            Int(bytes[start]) | Int(bytes[start + 1]) << 8 | Int(bytes[start + 2]) << 16 | Int(bytes[start + 3]) << 24
        guard length <= MessageCoding.maxBody else {
            throw MessageError("a message of \(length) bytes, more than the \(MessageCoding.maxBody) allowed")
        }
        guard bytes.count - start - 4 >= length else { return nil }
        let body = Array(bytes[(start + 4)..<(start + 4 + length)])
        start += 4 + length
        if start > 65536 && start * 2 > bytes.count {
            bytes.removeSubrange(..<start)
            start = 0
        }
        return body
    }
}

/// Appends little-endian values to a body.
struct MessageWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }

    mutating func string(_ value: String) {
        u32(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// Bytes with their count in front, as a string's.
    mutating func data(_ value: [UInt8]) {
        u32(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    /// A count, then each element written by `body`.
    mutating func array<T>(_ values: [T], _ body: (inout MessageWriter, T) -> Void) {
        u32(UInt32(values.count))
        for value in values { body(&self, value) }
    }
}

/// Reads little-endian values from a body, checking every length against
/// what is left: nothing in the bytes can make it read out of bounds or
/// allocate more than the body's size.
struct MessageReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// True when every byte was read.
    var isAtEnd: Bool { offset == bytes.count }

    /// Throws unless every byte was read.
    func finish() throws(MessageError) {
        guard isAtEnd else { throw MessageError("\(bytes.count - offset) bytes after the end of a message") }
    }

    private mutating func take(_ count: Int) throws(MessageError) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else { throw MessageError("a message cut short") }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func u8() throws(MessageError) -> UInt8 { try take(1).first! }

    mutating func bool() throws(MessageError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let other: throw MessageError("\(other) where a yes or no was expected")
        }
    }

    mutating func u32() throws(MessageError) -> UInt32 {
        try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func i32() throws(MessageError) -> Int32 { Int32(bitPattern: try u32()) }

    mutating func u64() throws(MessageError) -> UInt64 {
        try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func i64() throws(MessageError) -> Int64 { Int64(bitPattern: try u64()) }
    mutating func f64() throws(MessageError) -> Double { Double(bitPattern: try u64()) }

    /// A string; bytes that are not UTF-8 are replaced, never trusted.
    mutating func string() throws(MessageError) -> String {
        let count = Int(try u32())
        return String(decoding: try take(count), as: UTF8.self)
    }

    /// Bytes with their count in front, as a string's, not decoded.
    mutating func data() throws(MessageError) -> [UInt8] {
        let count = Int(try u32())
        return Array(try take(count))
    }

    mutating func optionalString() throws(MessageError) -> String? {
        try bool() ? try string() : nil
    }

    /// A count, then that many elements read by `body`. Each element takes
    /// at least `minimumSize` bytes, so a count beyond what is left fails at once.
    mutating func array<T>(minimumSize: Int, _ body: (inout MessageReader) throws(MessageError) -> T)
        throws(MessageError) -> [T]
    {
        let count = Int(try u32())
        guard count <= (bytes.count - offset) / max(1, minimumSize) else {
            throw MessageError("a list of \(count) items in a message too short for it")
        }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try body(&self)) }
        return values
    }
}

extension Hook {
    /// The hook an outcome of the presenter process names, "" for none:
    /// another name is no message of the protocol.
    static func named(_ name: String) throws(MessageError) -> Hook? {
        guard !name.isEmpty else { return nil }
        guard let hook = Hook(rawValue: name) else { throw MessageError("an outcome of an unknown hook") }
        return hook
    }
}
