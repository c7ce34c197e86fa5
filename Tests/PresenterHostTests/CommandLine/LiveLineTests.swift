import HostText
import Testing
@testable import HostCommandLine

/// ``LiveLine``: the state of the line the command is still writing, as
/// `--output tail` and `stream` show it live (issue 34).
@Suite("run: the live line")
struct LiveLineTests {
    /// Feeds `chunks` in order; the state's text after the last.
    private func state(_ chunks: String...) -> String? {
        var line = LiveLine()
        for chunk in chunks { _ = line.append(Array(chunk.utf8)[...]) }
        return line.text
    }

    @Test func theStateIsTheTextAfterTheLastCarriageReturn() {
        #expect(state("\r 10%|#  |", "\r 20%|## |") == " 20%|## |")
        #expect(state("a\rb\rc") == "c")
    }

    /// ora and log-update redraw with `ESC[2K ESC[1G` (Node's cursorTo):
    /// the state is the text after it, as after a `\r`.
    @Test func aMoveToTheFirstColumnIsARedrawToo() {
        #expect(state("\u{1B}[2K\u{1B}[1G- Installing 1/6", "\u{1B}[2K\u{1B}[1G- Installing 2/6") == "- Installing 2/6")
        #expect(state("a\u{1B}[Gb\u{1B}[0Gc") == "c")
        #expect(state("a\u{1B}[5Gb") == "ab", "a move elsewhere is not a redraw")
        #expect(state("x\u{1B}[1Gy\rz") == "z")
    }

    @Test func aCarriageReturnAtTheEndKeepsTheStateUntilTextComes() {
        #expect(state(" 50%\r") == " 50%")
        #expect(state(" 50%\r", "\r") == " 50%")
        #expect(state(" 50%\r", " 60%") == " 60%")
    }

    @Test func aNewlineEndsTheLineAndACRLFIsJustALineEnd() {
        #expect(state("done\r\n") == nil)
        #expect(state("done\r", "\n") == nil)
        #expect(state("one\ntwo") == "two")
        #expect(state("one\r\n", "two") == "two", "a CRLF's \\r must not make the next line a redraw")
    }

    @Test func aPartialLineWithoutCarriageReturnShowsAsItComes() {
        #expect(state("Progress: ") == "Progress: ")
        #expect(state("Progress: ", "12") == "Progress: 12")
    }

    @Test func appendSaysWhetherTheStateChanged() {
        var line = LiveLine()
        let changes = ["50%", "\r", "\n", "\n"].map { line.append(Array($0.utf8)[...]) }
        // A \r alone changes nothing shown; the first newline ends the line.
        #expect(changes == [true, false, true, false])
    }

    @Test func escapeCodesAndControlsAreDroppedAsInEveryTailLine() {
        #expect(state("\r\u{1B}[2K\u{1B}[32m 70%\u{1B}[0m\u{07}") == " 70%")
        #expect(state("a\tb") == "a       b")
    }

    @Test func aCharacterSplitAcrossReadsShowsWhenItsLastByteComes() {
        let bytes = Array("é€😀".utf8)
        var line = LiveLine()
        for end in 1...bytes.count {
            _ = line.append(bytes[(end - 1)..<end])
            let text = line.text ?? ""
            #expect(!text.contains("\u{FFFD}"), "after \(end) bytes: \(text)")
        }
        #expect(line.text == "é€😀")
    }

    @Test func aHugeLineKeepsItsFirstBytesOnly() {
        var line = LiveLine()
        let megabyte = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<10 { _ = line.append(megabyte[...]) }
        #expect(line.bytes.count == LiveLine.longest)
        #expect((line.text?.utf8.count ?? .max) <= DisplayText.longestMessage)
        // A redraw after it starts over.
        _ = line.append(Array("\rdone".utf8)[...])
        #expect(line.text == "done")
    }
}

/// ``RedrawnLines``: the output kept for a failure holds each line's last
/// state, as a terminal showed it (issue 34).
@Suite("run: redrawn lines folded for the replay")
struct RedrawnLinesTests {
    private func folded(_ chunks: [String]) -> String {
        var fold = RedrawnLines()
        var kept: [UInt8] = []
        for chunk in chunks { kept += fold.fold(Array(chunk.utf8)) }
        kept += fold.flush()
        return String(decoding: kept, as: UTF8.self)
    }

    @Test func aRedrawnLineIsKeptAsItsLastState() {
        #expect(folded(["start\n", "\r 10%", "\r 50%", "\r100% done\n", "end\n"]) == "start\n100% done\nend\n")
    }

    /// A CRLF is a line end, kept as written (the replay is the output as
    /// the pipe gave it), even split across reads.
    @Test func aCRLFKeepsItsLine() {
        #expect(folded(["one\r\ntwo\r", "\nthree\r"]) == "one\r\ntwo\r\nthree")
        #expect(folded(["50%\r100%\r\n"]) == "100%\r\n")
    }

    @Test func linesWithoutCarriageReturnsAreKeptAsWritten() {
        let text = "\u{1B}[31mred\u{1B}[0m\tx\nno newline"
        #expect(folded([text]) == text)
    }

    @Test func aStateSplitAcrossReadsIsWhole() {
        #expect(folded(["\r 5", "0%", "\r", " 6", "0%\n"]) == " 60%\n")
    }

    @Test func aStatePastTheBoundIsPassedOnAndALaterRedrawDrawsOverIt() {
        let long = String(repeating: "a", count: RedrawnLines.longest + 1)
        #expect(folded([long, "\r1", "\r2", "\n"]) == long + "\r2\n")
        #expect(folded([long + "b\n"]) == long + "b\n", "every byte of a long line is kept")
    }

    /// 10,000 states of a bar: what is held back is one state.
    @Test func manyStatesKeepOne() {
        var fold = RedrawnLines()
        var kept = 0
        for step in 0..<10_000 { kept += fold.fold(Array("\r\(step) it [####]".utf8)).count }
        #expect(kept == 0)
        #expect(String(decoding: fold.flush(), as: UTF8.self) == "9999 it [####]")
    }
}
