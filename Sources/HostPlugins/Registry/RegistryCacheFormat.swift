import HostText

/// The text of the registry cache file (see `RegistryCache`), version 1:
///
///     presenter-host registry cache 1 <FNV-1a 64 of the rest, hex>
///     K <key: ABI version, host binary, search path>
///     F <real path> <device inode size mtime-ns ctime-ns>
///     <the file's records: P, D or X lines>
///
/// Fields are separated by tabs. A file line (`F`) is followed by the
/// *records* of what loading that file gave (`LoadRecords`, which the scan
/// helper also reports). Paths escape `\`, tab and newline. The checksum
/// makes a torn or bit-flipped file unreadable rather than wrong; records
/// are read by the rules of a scan helper's report (`LoadRecords.outcome`),
/// and an entry whose records break them is left out.
enum RegistryCacheFormat {
    /// Bumped whenever a line changes meaning.
    static let version = 1
    private static let magic = "presenter-host registry cache \(version) "

    /// One plugin file as remembered: which version of it, and what loading it gave.
    struct Entry: Sendable, Equatable {
        let identity: FileIdentity
        let contents: PluginLibrary.Outcome
    }

    /// Why a cache file was not used.
    struct Unreadable: Error {
        let reason: String
    }

    /// The file's bytes for `entries` (by real path) under `key`.
    static func encode(key: String, entries: [String: Entry]) -> [UInt8] {
        var body = "K\t\(escaped(key))\n"
        for (file, entry) in entries.sorted(by: { $0.key < $1.key }) {
            body += "F\t\(escaped(file))\t\(entry.identity.text)\n"
            for record in LoadRecords.lines(entry.contents) { body += record + "\n" }
        }
        let bytes = Array(body.utf8)
        return header(for: bytes[...]) + bytes
    }

    /// The first line of a cache file whose lines are `body`: the magic and
    /// the body's checksum.
    static func header(for body: ArraySlice<UInt8>) -> [UInt8] {
        Array((magic + hex(checksum(body)) + "\n").utf8)
    }

    /// The entries of the cache file `bytes`, which must have been written
    /// under `key`.
    static func decode(_ bytes: [UInt8], key: String) throws(Unreadable) -> [String: Entry] {
        guard let newline = bytes.firstIndex(of: 0x0a) else { throw Unreadable(reason: "empty or truncated") }
        let first = String(decoding: bytes[..<newline], as: UTF8.self)
        guard first.hasPrefix("presenter-host registry cache ") else {
            throw Unreadable(reason: "not a registry cache")
        }
        guard first.hasPrefix(magic) else { throw Unreadable(reason: "written by another version") }
        let body = bytes[(newline + 1)...]
        guard first.dropFirst(magic.count) == hex(checksum(body)) else {
            throw Unreadable(reason: "corrupt (checksum)")
        }
        // Read as bytes, not Characters: faster, and a "\r" in a path
        // would otherwise swallow the "\n" after it.
        var lines = Lines(body)
        guard let keyLine = lines.next().map(LoadRecords.fields), keyLine.count == 2,
            keyLine[0].elementsEqual("K".utf8),
            text(keyLine[1]) == escaped(key)
        else {
            throw Unreadable(reason: "made for another host binary, ABI or search path")
        }
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(body.count / 128)
        var header = lines.next()
        while let fileLine = header.map(LoadRecords.fields) {
            guard fileLine.count == 3, fileLine[0].elementsEqual("F".utf8), let identity = identity(fileLine[2]) else {
                throw corrupt
            }
            let file = unescaped(text(fileLine[1]))
            var records: [ArraySlice<UInt8>] = []
            header = nil
            while let line = lines.next() {
                if line.first == UInt8(ascii: "F") {
                    header = line
                    break
                }
                records.append(line)
            }
            // An entry whose records break the rules of what the host writes
            // is dropped, and its file scanned again: the cache is the
            // user's own file, but what it shows must pass the rules a scan
            // helper's report passes (a hand-edited or older cache).
            if let contents = try? LoadRecords.outcome(records, file: file, cached: true) {
                entries[file] = Entry(identity: identity, contents: contents)
            }
        }
        guard lines.atEnd else { throw corrupt }
        return entries
    }

    /// The lines of a body, without their newlines; every line ends with a
    /// newline, and the body with the last one.
    private struct Lines {
        private let bytes: ArraySlice<UInt8>
        private var position: Int
        private(set) var atEnd = false

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        /// The next line; nil at the end of the body, or at a line without
        /// its newline (then `atEnd` stays false).
        mutating func next() -> ArraySlice<UInt8>? {
            guard position < bytes.endIndex else { atEnd = true; return nil }
            guard let newline = bytes[position...].firstIndex(of: 0x0a) else {
                position = bytes.endIndex
                return nil
            }
            defer { position = newline + 1 }
            return bytes[position..<newline]
        }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - Lines

    private static var corrupt: Unreadable { Unreadable(reason: "corrupt") }

    private static func identity(_ field: ArraySlice<UInt8>) -> FileIdentity? {
        // Five decimal numbers separated by single spaces, by hand, over the
        // contiguous bytes and into a tuple (no array, no closure capturing
        // the counters): this runs once per plugin file on every warm start.
        field.withUnsafeBufferPointer { bytes -> FileIdentity? in
            var numbers: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
            var count = 0, value: UInt64 = 0, digits = 0
            for index in 0...bytes.count {
                // The end ends the last number as a space does.
                let byte = index < bytes.count ? bytes[index] : 0x20
                if byte == 0x20 {
                    guard digits > 0 else { return nil }
                    switch count {
                    case 0: numbers.0 = value
                    case 1: numbers.1 = value
                    case 2: numbers.2 = value
                    case 3: numbers.3 = value
                    case 4: numbers.4 = value
                    default: return nil
                    }
                    count += 1
                    value = 0
                    digits = 0
                } else {
                    guard byte >= 0x30 && byte <= 0x39, digits < 19 else { return nil }
                    value = value * 10 + UInt64(byte - 0x30)
                    digits += 1
                }
            }
            let limit = UInt64(Int64.max)
            guard count == 5, numbers.2 <= limit, numbers.3 <= limit, numbers.4 <= limit else { return nil }
            return FileIdentity(
                device: numbers.0, inode: numbers.1, size: Int64(numbers.2),
                modified: Int64(numbers.3), changed: Int64(numbers.4))
        }
    }

    // MARK: - Text

    /// `\` as `\\`, tab as `\t`, newline as `\n`.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5c || $0 == 0x09 || $0 == 0x0a }) else { return text }
        return text.replacingEvery("\\", with: "\\\\").replacingEvery("\t", with: "\\t")
            .replacingEvery("\n", with: "\\n")
    }

    static func unescaped(_ text: String) -> String {
        // A path without a backslash (almost all), told over its contiguous bytes.
        var bytes = text
        guard bytes.withUTF8({ $0.contains(0x5c) }) else { return text }
        var result = "", escaping = false
        for character in text.unicodeScalars {
            if escaping {
                result.unicodeScalars.append(character == "t" ? "\t" : character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// FNV-1a, 64 bits.
    private static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        // Over the contiguous bytes: the whole file passes here on every warm start.
        bytes.withUnsafeBufferPointer { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
