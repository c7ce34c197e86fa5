import Foundation
@testable import HostBookmarks
import Testing

/// Which charset a page is read in, and decoding in it.
@Suite("Get-title: charsets")
struct WebTitleCharsetTests {
    /// One sample per family of labels: a label, bytes in that encoding
    /// (made by Python's codecs, which the loopback tests also use), and the text.
    @Test(
        arguments: [
            ("UTF-8", [0x63, 0x61, 0x66, 0xC3, 0xA9], "café"),
            ("windows-1252", [0x93, 0x68, 0x69, 0x94, 0x20, 0x80], "“hi” €"),
            ("ISO-8859-1", [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94], "“Café”"),  // read as windows-1252, as browsers do
            ("us-ascii", [0x41, 0x96, 0x42], "A–B"),
            ("iso-8859-2", [0xA3, 0xF3, 0x64, 0xBC], "Łódź"),
            ("windows-1250", [0x8A, 0x6B, 0x6F, 0x64, 0x61], "Škoda"),
            ("windows-1251", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
            ("koi8-r", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
            ("koi8-u", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4, 0xA6], "Приветі"),
            ("iso-8859-15", [0xA4, 0x20, 0xBD], "€ œ"),
            ("windows-1253", [0xE1, 0xE2, 0xE3], "αβγ"),
            ("iso-8859-9", [0xD0, 0xFD, 0xDE], "ĞıŞ"),  // windows-1254
            ("Shift_JIS", [0x93, 0xFA, 0x96, 0x7B], "日本"),
            ("gbk", [0xD6, 0xD0, 0xCE, 0xC4], "中文"),
            ("gb2312", [0xD6, 0xD0, 0xCE, 0xC4], "中文"),
            ("big5", [0xA4, 0xA4, 0xA4, 0xE5], "中文"),
            ("euc-kr", [0xC7, 0xD1, 0xB1, 0xDB], "한글"),
            ("utf-16le", [0x41, 0x00, 0xE9, 0x00], "Aé"),
            ("UTF-16BE", [0x00, 0x41, 0x00, 0xE9], "Aé"),
        ] as [(String, [UInt8], String)])
    func eachLabelDecodesItsEncoding(label: String, bytes: [UInt8], text: String) throws {
        let charset = try #require(Charset(label: label), "\(label) is not known")
        #expect(charset.decode(bytes[...]) == text)
    }

    @Test func labelsAreTrimmedAndOfAnyCase() {
        #expect(Charset(label: "  Utf-8 \t") == .utf8)
        #expect(Charset(label: "LATIN1") == .windows1252)
        #expect(Charset(label: "x-no-such-charset") == nil)
        #expect(Charset(label: "euc-jp") == nil && Charset(label: "macintosh") == nil)
        #expect(Charset(label: "") == nil)
    }

    @Test func bytesThatMeanNothingBecomeReplacementCharacters() {
        #expect(Charset.utf8.decode([0x61, 0xFF, 0x62][...]) == "a\u{FFFD}b")
        // Shift_JIS: a lead byte without a valid second byte, between good characters.
        #expect(Charset(label: "shift_jis")!.decode([0x93, 0xFA, 0x93, 0x20, 0x41][...]) == "日\u{FFFD} A")
        // UTF-16: a lone surrogate, an odd last byte.
        #expect(Charset.utf16(bigEndian: false).decode([0x00, 0xD8, 0x41, 0x00, 0x42][...]) == "\u{FFFD}A\u{FFFD}")
        // windows-1252 decodes every byte.
        #expect(Charset.windows1252.decode((0...255).map { UInt8($0) }[...]).unicodeScalars.count == 256)
    }

    // MARK: - Which one

    private func sniff(_ page: String, _ contentType: String = "text/html") -> Charset {
        Charset.sniff(Array(page.utf8)[...], contentType: MediaType(contentType)).charset
    }

    @Test func theContentTypeHeaderComesFirst() {
        #expect(sniff("<meta charset=koi8-r>", "text/html; charset=windows-1251") == Charset(label: "windows-1251"))
        #expect(sniff("", "text/html;charset=\"ISO-8859-2\"") == Charset(label: "iso-8859-2"))
    }

    @Test func anUnknownHeaderCharsetFallsToTheMetaTag() {
        #expect(sniff("<meta charset=koi8-r>", "text/html; charset=x-klingon") == Charset(label: "koi8-r"))
    }

    @Test func aByteOrderMarkWinsOverEverything() {
        let page: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<meta charset=koi8-r>".utf8)
        let (charset, start) = Charset.sniff(page[...], contentType: MediaType("text/html; charset=big5"))
        #expect(charset == .utf8 && start == 3)
        #expect(Charset.sniff([0xFE, 0xFF, 0, 0x41][...], contentType: MediaType("")) == (.utf16(bigEndian: true), 2))
    }

    @Test(arguments: [
        ("<meta charset=\"koi8-r\">", "koi8-r"),
        ("<META CHARSET='Shift_JIS'/>", "shift_jis"),
        ("<meta name=x charset=big5 >", "big5"),
        ("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=euc-kr\">", "euc-kr"),
        ("<meta content='text/html;charset = \"gbk\"' http-equiv='content-type'>", "gbk"),
        ("<meta charset=unknown-thing><meta charset=windows-1250>", "windows-1250"),
        ("<!-- <meta charset=koi8-r> --><meta charset=iso-8859-2>", "iso-8859-2"),
        ("<meta data-x=\"<meta charset=koi8-r>\" charset=big5>", "big5"),
    ])
    func aMetaTagDeclaresTheCharset(page: String, label: String) {
        #expect(sniff(page) == Charset(label: label))
    }

    @Test func aMetaThatSaysUTF16MeansUTF8() {
        #expect(sniff("<meta charset=utf-16le>") == .utf8)
    }

    @Test func onlyTheFirst1024BytesAreSearchedForAMetaTag() {
        let padding = String(repeating: " ", count: Charset.prescanLength - "<meta charset=koi8-r>".count)
        #expect(sniff(padding + "<meta charset=koi8-r>") == Charset(label: "koi8-r"))
        #expect(sniff(padding + " <meta charset=koi8-r>") == .utf8)
    }

    @Test func aMetaWithoutACharsetOrAnHttpEquivWithoutOneIsNone() {
        #expect(sniff("<meta name=description content=\"charset=koi8-r\">") == .utf8)
        #expect(sniff("<meta http-equiv=refresh content=\"5; charset=koi8-r\">") == .utf8)
        #expect(sniff("<meta http-equiv=content-type content=\"text/html\">") == .utf8)
    }

    @Test(
        arguments: [
            ("text/html; charset=utf-8", "utf-8"),
            ("charset=koi8-r", "koi8-r"),
            ("text/html; CHARSET = 'big5' ", "big5"),
            ("text/html;charset=\"gbk\"; x=y", "gbk"),
            ("x; charset=  euc-kr  ;", "euc-kr"),
            ("text/html; charsetx=1; charset=a", "a"),
            ("text/html;charset", nil),
            ("text/html; charset=", nil),
            ("text/html; charset=\"unended", nil),
        ] as [(String, String?)])
    func theCharsetOfAMetaContent(content: String, expected: String?) {
        #expect(Charset.charsetInMetaContent(content) == expected)
    }

    @Test func aContentTypeHeaderIsParsed() {
        let type = MediaType(" Text/HTML ; foo=bar; Charset=\"ISO-8859-1\"; charset=utf-8")
        #expect(type.essence == "text/html" && type.charset == "ISO-8859-1")
        #expect(MediaType("application/xhtml+xml").isHTML && MediaType("").isHTML && MediaType("text/html").isHTML)
        #expect(!MediaType("application/json").isHTML && !MediaType("text/plain; charset=utf-8").isHTML)
        #expect(MediaType("text/html").charset == nil)
    }
}
