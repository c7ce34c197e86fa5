@testable import HostText
import Testing

/// The cleaner of text shown as text (messages, the tail's lines): escape
/// sequences go whole, tabs become spaces, a carriage return starts the
/// line over, and no control is left but the line feed.
@Suite("Text: display text")
struct DisplayTextTests {
    @Test(arguments: [
        // tput bold / sgr0 / setaf 1 as xterm-256color spells them.
        ("\u{1B}[1mBuilding\u{1B}(B\u{1B}[m", "Building"),
        ("\u{1B}[31mred\u{1B}[0m and \u{1B}[38;2;255;0;0mtrue colour\u{1B}[m", "red and true colour"),
        ("\u{9B}1mC1 CSI\u{9B}m", "C1 CSI"),
        // Cursor moves, erases, private modes.
        ("a\u{1B}[2Kb\u{1B}[10;20Hc\u{1B}[?25ld\u{1B}[?2026$pe", "abcde"),
        // OSC 0 (title) ended by BEL, OSC 8 (link) and OSC 52 ended by ST.
        ("\u{1B}]0;title\u{07}x", "x"),
        ("\u{1B}]8;;http://example.com\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("\u{1B}]52;c;aGVsbG8=\u{9C}after", "after"),
        ("\u{9D}0;title\u{07}x", "x"),
        // DCS, APC, PM, SOS.
        ("\u{1B}P1$r0m\u{1B}\\a\u{1B}_apc\u{1B}\\b\u{1B}^pm\u{1B}\\c\u{1B}Xsos\u{1B}\\d", "abcd"),
        // Two-byte and charset escapes.
        ("\u{1B}7saved\u{1B}8\u{1B}(0\u{1B}=", "saved"),
        // An unterminated string ends at the end of its line.
        ("before\u{1B}]0;no end\nnext", "before\nnext"),
        // A malformed CSI ends before the byte that cannot come next.
        ("\u{1B}[12\u{07}x", "x"),
        ("\u{1B}[1;é", "é"),
        // A lone ESC, at the end or before a non-ASCII character.
        ("end\u{1B}", "end"),
        ("\u{1B}é", "é"),
    ])
    func escapeSequencesGoWhole(_ text: String, _ expected: String) {
        #expect(DisplayText.cleaned(text) == expected)
    }

    @Test func tabsBecomeSpacesToTheNextStop() {
        #expect(DisplayText.cleaned("a\tb") == "a       b")
        #expect(DisplayText.cleaned("12345678\tx") == "12345678        x")
        #expect(DisplayText.cleaned("\tx\n1234567\ty") == "        x\n1234567 y")
        // Escape codes take no column; a wide character takes two.
        #expect(DisplayText.cleaned("\u{1B}[31mred\u{1B}[0m\tafter") == "red     after")
        #expect(DisplayText.cleaned("界\tx") == "界      x")
    }

    @Test func aCarriageReturnStartsTheLineOver() {
        #expect(DisplayText.cleaned(" 10%\r 50%\r100%") == "100%")
        #expect(DisplayText.cleaned("Done\r\n") == "Done\n")
        #expect(DisplayText.cleaned("line\r") == "line")
        #expect(DisplayText.cleaned("one\r\ntwo\r\n") == "one\ntwo\n")
        #expect(DisplayText.cleaned("ab\u{8}c") == "ac")
        #expect(DisplayText.cleaned("\u{8}x") == "x")
    }

    @Test func otherControlsAreDroppedAndTextIsKept() {
        #expect(DisplayText.cleaned("a\u{00}b\u{07}c\u{7F}d\u{85}e\u{9C}f") == "abcdef")
        #expect(DisplayText.cleaned("two\nlines") == "two\nlines")
        let plain = "Building the site… 界 ✔ \u{202E}kept for the canvas"
        #expect(DisplayText.cleaned(plain) == plain)
    }

    @Test func cleaningTwiceChangesNothingMore() {
        for text in ["\u{1B}[1mBold\u{1B}[m\tx\r\ny", "a\rb\u{8}\u{8}c", "\u{1B}]0;t\u{07}\u{9B}2J"] {
            let once = DisplayText.cleaned(text)
            #expect(DisplayText.cleaned(once) == once)
            #expect(!once.unicodeScalars.contains { ControlCharacters.terminal.matches($0) && $0 != "\n" })
        }
    }
}
