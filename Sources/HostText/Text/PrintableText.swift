/// Text from the file system or from a plugin, made safe for one line of a
/// terminal: a file name may hold a newline or an escape sequence, a
/// plugin's name a title or clipboard sequence (OSC 0, OSC 52), and an
/// error line must stay one line that shows what is really there.
///
/// The one cleaner of text the host did not write, wherever it is shown or
/// written as text (tables, `-v`, errors, `check`, logs, traces): the
/// characters of the ``ControlCharacters/escaped`` rule (C0, DEL, C1, bidi
/// overrides and isolates, zero-width and other format characters) become
/// escapes, and so do bytes that are not UTF-8 (``escapingInvalidUTF8(_:)``).
/// JSON escapes the same characters its own way (`JSONValue`).
package enum PrintableText {
    /// `text` with the characters of the ``ControlCharacters/escaped`` rule
    /// written as escapes: controls as `\n`, `\t`, `\x1B`, `\x9B`, the
    /// others as `\u{202E}`, `\u{200B}`; other characters, backslashes
    /// included, are unchanged. Escaping twice changes nothing more.
    package static func escaping(_ text: String) -> String {
        let escaped = ControlCharacters.escaped
        guard text.unicodeScalars.contains(where: escaped.matches) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x100 && escaped.matches(scalar):
                result += "\\x" + hex(scalar.value, digits: 2)
            case _ where escaped.matches(scalar):
                result += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `bytes` as text, each byte that is not part of valid UTF-8 written
    /// as `\xNN` and everything else as it is: a file name no String can
    /// hold, kept for messages (``escaping(_:)`` does the rest where it is
    /// shown; a name like this is never opened by this text).
    package static func escapingInvalidUTF8(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var text = ""
        var position = 0
        while position < bytes.count {
            // A parser of its own for each scalar: one that errs has read
            // ahead, and the bytes it read are shown, not dropped.
            var parser = Unicode.UTF8.ForwardParser()
            var input = bytes[position...].makeIterator()
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<position + length] { text += "\\x" + hex(UInt32(byte), digits: 2) }
                position += length
            case .emptyInput:
                return text
            }
        }
        return text
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
