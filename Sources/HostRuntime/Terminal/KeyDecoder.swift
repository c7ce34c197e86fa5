import HostText

/// Turns the bytes a terminal sends in raw mode into ``TerminalKey``s.
///
/// It keeps what a read cut in the middle of a sequence for the next
/// ``decode(_:)``. A lone Escape cannot be told from the start of a sequence
/// until more bytes come or none do: the reader calls ``flushPending()``
/// when nothing followed within a short wait, as every terminal program
/// must. That also drops the start of a sequence that never ended (Alt-[
/// typed on its own), so the next key typed is never taken for its end.
///
/// What it reads: UTF-8 text (a malformed byte is U+FFFD; a C1 control,
/// U+0080 to U+009F, is ignored like the C0 ones no key has); Enter (CR or LF),
/// Tab, Backspace (DEL or BS), Ctrl and a letter; the CSI and SS3 sequences
/// of the arrow keys, Home, End, Delete and Shift-Tab, with or without
/// modifiers (xterm, VT220, rxvt and the Linux console spell them
/// differently); bracketed paste (`ESC [200~` ... `ESC [201~`), whose text is
/// one ``TerminalKey/paste(_:)`` of at most ``maxPaste`` bytes (the rest is
/// dropped). Any other sequence, and Alt with a key, is consumed whole and
/// ignored: no byte of it is ever taken for typed text.
package struct KeyDecoder: Sendable {
    /// The most bytes of one paste kept.
    package static let maxPaste = 64 * 1024
    /// The longest escape sequence kept; a longer one is junk and dropped,
    /// to its final byte however many reads it spans.
    static let maxSequence = 64

    private var pending: [UInt8] = []
    /// In a sequence too long to keep: its parameter and intermediate bytes
    /// and its final byte are dropped as they come.
    private var skippingSequence = false
    private var pasting = false
    private var paste: [UInt8] = []

    /// A decoder with nothing pending.
    package init() {}

    /// True when an Escape, or the start of a sequence, waits for what follows it.
    package var hasPendingEscape: Bool { skippingSequence || (!pasting && pending.first == 0x1B) }

    /// The keys in `bytes`, with what earlier calls left.
    package mutating func decode(_ bytes: [UInt8]) -> [TerminalKey] {
        pending += bytes
        var keys: [TerminalKey] = []
        var index = 0
        while index < pending.count {
            if skippingSequence {
                let byte = pending[index]
                if (0x20...0x3F).contains(byte) {
                    index += 1
                    continue
                }
                skippingSequence = false
                if (0x40...0x7E).contains(byte) { index += 1 }  // its final byte
                continue
            }
            if pasting {
                guard let end = find(Self.pasteEnd, from: index) else {
                    // Keep a tail that may be the start of the end marker.
                    let keep = max(index, pending.count - (Self.pasteEnd.count - 1))
                    appendPaste(pending[index..<keep])
                    index = keep
                    break
                }
                appendPaste(pending[index..<end])
                keys.append(.paste(String(decoding: paste, as: UTF8.self)))
                paste = []
                pasting = false
                index = end + Self.pasteEnd.count
                continue
            }
            guard let (key, length) = decodeOne(at: index) else { break }  // incomplete: wait for more
            index += length
            if let key { keys.append(key) }
        }
        pending.removeFirst(index)
        return keys
    }

    /// Nothing followed for a while: a lone Escape is the Escape key; the
    /// start of a sequence that did not end is dropped (`nil`).
    package mutating func flushPending() -> TerminalKey? {
        guard hasPendingEscape else { return nil }
        skippingSequence = false
        defer { pending = [] }
        return pending == [0x1B] ? .escape : nil
    }

    // MARK: - One key

    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// The key at `index` and the bytes it takes (a `nil` key for bytes that
    /// are consumed and ignored), or `nil` when the bytes end before it does.
    private mutating func decodeOne(at index: Int) -> (TerminalKey?, Int)? {
        let byte = pending[index]
        switch byte {
        case 0x1B: return decodeEscape(at: index)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(byte), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        case 0x20..<0x80: return (.text(Unicode.Scalar(byte)), 1)
        default: return decodeUTF8(at: index)
        }
    }

    private mutating func decodeEscape(at index: Int) -> (TerminalKey?, Int)? {
        guard index + 1 < pending.count else { return nil }
        let next = pending[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return decodeCSI(at: index)
        case UInt8(ascii: "O"):
            // SS3: ESC O and one final byte (application cursor keys);
            // anything else after ESC O is Alt-O and the bytes that follow.
            guard index + 2 < pending.count else { return nil }
            guard (0x40...0x7E).contains(pending[index + 2]) else { return (nil, 2) }
            return (Self.finalKey(pending[index + 2], parameters: []), 3)
        case 0x1B:
            // Escape pressed twice: the first is a key.
            return (.escape, 1)
        default:
            // Alt with a key: ignored whole, so it types nothing.
            guard let (_, length) = decodeOne(at: index + 1) else { return nil }
            return (nil, 1 + length)
        }
    }

    /// CSI: ESC [, parameter and intermediate bytes, one final byte.
    private mutating func decodeCSI(at index: Int) -> (TerminalKey?, Int)? {
        var end = index + 2
        while end < pending.count, !(0x40...0x7E).contains(pending[end]) {
            guard (0x20...0x3F).contains(pending[end]) else {
                return (nil, end - index)  // not a CSI sequence after all: drop what was read
            }
            guard end - index < Self.maxSequence else {
                skippingSequence = true  // too long to keep: drop the rest of it too
                return (nil, end - index)
            }
            end += 1
        }
        guard end < pending.count else { return nil }
        let body = pending[(index + 2)..<end]
        let parameters = body.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            .map { Int(String(decoding: $0, as: UTF8.self)) ?? 0 }
        let length = end - index + 1
        if pending[end] == UInt8(ascii: "~"), parameters.first == 200 {
            pasting = true
            paste = []
            return (nil, length)
        }
        return (Self.finalKey(pending[end], parameters: parameters), length)
    }

    private static func finalKey(_ final: UInt8, parameters: [Int]) -> TerminalKey? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "~"):
            switch parameters.first {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            default: return nil
            }
        default: return nil
        }
    }

    private func decodeUTF8(at index: Int) -> (TerminalKey?, Int)? {
        let lead = pending[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.text("\u{FFFD}"), 1)
        }
        var end = index + 1
        while end < index + length {
            guard end < pending.count else { return nil }
            guard pending[end] & 0xC0 == 0x80 else { return (.text("\u{FFFD}"), end - index) }
            end += 1
        }
        var decoded = String(decoding: pending[index..<end], as: UTF8.self).unicodeScalars
        // Overlong forms and surrogates decode as U+FFFD (String's own checks).
        let scalar = decoded.count == 1 ? decoded.removeFirst() : "\u{FFFD}"
        // A C1 control (U+0080 to U+009F) is no character typed, and no
        // key's code may be one (TerminalKey(code:)): ignored like NUL.
        if ControlCharacters.c1.matches(scalar) { return (nil, length) }
        return (.text(scalar), length)
    }

    private mutating func appendPaste(_ bytes: ArraySlice<UInt8>) {
        let room = Self.maxPaste - paste.count
        if room > 0 { paste += bytes.prefix(room) }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard pending.count >= needle.count, start <= pending.count - needle.count else { return nil }
        for offset in start...(pending.count - needle.count) where pending[offset] == needle[0] {
            if Array(pending[offset..<(offset + needle.count)]) == needle { return offset }
        }
        return nil
    }
}
