/// Measures text in terminal display columns and cuts it to fit.
///
/// A grapheme cluster (one `Character`) is the unit: East Asian wide and
/// fullwidth characters and emoji take two columns; combining marks, format
/// characters (zero-width joiner, ...) and controls take none; everything
/// else one. An emoji cluster counts two however many scalars it holds
/// (flags, skin tones, ZWJ families, a text symbol with U+FE0F).
public enum DisplayWidth {
    /// The ellipsis that ends cut text on a Unicode view.
    public static let unicodeEllipsis = "…"
    /// The ellipsis that ends cut text on an ASCII-only view.
    public static let asciiEllipsis = "..."

    /// The width of `text` in columns.
    public static func of(_ text: String) -> Int {
        // Printable ASCII, most text (a listing of a thousand plugins): one column a byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The width of one grapheme cluster in columns (0, 1 or 2).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }  // ASCII (a CR LF cluster is a control)
        if scalars.count > 1 {
            // U+FE0F asks for the emoji presentation, U+FE0E for the text one.
            if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
            if scalars.contains(where: { $0.value == 0xFE0E }) { return isWide(first) ? 2 : baseWidth(first) }
        }
        return of(first)
    }

    /// The width of one scalar on its own in columns (0, 1 or 2).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        // Box drawing, block elements and Braille: borders, bars and
        // spinners, the commonest cells of a frame past ASCII; one column
        // each (symbols, none wide or an emoji), without a property lookup.
        if (0x2500...0x259F).contains(scalar.value) || (0x2800...0x28FF).contains(scalar.value) { return 1 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return baseWidth(scalar)
    }

    /// `text` as lines of at most `columns` columns: broken at spaces (the
    /// space that breaks a line is dropped), a word wider than a line broken
    /// between its characters. Empty text is one empty line.
    public static func wrap(_ text: String, toColumns columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        var line = "", used = 0
        func flush() {
            lines.append(line)
            (line, used) = ("", 0)
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let width = of(String(word))
            if used > 0 && used + 1 + width <= columns {
                line += " " + word
                used += 1 + width
                continue
            }
            if used > 0 { flush() }
            // The word starts a line; one wider than a line is cut.
            for character in word {
                let characterWidth = of(character)
                if used + characterWidth > columns && used > 0 { flush() }
                line.append(character)
                used += characterWidth
            }
        }
        flush()
        return lines
    }

    /// `text` cut to at most `columns` columns: unchanged when it fits, else
    /// the longest prefix that leaves room for `ellipsis`, followed by it.
    /// When even the ellipsis does not fit, as much of it as fits.
    public static func truncate(_ text: String, toColumns columns: Int, ellipsis: String = unicodeEllipsis) -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return text }
        let room = columns - of(ellipsis)
        if room < 0 { return truncate(ellipsis, toColumns: columns, ellipsis: "") }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > room { break }
            result.append(character)
            used += width
        }
        return result + ellipsis
    }

    private static func baseWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if ControlCharacters.terminal.matches(scalar) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // Hangul medial vowels and final consonants join the syllable.
        if (0x1160...0x11FF).contains(value) { return 0 }
        return isWide(scalar) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F,
    /// by block; emoji are found through their Emoji_Presentation property).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18AFF,
        0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(value) }
    }
}

extension String {
    /// The text followed by spaces up to `columns` display columns (for
    /// tables whose columns line up on screen).
    package func padded(toColumns columns: Int) -> String {
        self + String(repeating: " ", count: max(0, columns - DisplayWidth.of(self)))
    }
}
