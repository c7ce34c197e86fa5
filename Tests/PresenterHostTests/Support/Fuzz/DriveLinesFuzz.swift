// The fuzz target for the drive protocol's line framing (`scripts/fuzz
// --target drive-lines`): FileDescriptor.readLines, which cuts what a
// socket client (and stdin) sends into the lines DriveClient receives,
// over a real socket. (The `drive` target parses the lines themselves.)
//
// Input: byte 0 % 64 + 1 is the line limit (DriveClient's is 64 KiB; a
// small one lets the fuzzer reach it); byte 1 % 16 is a number of cuts n;
// bytes 2...n+1 the lengths of the first n chunks; the rest is the stream,
// sent chunk by chunk over a SOCK_SEQPACKET socket pair, so that each read
// returns exactly one chunk, as a client's writes may arrive.
// Checked on every input: the lines are the stream cut at '\n' (a last
// line without one counts; nothing after a final newline), each line
// longer than the limit given as one `nil`, whatever the chunking.

#if canImport(Glibc)
    import Glibc
#endif
#if !PRESENTER_FUZZ
    @testable import HostSystem
#endif

enum DriveLinesFuzz {
    static func run(_ input: [UInt8]) {
        guard input.count >= 2 else { return }
        let limit = Int(input[0] % 64) + 1
        let cuts = Int(input[1] % 16)
        let lengths = input.dropFirst(2).prefix(cuts).map(Int.init)
        let stream = Array(input.dropFirst(2 + cuts))
        let lines = read(KeysFuzz.chunks(stream, lengths: lengths), limit: limit)
        let expected = expectedLines(stream, limit: limit)
        guard lines == expected else {
            fuzzFailure("limit \(limit), chunks \(lengths): read \(lines), expected \(expected)")
        }
    }

    /// The lines of `stream` by definition.
    static func expectedLines(_ stream: [UInt8], limit: Int) -> [[UInt8]?] {
        var lines = stream.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.count > limit ? nil : Array($0) }
    }

    /// What readLines gives for `chunks` sent one by one, then the end.
    static func read(_ chunks: [[UInt8]], limit: Int) -> [[UInt8]?] {
        var pair: [CInt] = [-1, -1]
        guard socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            fuzzFailure("socketpair: errno \(errno)")
        }
        let writer = FileDescriptor(rawValue: pair[0])
        let reader = FileDescriptor(rawValue: pair[1])
        defer {
            try? writer.close()
            try? reader.close()
        }
        // (An empty record would read as the end.)
        for chunk in chunks where !chunk.isEmpty {
            do { try writer.send(chunk) } catch { fuzzFailure("send: \(error)") }
        }
        shutdown(writer.rawValue, CInt(SHUT_WR))
        var lines: [[UInt8]?] = []
        try? reader.readLines(limit: limit) { lines.append($0) }
        return lines
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let streams: [(String, [UInt8], String)] = [
            (
                "session", [3, 20, 7],
                "{\"start\": \"a1\"}\n{\"progress\": \"a1\", \"fraction\": 0.5}\n{\"succeed\": \"a1\"}\n"
            ),
            ("no-final-newline", [1, 4], "one\ntwo"),
            (
                "long-lines", [2, 10, 30],
                "short\n0123456789012345678901234567890123456789012345678901234567890123456789\nok\n"
            ),
            ("newline-at-cut", [2, 4, 1], "abc\n\n\ndef\n"),
            ("long-tail", [1, 50], String(repeating: "x", count: 90)),
            ("control-ids", [2, 19, 5], "{\"start\": \"\u{1B}]2;x\u{7}\"}\n{\"succeed\": \"\r\u{8}\"}\n"),
        ]
        // Bytes that are not UTF-8, cut inside a sequence and at a newline.
        let bytes: [(String, [UInt8], [UInt8])] = [
            ("not-utf8", [3, 1, 2], [0x7B, 0xFF, 0xFE, 0x0A, 0xE2, 0x82, 0x0A, 0xC3, 0xA9, 0x0A, 0xF0, 0x9F])
        ]
        return streams.map { name, cuts, text in (name, [UInt8(40), UInt8(cuts.count)] + cuts + Array(text.utf8)) }
            + bytes.map { name, cuts, stream in (name, [UInt8(40), UInt8(cuts.count)] + cuts + stream) }
    }
}
