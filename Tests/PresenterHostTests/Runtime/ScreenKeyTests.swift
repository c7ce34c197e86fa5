@testable import HostRuntime
import Testing

@Suite("Screen keys: bytes from a raw terminal become keys")
struct ScreenKeyTests {
    static let cases: [(bytes: String, keys: [TerminalKey], name: String)] = [
        ("a", [.text("a")], "a letter"),
        ("é漢😀", [.text("é"), .text("漢"), .text("😀")], "UTF-8 of 2, 3 and 4 bytes"),
        ("\r", [.enter], "Enter (CR)"),
        ("\n", [.enter], "Enter (LF)"),
        ("\t", [.tab], "Tab"),
        ("\u{7F}", [.backspace], "Backspace (DEL)"),
        ("\u{8}", [.backspace], "Backspace (BS)"),
        (
            "\u{1}\u{5}\u{15}\u{17}\u{3}\u{1A}",
            [.control(1), .control(5), .control(21), .control(23), .control(3), .control(26)],
            "Ctrl-A, E, U, W, C, Z"
        ),
        ("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", [.up, .down, .right, .left], "arrows (CSI)"),
        ("\u{1B}OA\u{1B}OD", [.up, .left], "arrows (SS3, application mode)"),
        ("\u{1B}[1;5C", [.right], "an arrow with a modifier"),
        (
            "\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}OH",
            [.home, .end, .home, .end, .home, .end, .home],
            "Home and End as xterm, VT220 and rxvt send them"
        ),
        ("\u{1B}[3~", [.delete], "Delete"),
        ("\u{1B}[Z", [.backTab], "Shift-Tab"),
        (
            "\u{1B}[200~https://example.com/a\nb\u{1B}[201~x", [.paste("https://example.com/a\nb"), .text("x")],
            "a bracketed paste, then a key"
        ),
        ("\u{1B}[15~\u{1B}[5;2R", [], "other sequences (F5, a position report) are ignored whole"),
        ("\u{1B}b", [], "Alt and a key types nothing"),
        ("\u{1B}\u{1B}[A", [.escape, .up], "Escape, then a sequence"),
        ("\u{0}\u{1C}", [], "NUL and Ctrl-\\ type nothing"),
        (
            "a\u{80}\u{85}\u{9B}b", [.text("a"), .text("b")],
            "C1 controls in UTF-8 type nothing (found by the keys fuzzer)"
        ),
        ("\u{1B}O\u{1B}[A", [.up], "Alt-O, then an arrow: the arrow"),
        ("\u{1B}O\u{1}x", [.control(1), .text("x")], "ESC O and a byte that cannot end SS3: Alt-O, then the keys"),
    ]

    @Test("each byte sequence is its keys", arguments: cases.indices)
    func decodes(index: Int) {
        let (bytes, keys, name) = Self.cases[index]
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array(bytes.utf8)) == keys, "\(name)")
        #expect(!decoder.hasPendingEscape, "\(name)")
    }

    @Test("each sequence cut anywhere across reads is the same keys", arguments: cases.indices)
    func decodesAcrossReads(index: Int) {
        let (bytes, keys, name) = Self.cases[index]
        let all = Array(bytes.utf8)
        for cut in 1..<max(1, all.count) {
            var decoder = KeyDecoder()
            let got = decoder.decode(Array(all[..<cut])) + decoder.decode(Array(all[cut...]))
            #expect(got == keys, "\(name), cut at \(cut)")
        }
    }

    @Test("a lone Escape waits for what follows, and is the Escape key when nothing does")
    func loneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flushPending() == .escape)
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.flushPending() == nil)
        #expect(decoder.decode(Array("a".utf8)) == [.text("a")])
    }

    @Test("a sequence that never ends is dropped after the wait: the next keys are typed whole")
    func unfinishedSequence() {
        for start in ["\u{1B}[", "\u{1B}O", "\u{1B}[1;"] {
            var decoder = KeyDecoder()
            #expect(decoder.decode(Array(start.utf8)) == [])
            #expect(decoder.hasPendingEscape, "\(start.debugDescription) waits like a lone Escape")
            #expect(decoder.flushPending() == nil, "the start of a sequence is not the Escape key")
            #expect(decoder.decode(Array("hello".utf8)) == "hello".unicodeScalars.map { .text($0) })
        }
    }

    @Test("a sequence longer than the decoder keeps is dropped whole, in one read or many")
    func overlongSequence() {
        let sequence =
            Array("\u{1B}[".utf8) + Array(repeating: UInt8(ascii: "1"), count: 3 * KeyDecoder.maxSequence)
            + Array(";2Az".utf8)
        for cut in [nil, 10, KeyDecoder.maxSequence + 1, sequence.count - 2] {
            var decoder = KeyDecoder()
            let keys =
                cut.map { decoder.decode(Array(sequence[..<$0])) + decoder.decode(Array(sequence[$0...])) }
                ?? decoder.decode(sequence)
            #expect(keys == [.text("z")], "cut at \(String(describing: cut))")
        }
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array(sequence.prefix(2 * KeyDecoder.maxSequence))) == [])
        #expect(decoder.hasPendingEscape, "the rest of the long sequence may still come")
        #expect(decoder.flushPending() == nil)
        #expect(decoder.decode(Array("hello".utf8)) == "hello".unicodeScalars.map { .text($0) })
    }

    @Test("malformed UTF-8 is U+FFFD, and the next key is still read")
    func malformed() {
        var decoder = KeyDecoder()
        #expect(
            decoder.decode([0xFF, 0x61, 0xC3, 0x28, 0xE2, 0x82]) == [
                .text("\u{FFFD}"), .text("a"), .text("\u{FFFD}"), .text("("),
            ])
        #expect(decoder.decode([0xAC]) == [.text("€")])
    }

    @Test("a paste is cut at its bound, and what follows it is read")
    func pasteBound() {
        var decoder = KeyDecoder()
        let big = String(repeating: "x", count: KeyDecoder.maxPaste + 100)
        let keys = decoder.decode(Array(("\u{1B}[200~" + big + "\u{1B}[201~!").utf8))
        #expect(keys == [.paste(String(repeating: "x", count: KeyDecoder.maxPaste)), .text("!")])
    }

    @Test("a key's code is what the presenter gets, and maps back to the key")
    func codes() {
        let keys: [TerminalKey] = [
            .text("a"), .text("漢"), .enter, .tab, .backTab, .escape, .backspace, .delete,
            .up, .down, .left, .right, .home, .end, .control(1), .control(23),
        ]
        for key in keys {
            let code = try! #require(key.code)
            #expect(TerminalKey(code: code) == key)
        }
        #expect(TerminalKey.enter.code == 13)
        #expect(TerminalKey.escape.code == 27)
        #expect(TerminalKey.up.code == 0xF700)
        #expect(TerminalKey.paste("x").code == nil)
        #expect(TerminalKey(code: 0xD800) == nil)
        #expect(TerminalKey(code: 0x1F) == nil)
    }
}
