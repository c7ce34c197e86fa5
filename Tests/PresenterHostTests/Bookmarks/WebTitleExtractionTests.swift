import Foundation
@testable import HostBookmarks
import Testing

/// Finding a page's title in its bytes, and its character references.
@Suite("Get-title: title extraction and entities")
struct WebTitleExtractionTests {
    private func title(_ html: String, type: String = "text/html", complete: Bool = true) -> String? {
        TitleExtractor.title(in: Array(html.utf8), contentType: MediaType(type), complete: complete)
    }

    @Test(arguments: [
        ("<title>Plain</title>", "Plain"),
        ("<TITLE>Upper</TITLE>", "Upper"),
        ("<TiTlE>Mixed</tItLe>", "Mixed"),
        ("<title lang=\"en\" class='x'>Attributes</title>", "Attributes"),
        ("<title data-x=\"a>b\" data-y='c>d' e=f>Quoted greater-than</title>", "Quoted greater-than"),
        ("<title\n>Newline in the tag</title >", "Newline in the tag"),
        ("<title/>Self-closing is still a start tag</title>", "Self-closing is still a start tag"),
        ("<title>  Lots \t of\n\n white\r\n space  </title>", "Lots of white space"),
        ("<title>A<b>tags are text</b></title>", "A<b>tags are text</b>"),
        ("<title>First</title><title>Second</title>", "First"),
        ("<html><body><title>In the body</title>", "In the body"),
        ("<title>Never closed, to the end", "Never closed, to the end"),
        ("<title>Ends at </title2> no: </title\t>", "Ends at </title2> no:"),
        ("<titles>not it</titles><title>it</title>", "it"),
    ])
    func theFirstTitleElementsTextOnOneLine(html: String, expected: String) {
        #expect(title(html) == expected)
    }

    @Test(arguments: [
        "<!-- <title>in a comment</title> --><title>real</title>",
        "<!--><title>real</title>",
        "<!---><title>real</title>",
        "<script>document.title = '<title>x</title>'</script><title>real</title>",
        "<SCRIPT type=text/javascript>var a = '</scripty><title>x</title>';</SCRIPT ><title>real</title>",
        "<style>/* <title>x</title> */</style><title>real</title>",
        "<svg><title>icon</title></svg><title>real</title>",
        "<template><title>inert</title></template><title>real</title>",
        "<textarea><title>typed</title></textarea><title>real</title>",
        "<!DOCTYPE html><?xml x?><title>real</title>",
        "a < b and c <> d <title>real</title>",
    ])
    func titlesThatAreNotThePagesAreSkipped(html: String) {
        #expect(title(html) == "real")
    }

    @Test func noTitleElementIsNil() {
        #expect(title("<html><head></head><body>no title</body></html>") == nil)
        #expect(title("<!-- <title>x</title>") == nil)  // an unended comment runs to the end
        #expect(title("<plaintext><title>text</title>") == nil)
        #expect(title("") == nil)
    }

    @Test func anEmptyTitleIsEmpty() {
        #expect(title("<title></title>") == "")
        #expect(title("<title> \n\t </title>") == "")
    }

    @Test func anIncompletePageHasATitleOnlyOnceItsElementEnded() {
        #expect(title("<title>Cut sh", complete: false) == nil)
        #expect(title("<title>Whole</title><p>cut sh", complete: false) == "Whole")
    }

    @Test func controlCharactersAreDroppedAndWhiteSpaceCollapsed() {
        #expect(title("<title>a\u{1B}[31mred\u{7}\u{7F}\u{85} b</title>") == "a[31mred b")
        #expect(title("<title>tab&#9;and&#10;line</title>") == "tab and line")
        #expect(title("<title>esc&#27;[2J</title>") == "esc[2J")
        // No-break spaces are not HTML white space: kept.
        #expect(title("<title>a\u{A0}\u{A0}b</title>") == "a\u{A0}\u{A0}b")
    }

    @Test func aLongTitleIsCutAtTheLimit() {
        let long = String(repeating: "x", count: TitleExtractor.maxTitleBytes + 100)
        #expect(title("<title>\(long)</title>")?.count == TitleExtractor.maxTitleBytes)
    }

    @Test func aUTF16PageIsFoundThroughItsByteOrderMark() {
        for bigEndian in [false, true] {
            let units = Array("<title>Ünïcode 16 😀</title>".utf16)
            var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            for unit in units {
                bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            #expect(
                TitleExtractor.title(in: bytes, contentType: MediaType("text/html"), complete: true)
                    == "Ünïcode 16 😀")
        }
    }

    // MARK: - Entities

    @Test(arguments: [
        ("&amp; &lt; &gt; &quot; &apos;", "& < > \" '"),
        ("caf&eacute; &Eacute;t&eacute;", "café Été"),
        ("&copy; &reg; &trade; &euro; &hellip; &mdash; &ndash; &nbsp;", "© ® ™ € … — – \u{A0}"),
        ("&alpha;&Omega; &rarr; &hearts;", "αΩ → ♥"),
        ("&#65;&#x42;&#X43;&#0068;", "ABCD"),
        ("&#x1F600; &#128512;", "😀 😀"),
        ("&#65 &#x42 no semicolons", "A B no semicolons"),
        ("&#150; &#x80; &#x9F;", "– € Ÿ"),  // as windows-1252
        ("&#x81;", "\u{81}"),  // one of the five it leaves undefined
        ("&#0; &#xD800; &#x110000; &#99999999999999999999;", "\u{FFFD} \u{FFFD} \u{FFFD} \u{FFFD}"),
        ("&copy 2024 AT&amp T &ampx", "© 2024 AT& T &x"),
        ("&notit; &notin;", "¬it; ∉"),
        ("&trade without its semicolon", "&trade without its semicolon"),  // not a Latin-1 name
        ("&unknown; &; & &# &#x; &#xZ", "&unknown; &; & &# &#x; &#xZ"),
        ("&EACUTE; &Amp;", "&EACUTE; &Amp;"),  // names are case-sensitive
        ("trailing &", "trailing &"),
    ])
    func entitiesAreDecodedAsABrowserDecodesThem(text: String, expected: String) {
        #expect(HTMLEntities.decode(text) == expected)
    }

    @Test func theTableHasHTML4sNamesAndApos() {
        #expect(HTMLEntityTable.codePoints.count == 253)
        #expect(HTMLEntityTable.codePoints["zwj"] == 0x200D && HTMLEntityTable.codePoints["yuml"] == 0xFF)
        #expect(HTMLEntityTable.takesNoSemicolon("eacute") && HTMLEntityTable.takesNoSemicolon("amp"))
        #expect(!HTMLEntityTable.takesNoSemicolon("hellip"))
    }
}
