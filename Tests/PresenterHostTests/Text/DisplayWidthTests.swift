import HostText
import Testing

@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test(
        "columns of ASCII, CJK, fullwidth, Hangul",
        arguments: [
            ("hello", 5), ("日本語", 6), ("Ａ", 2), ("한국어", 6), ("a日b", 4), ("", 0), ("\u{3000}", 2),
        ])
    func wide(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test("box drawing, block elements and Braille take one column each (they skip the property lookup)")
    func framesGlyphs() {
        for value in Array(0x2500...0x259F) + Array(0x2800...0x28FF) {
            let scalar = Unicode.Scalar(UInt32(value))!
            #expect(DisplayWidth.of(scalar) == 1, "U+\(String(value, radix: 16, uppercase: true))")
            #expect(!scalar.properties.isEmojiPresentation && scalar.properties.generalCategory == .otherSymbol)
        }
        #expect(DisplayWidth.of("╭──╮ █░ ⠋⣿") == 10)
    }

    @Test(
        "emoji count two however many scalars they hold",
        arguments: [
            "😀", "👍🏽", "🇫🇷", "👨‍👩‍👧", "❤️", "✅", "⌛",
        ])
    func emoji(text: String) {
        #expect(DisplayWidth.of(text) == 2)
    }

    @Test(
        "combining marks, format characters and controls take no column",
        arguments: [
            ("e\u{301}", 1), ("\u{200B}", 0), ("a\u{200D}b", 2), ("\u{1B}", 0), ("\t", 0), ("x\u{20DD}", 1),
            ("❤", 1), ("❤\u{FE0E}", 1), ("⠋", 1), ("…", 1),
        ])
    func narrow(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test("truncate cuts to the column count with an ellipsis")
    func truncate() {
        #expect(DisplayWidth.truncate("Hello world", toColumns: 8) == "Hello w…")
        #expect(DisplayWidth.truncate("Hello world", toColumns: 11) == "Hello world")
        #expect(DisplayWidth.truncate("Hello world", toColumns: 8, ellipsis: "...") == "Hello...")
        #expect(DisplayWidth.truncate("日本語テキスト", toColumns: 7) == "日本語…")
        #expect(DisplayWidth.truncate("日本語テキスト", toColumns: 6) == "日本…")
        #expect(DisplayWidth.truncate("😀😀😀", toColumns: 4) == "😀…")
        #expect(DisplayWidth.truncate("abcdef", toColumns: 2, ellipsis: "...") == "..")
        #expect(DisplayWidth.truncate("abcdef", toColumns: 0) == "")
        for columns in 0...15 {
            #expect(DisplayWidth.of(DisplayWidth.truncate("日本語 and 😀 text", toColumns: columns)) <= columns)
        }
    }
}
