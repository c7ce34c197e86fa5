@testable import HostText
@testable import HostRuntime
import Testing

@Suite("Screen frame encoder: the alternate screen, drawn with absolute moves")
struct ScreenFrameEncoderTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("entering and leaving switch screens, the cursor and paste mode, and restore the style")
    func enterLeave() {
        var encoder = ScreenFrameEncoder(colorEnabled: true)
        #expect(text(encoder.enter()) == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h")
        #expect(text(encoder.leave()) == "\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l")
    }

    @Test("the first frame clears and draws; the next writes only what changed; the same frame writes nothing")
    func differences() {
        var encoder = ScreenFrameEncoder(colorEnabled: true)
        var canvas = Canvas(cols: 10, rows: 3)
        canvas.drawText("abc", col: 0, row: 0, maxColumns: 10)
        canvas.drawText("xy", col: 4, row: 2, maxColumns: 10)
        #expect(text(encoder.frame(canvas)) == "\u{1B}[0m\u{1B}[H\u{1B}[2Jabc\u{1B}[3;5Hxy")
        #expect(encoder.frame(canvas).isEmpty)
        canvas.drawText("Z", col: 1, row: 0, maxColumns: 10)
        canvas.drawText("w", col: 6, row: 2, maxColumns: 10)
        #expect(text(encoder.frame(canvas)) == "\u{1B}[1;2HZ\u{1B}[3;7Hw")
        encoder.invalidate()
        #expect(text(encoder.frame(canvas)).hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
    }

    @Test("styles are written when they change and reset at the end; colour only when enabled")
    func styles() {
        var canvas = Canvas(cols: 4, rows: 1)
        canvas.drawText("ab", col: 0, row: 0, maxColumns: 4, style: CellStyle(rawValue: 0x10 | 1))
        var colored = ScreenFrameEncoder(colorEnabled: true)
        #expect(text(colored.frame(canvas)).hasSuffix("\u{1B}[1;31mab\u{1B}[m"))
        var plain = ScreenFrameEncoder(colorEnabled: false)
        #expect(text(plain.frame(canvas)).hasSuffix("\u{1B}[1mab\u{1B}[m"))
    }

    @Test("a wide character is written once; after an emoji the next cell is placed absolutely")
    func wide() {
        var encoder = ScreenFrameEncoder(colorEnabled: false)
        var canvas = Canvas(cols: 8, rows: 1)
        canvas.drawText("漢a😀b", col: 0, row: 0, maxColumns: 8)
        #expect(text(encoder.frame(canvas)) == "\u{1B}[0m\u{1B}[H\u{1B}[2J漢a😀\u{1B}[1;6Hb")
    }
}
