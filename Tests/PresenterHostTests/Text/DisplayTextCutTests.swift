@testable import HostText
import Testing

/// A message is cut where it is read (``DisplayText/message(_:)``): at
/// most 4 KiB of UTF-8 with its `…`, between two characters, then cleaned.
@Suite("Text: display text, cut")
struct DisplayTextCutTests {
    @Test func aShortMessageIsUnchanged() {
        #expect(DisplayText.cut("Building", toBytes: 8) == "Building")
        #expect(DisplayText.message("\u{1B}[1mBuilding\u{1B}[m") == "Building")
    }

    @Test func aLongMessageEndsInAnEllipsisWithinTheLimit() {
        let cut = DisplayText.message(String(repeating: "x", count: 100_000))
        #expect(cut.utf8.count == DisplayText.longestMessage)
        #expect(cut == String(repeating: "x", count: DisplayText.longestMessage - 3) + "…")
    }

    @Test func theCutFallsBetweenCharacters() {
        // é is two bytes: 7 of them do not fit in 16 with the ellipsis's 3.
        #expect(
            DisplayText.cut(String(repeating: "é", count: 20), toBytes: 16) == String(repeating: "é", count: 6) + "…")
        // A base and its marks are one character: not kept cut short.
        let clusters = String(repeating: "a" + String(repeating: "\u{301}", count: 7), count: 10)
        let cut = DisplayText.cut(clusters, toBytes: 40)
        #expect(cut == String(repeating: "a" + String(repeating: "\u{301}", count: 7), count: 2) + "…")
    }

    @Test func backspacesTakeBackWhatTheyFollow() {
        #expect(DisplayText.cleaned("ab\u{8}c\u{8}\u{8}d\te") == "d       e")
    }
}
