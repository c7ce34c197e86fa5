@testable import HostText

/// Text a hostile plugin puts where a name or an id goes, and what the host
/// must show instead: issue 30's title change, clipboard write and cleared
/// screen, a C1 CSI, a right-to-left override and isolate, and invisible
/// characters.
enum HostileText {
    /// OSC 0 (title), OSC 52 (clipboard write), CSI 2J (clear), C1 CSI
    /// (U+009B), U+202E and U+2066, a zero-width space and a byte order mark.
    static let sample =
        "T\u{1B}]0;OWNED\u{07}\u{1B}]52;c;aGk=\u{07}\u{1B}[2J\u{9B}31m\u{202E}\u{2066}z\u{200B}w\u{FEFF}"

    /// `sample` as `PrintableText` shows it.
    static let shown =
        #"T\x1B]0;OWNED\x07\x1B]52;c;aGk=\x07\x1B[2J\x9B31m\u{202E}\u{2066}z\u{200B}w\u{FEFF}"#

    /// The characters of `text` that a terminal acts on or a reader does
    /// not see (``ControlCharacters/escaped``), line feeds aside: what no
    /// output of the host may hold of a plugin's text.
    static func unshown(in text: String) -> [String] {
        text.unicodeScalars.filter { $0 != "\n" && ControlCharacters.escaped.matches($0) }
            .map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }
}
