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
        (0x80, .c1), (0x85, .c1), (0x9B, .c1), (0x9F, .c1), (0xA0, []), (0xE9, []),
        (0x061B, []), (0x061C, .layout), (0x200D, []), (0x200E, .layout), (0x200F, .layout),
        (0x2027, []), (0x2028, .layout), (0x2029, .layout), (0x202A, .layout), (0x202E, .layout),
        (0x202F, []), (0x2065, []), (0x2066, .layout), (0x2069, .layout), (0x206A, []),
        (0x1F600, []),
    ]

    @Test(arguments: boundaries)
    func eachCharacterFallsUnderItsRuleOnly(_ value: UInt32, _ rule: ControlCharacters) throws {
        let scalar = try #require(Unicode.Scalar(value))
        for single: ControlCharacters in [.c0, .delete, .c1, .layout] {
            #expect(single.matches(scalar) == (single == rule), "U+\(String(value, radix: 16)) and \(single.rawValue)")
        }
        #expect(ControlCharacters.ascii.matches(scalar) == (rule == .c0 || rule == .delete))
        #expect(ControlCharacters.terminal.matches(scalar) == (rule == .c0 || rule == .delete || rule == .c1))
        #expect(ControlCharacters.all.matches(scalar) == !rule.isEmpty)
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
        #expect(PrintableText.escaping("plain é") == "plain é")
    }

    @Test func aPluginLogLineDropsC1AndLayoutCharactersToo() {
        // Before the one policy, a log line dropped C0 and DEL only: a
        // plugin's C1 CSI (U+009B) or right-to-left override reached the terminal.
        let entry = PresenterLogEntry(
            level: .warning, presenterId: "p", message: "red \u{9B}31m\u{1B}[0m\u{202E}txet\u{2028}end\u{7F}")
        #expect(entry.line == "presenter-host: p: warning: red 31m[0mtxetend")
    }

    @Test func aJSONStringEscapesASCIIControlsOnly() throws {
        // RFC 8259 asks for C0; C1 and layout characters are kept as they came.
        var document = BookmarkDocument()
        _ = document.add(
            Bookmark(url: "https://x", title: "a\u{1}b\u{7F}c\u{85}d\u{200F}e"), added: "2026-01-01T00:00:00Z")
        let bytes = document.encoded()
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""title": "a\u0001b\u007fc\#u{85}d\#u{200F}e""#))
        #expect(try BookmarkDocument.parse(bytes, path: "s") == document)
    }
}
