// The fuzz target for the terminal's key decoder (`scripts/fuzz --target
// keys`): the bytes a terminal in raw mode sends, keys and bracketed
// pastes, read by KeyDecoder as TerminalInput reads them.
//
// Input: byte 0 is a header: its low 4 bits are a number of cuts n, and
// 0xF_ in its high bits makes a big paste (below). Bytes 1...n are the
// lengths of the first n chunks; the rest is the stream.
//
// Checked on every input (the oracles):
// - chunking: the stream decoded in one go and decoded chunk by chunk (as
//   reads cut it), each followed by flushPending, gives the same keys;
// - every key but a paste has a code that names it back (TerminalKey's
//   `code` and `init(code:)` are inverses), so no control character comes
//   out as a typed character;
// - a paste has at most KeyDecoder.maxPaste characters (one per byte kept);
// - an escape sequence is consumed whole: ESC [, up to 60 parameter and
//   intermediate bytes taken from the stream, a final byte, then `z`, give
//   at most one key that is not text (none for the start of a paste), then
//   `z`: no byte of the sequence is typed;
// - big paste: the stream (without ESC) repeated past maxPaste between
//   ESC [200~ and ESC [201~, cut into the chunks, is one paste of the
//   first maxPaste bytes.

#if !PRESENTER_FUZZ
    @testable import HostRuntime
#endif

enum KeysFuzz {
    static func run(_ input: [UInt8]) {
        guard let header = input.first else { return }
        let cuts = Int(header & 0x0F)
        let lengths = input.dropFirst().prefix(cuts).map(Int.init)
        let stream = Array(input.dropFirst(1 + cuts))
        if header & 0xF0 == 0xF0 {
            checkBigPaste(stream, lengths: lengths)
            return
        }
        let whole = decodeAll([stream])
        let chunked = decodeAll(chunks(stream, lengths: lengths))
        guard whole == chunked else {
            fuzzFailure("decoded in one go: \(whole); in chunks \(lengths): \(chunked)")
        }
        for key in whole { checkKey(key) }
        checkSequence(stream)
    }

    /// `bytes` cut after each of `lengths` (the rest is the last chunk).
    static func chunks(_ bytes: [UInt8], lengths: [Int]) -> [[UInt8]] {
        var rest = bytes[...]
        var result: [[UInt8]] = []
        for length in lengths {
            result.append(Array(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return result + [Array(rest)]
    }

    /// Every key the chunks give, read one after the other, then a flush
    /// (nothing more came).
    static func decodeAll(_ chunks: [[UInt8]]) -> [TerminalKey] {
        var decoder = KeyDecoder()
        var keys = chunks.flatMap { decoder.decode($0) }
        if let flushed = decoder.flushPending() { keys.append(flushed) }
        return keys
    }

    static func checkKey(_ key: TerminalKey) {
        guard let code = key.code else {
            if case .paste(let text) = key, text.unicodeScalars.count > KeyDecoder.maxPaste {
                fuzzFailure("a paste of \(text.unicodeScalars.count) characters")
            }
            return
        }
        guard TerminalKey(code: code) == key else {
            fuzzFailure("decoded \(key), whose code \(code) names \(String(describing: TerminalKey(code: code)))")
        }
    }

    static func checkSequence(_ stream: [UInt8]) {
        // Any length: one longer than KeyDecoder.maxSequence is dropped whole too.
        let body = stream.filter { (0x20...0x3F).contains($0) }
        let final = 0x40 + (stream.first ?? 0) % 0x3F  // 0x40 ... 0x7E
        let keys = decodeAll([[0x1B, UInt8(ascii: "[")] + body + [final, UInt8(ascii: "z")]])
        let first = body.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).first
        if final == UInt8(ascii: "~"), first.flatMap({ Int(fuzzText($0)) }) == 200 {
            // The start of a paste that never ends: nothing yet.
            guard keys.isEmpty else { fuzzFailure("a paste's start then z gave \(keys)") }
            return
        }
        let typed = keys.filter { if case .text = $0 { true } else { false } }
        guard typed == [.text("z")], keys.last == .text("z"), keys.count <= 2 else {
            fuzzFailure("ESC [ \(fuzzText(body).debugDescription) \(final) z gave \(keys)")
        }
    }

    static func checkBigPaste(_ stream: [UInt8], lengths: [Int]) {
        let unit = stream.filter { $0 != 0x1B }
        var body: [UInt8] = []
        if !unit.isEmpty {
            while body.count <= KeyDecoder.maxPaste { body += unit }
        }
        let bytes = Array("\u{1B}[200~".utf8) + body + Array("\u{1B}[201~".utf8)
        let keys = decodeAll(chunks(bytes, lengths: lengths.map { $0 * 512 }))
        let expected = TerminalKey.paste(fuzzText(body.prefix(KeyDecoder.maxPaste)))
        guard keys == [expected] else { fuzzFailure("a paste of \(body.count) bytes gave \(keys.count) keys") }
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let streams: [(String, String)] = [
            ("arrows", "\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA\u{1B}OD"),
            ("modified", "\u{1B}[1;5C\u{1B}[1;2D\u{1B}[3;5~\u{1B}[Z"),
            ("home-end", "\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}OH\u{1B}OF"),
            ("function-keys", "\u{1B}OP\u{1B}[15~\u{1B}[24;2~\u{1B}[[A"),
            ("alt", "\u{1B}a\u{1B}\u{1B}\u{1B}é\u{1B}O1x"),
            ("typing", "héllo wörld ✔ 😀\r\t\u{7F}\u{08}\u{01}\u{1A}\n"),
            ("paste", "a\u{1B}[200~pasted\ntext \u{1B}[A\u{1B}[201~b"),
            ("truncated", "\u{1B}[1;"),
            ("paste-unended", "\u{1B}[200~no end\u{1B}[20"),
            ("utf8-bad", "\u{C0}\u{80}"),
            ("c1", "a\u{85}b\u{9B}A"),
        ]
        var seeds = streams.map { name, text in (name, [UInt8(2), 1, 3] + Array(text.utf8)) }
        seeds.append(("bad-bytes", [0x03, 1, 2, 1, 0xFF, 0xC2, 0x1B, 0xE2, 0x9C, 0xF0, 0x9F, 0x98, 0x1B, 0x5B, 0x32]))
        seeds.append(("big-paste", [0xF2, 3, 200] + Array("typed é\n".utf8)))
        return seeds
    }
}
