@testable import HostText
@testable import HostEngine
@testable import HostBookmarks
import Testing

/// The one control-character policy: each named rule matches exactly its
/// characters, at both ends of each range, and the filters that use it.
@Suite("Text: control characters")
struct ControlCharactersTests {
    /// Characters around each range's ends, and the rule each belongs to.
    static let boundaries: [(UInt32, ControlCharacters)] = [
        (0x00, .c0), (0x09, .c0), (0x0A, .c0), (0x1B, .c0), (0x1F, .c0),
        (0x20, []), (0x7E, []), (0x7F, .delete),
        (0x80, .c1), (0x85, .c1), (0x9B, .c1), (0x9F, .c1), (0xA0, []), (0xAC, []), (0xAD, .format), (0xE9, []),
        (0x061B, []), (0x061C, .layout), (0x200A, []), (0x200B, .format), (0x200D, .format), (0x200E, .layout),
        (0x200F, .layout), (0x2027, []), (0x2028, .layout), (0x2029, .layout), (0x202A, .layout), (0x202E, .layout),
        (0x202F, []), (0x205F, []), (0x2060, .format), (0x2064, .format), (0x2065, []), (0x2066, .layout),
        (0x2069, .layout), (0x206A, .format), (0xFE0F, []), (0xFEFF, .format), (0xFFFD, []), (0x1F600, []),
        (0xE0001, .format), (0xE007F, .format),
    ]

    @Test(arguments: boundaries)
    func eachCharacterFallsUnderItsRuleOnly(_ value: UInt32, _ rule: ControlCharacters) throws {
        let scalar = try #require(Unicode.Scalar(value))
        for single: ControlCharacters in [.c0, .delete, .c1, .layout, .format] {
            #expect(single.matches(scalar) == (single == rule), "U+\(String(value, radix: 16)) and \(single.rawValue)")
        }
        #expect(ControlCharacters.ascii.matches(scalar) == (rule == .c0 || rule == .delete))
        #expect(ControlCharacters.terminal.matches(scalar) == (rule == .c0 || rule == .delete || rule == .c1))
        #expect(ControlCharacters.all.matches(scalar) == (!rule.isEmpty && rule != .format))
        #expect(ControlCharacters.escaped.matches(scalar) == !rule.isEmpty)
        #expect(!ControlCharacters().matches(scalar))
    }

    @Test func removedDropsOnlyWhatTheRulesName() {
        let text = "a\u{1B}[31mb\u{7F}c\u{9B}d\u{202E}e\r\nf é"
        #expect(ControlCharacters.ascii.removed(from: text) == "a[31mbc\u{9B}d\u{202E}ef é")
        #expect(ControlCharacters.terminal.removed(from: text) == "a[31mbcd\u{202E}ef é")
        #expect(ControlCharacters.all.removed(from: text) == "a[31mbcdef é")
        #expect(ControlCharacters.all.removed(from: "plain é") == "plain é")
    }

    @Test func printableTextEscapesEveryRule() {
        #expect(PrintableText.escaping("a\nb\u{7F}c\u{9B}d\u{202E}e\\f") == "a\\nb\\x7Fc\\x9Bd\\u{202E}e\\f")
        #expect(
            PrintableText.escaping("mb\u{200B}hud\u{AD}\u{FEFF}\u{E0001}") == "mb\\u{200B}hud\\xAD\\u{FEFF}\\u{E0001}")
        #expect(PrintableText.escaping("plain é 日本 🚀 \u{FFFD}") == "plain é 日本 🚀 \u{FFFD}")
    }

    @Test func printableTextEscapedOnceIsEscapedForGood() {
        let hostile = "\u{1B}]52;c;aGk=\u{7}\u{1B}[2J\u{9B}31m\u{202E}\u{2066}x\u{200D}\\x1B"
        let once = PrintableText.escaping(hostile)
        #expect(once == "\\x1B]52;c;aGk=\\x07\\x1B[2J\\x9B31m\\u{202E}\\u{2066}x\\u{200D}\\x1B")
        #expect(PrintableText.escaping(once) == once)
        #expect(!once.unicodeScalars.contains { ControlCharacters.escaped.matches($0) })
    }

    @Test func bytesThatAreNotUTF8AreShownAsHex() {
        #expect(PrintableText.escapingInvalidUTF8(Array("lib".utf8) + [0xFF] + Array(".so".utf8)) == "lib\\xFF.so")
        // A lead byte cut short, an overlong form, a lone surrogate: each bad byte shown, nothing dropped.
        #expect(
            PrintableText.escapingInvalidUTF8([0xC3, 0x28, 0xC0, 0xAF, 0xED, 0xA0, 0x80])
                == "\\xC3(\\xC0\\xAF\\xED\\xA0\\x80")
        #expect(PrintableText.escapingInvalidUTF8(Array("é日🚀\u{1B}".utf8)) == "é日🚀\u{1B}")
        #expect(PrintableText.escapingInvalidUTF8([UInt8]()) == "")
    }

    @Test func aPluginLogLineEscapesWhatItHolds() {
        // Before the one policy, a log line dropped C0 and DEL only: a
        // plugin's C1 CSI (U+009B) or right-to-left override reached the
        // terminal. Then it dropped them; now it shows them, as --log does.
        let entry = PresenterLogEntry(
            level: .warning, presenterId: "p\u{1B}]0;x\u{7}",
            message: "red \u{9B}31m\u{1B}[0m\u{202E}txet\u{2028}end\u{7F}\u{200B}")
        #expect(
            entry.line
                == "presenter-host: p\\x1B]0;x\\x07: warning: red \\x9B31m\\x1B[0m\\u{202E}txet\\u{2028}end\\x7F\\u{200B}"
        )
    }

    @Test func aJSONStringEscapesControlAndBidiCharacters() throws {
        // RFC 8259 asks for C0; C1 and bidi characters are escaped too, as
        // every JSON of the host writes them (a terminal that shows the
        // file must not act on them), and read back as they came.
        var document = BookmarkDocument()
        _ = document.add(
            Bookmark(url: "https://x", title: "a\u{1}b\u{7F}c\u{85}d\u{200F}e"), added: "2026-01-01T00:00:00Z")
        let bytes = document.encoded()
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""title": "a\u0001b\u007fc\u0085d\u200fe""#))
        #expect(try BookmarkDocument.parse(bytes, path: "s") == document)
    }
}
