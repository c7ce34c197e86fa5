/// Character references in text, decoded as a browser decodes them in a
/// title: `&amp;` and the other names of ``HTMLEntityTable``, decimal
/// `&#233;` and hex `&#xE9;` (the `;` optional), the Latin-1 names also
/// without their `;`. What is not a reference stays as written.
enum HTMLEntities {
    /// The longest name looked up; HTML's longest is 32 letters.
    private static let maxNameLength = 32

    /// `text` with its character references replaced.
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "&", index + 1 < scalars.count else {
                result.append(scalar)
                index += 1
                continue
            }
            if scalars[index + 1] == "#", let (value, next) = numeric(scalars, at: index + 2) {
                result.append(value)
                index = next
            } else if let (value, next) = named(scalars, at: index + 1) {
                result.append(value)
                index = next
            } else {
                result.append(scalar)
                index += 1
            }
        }
        return String(result)
    }

    /// `&#...` from just after the `#`: the character and the index after
    /// the reference, or nil when no digit follows.
    private static func numeric(_ scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        var index = start
        var radix: UInt32 = 10
        if index < scalars.count && (scalars[index] == "x" || scalars[index] == "X") {
            radix = 16
            index += 1
        }
        let digitsStart = index
        var value: UInt32 = 0
        while index < scalars.count, let digit = Character(scalars[index]).hexDigitValue, UInt32(digit) < radix {
            // Saturates: anything past U+10FFFF is replaced all the same.
            value = min(value &* radix &+ UInt32(digit), 0x11_0000)
            index += 1
        }
        guard index > digitsStart else { return nil }
        if index < scalars.count && scalars[index] == ";" { index += 1 }
        return (character(for: value), index)
    }

    /// The character a numeric reference stands for, as HTML says: NUL,
    /// surrogates and values past Unicode become U+FFFD; 0x80 to 0x9F are
    /// read as windows-1252, as pages written on Windows meant them.
    private static func character(for value: UInt32) -> Unicode.Scalar {
        if (0x80...0x9F).contains(value) { return Charset.windows1252(UInt8(value)) }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    /// `&name;` from just after the `&`: the character and the index after
    /// the reference, or nil when no known name is there.
    private static func named(_ scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        var end = start
        while end < scalars.count && end - start < maxNameLength && isASCIILetterOrDigit(scalars[end]) {
            end += 1
        }
        guard end > start else { return nil }
        let name = String(String.UnicodeScalarView(scalars[start..<end]))
        if end < scalars.count, scalars[end] == ";", let value = HTMLEntityTable.codePoints[name] {
            return (Unicode.Scalar(value)!, end + 1)
        }
        // Without its ";", the longest name a browser takes so (`&copy2024`).
        for length in stride(from: name.unicodeScalars.count, through: 2, by: -1) {
            let prefix = String(String.UnicodeScalarView(scalars[start..<start + length]))
            if HTMLEntityTable.takesNoSemicolon(prefix), let value = HTMLEntityTable.codePoints[prefix] {
                return (Unicode.Scalar(value)!, start + length)
            }
        }
        return nil
    }

    private static func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
    }
}
