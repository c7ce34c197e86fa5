/// The host's one control-character policy: the characters that text from
/// a plugin, a file, a command or the web must not carry as they are onto
/// a terminal or into a one-line record, as named rules a filter picks from.
///
/// Every filter in the host says which rule it applies; the common ones:
/// ``terminal`` (what a terminal acts on: C0, DEL and C1), ``ascii`` (C0
/// and DEL, for line-based protocols and JSON), ``all`` (the terminal's
/// plus the invisible characters that reorder or break a line: what a
/// descriptor may not hold and a drawing drops) and ``escaped`` (``all``
/// and the other invisible format characters: what `PrintableText` shows
/// as escapes wherever text the host did not write is shown or written).
package struct ControlCharacters: OptionSet, Sendable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// C0: U+0000 to U+001F (NUL, tab, line feed, carriage return, escape...).
    static let c0 = ControlCharacters(rawValue: 1 << 0)
    /// DEL: U+007F.
    static let delete = ControlCharacters(rawValue: 1 << 1)
    /// C1: U+0080 to U+009F (a terminal may act on U+009B as on ESC [).
    package static let c1 = ControlCharacters(rawValue: 1 << 2)
    /// Bidirectional formatting (U+061C, U+200E, U+200F, U+202A to U+202E,
    /// U+2066 to U+2069) and the Unicode line and paragraph separators
    /// (U+2028, U+2029): invisible, they make a line read differently from
    /// what it holds.
    static let layout = ControlCharacters(rawValue: 1 << 3)
    /// The other format characters (Unicode general category Cf): the
    /// zero-width space, non-joiner and joiner (U+200B to U+200D), the word
    /// joiner and invisible operators (U+2060 to U+2064), the byte order
    /// mark (U+FEFF), the soft hyphen (U+00AD), tags (U+E0001, U+E0020 to
    /// U+E007F)... Invisible, they make two texts that read the same differ
    /// (`mbhud` and `mb\u{200B}hud`). Not in ``all``: a drawing keeps an
    /// emoji's joiner, and a descriptor may hold one; they are escaped when
    /// shown (``escaped``).
    static let format = ControlCharacters(rawValue: 1 << 4)

    /// ASCII's controls, C0 and DEL: what a line-based protocol or a JSON
    /// string cannot hold as they are.
    package static let ascii: ControlCharacters = [.c0, .delete]
    /// Everything a terminal may act on: C0, DEL and C1.
    package static let terminal: ControlCharacters = [.c0, .delete, .c1]
    /// Every rule: the terminal's controls and the layout characters.
    package static let all: ControlCharacters = [.c0, .delete, .c1, .layout]
    /// What `PrintableText` escapes: every rule, the format characters
    /// included, so that what a user reads is what the text holds.
    package static let escaped: ControlCharacters = [.c0, .delete, .c1, .layout, .format]

    /// True when `scalar` falls under one of these rules.
    package func matches(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20: return contains(.c0)
        case 0x7F: return contains(.delete)
        case 0x80...0x9F: return contains(.c1)
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return contains(.layout)
        case 0..<0xA0: return false
        // The category is looked up only for a rule that asks, past Latin-1's controls.
        default: return contains(.format) && scalar.properties.generalCategory == .format
        }
    }

    /// `text` without the characters these rules name.
    package func removed(from text: String) -> String {
        guard text.unicodeScalars.contains(where: matches) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !matches($0) }))
    }
}
