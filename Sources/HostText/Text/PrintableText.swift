/// Text from the file system or from a plugin, made safe for one line of a
/// terminal: a file name may hold a newline or an escape sequence, and an
/// error line must stay one line that shows what is really there.
package enum PrintableText {
    /// `text` with the characters of every ``ControlCharacters`` rule
    /// written as escapes: controls as `\n`, `\t`, `\x1B`, layout
    /// characters as `\u{202E}`; other characters, backslashes included,
    /// are unchanged.
    package static func escaping(_ text: String) -> String {
        let escaped = ControlCharacters.all
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

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
