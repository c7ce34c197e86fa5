@testable import HostSystem
import Testing

/// ``OutputLines`` keeps at most its longest line of an unfinished one:
/// past it, pieces (cut between UTF-8 characters), and what a carriage
/// return redrew is forgotten (issue 37).
@Suite("output lines: bounded")
struct OutputLinesBoundTests {
    @Test func aLongLineComesInPiecesWithEveryByte() {
        var lines = OutputLines(longestLine: 8)
        #expect(lines.append(Array("abcdefghij".utf8)) == ["abcdefgh"])
        #expect(lines.unfinished == Array("ij".utf8))
        #expect(lines.forgotten == 8)
        #expect(lines.append(Array("klmnopqrstu\n".utf8)) == ["ijklmnop", "qrstu"])
        #expect(lines.forgotten == 0)
    }

    @Test func aPieceEndsBetweenTwoCharacters() {
        var lines = OutputLines(longestLine: 8)
        // "abcdefg" then a two-byte é across the cut: the piece stops before it.
        let pieces = lines.append(Array("abcdefgéxyz".utf8))
        #expect(pieces == ["abcdefg"])
        #expect(lines.flush() == "éxyz")
    }

    @Test func aRedrawnLineKeepsItsLastFrameOnly() {
        var lines = OutputLines(longestLine: 16)
        for frame in 0..<1000 { _ = lines.append(Array("\r\(frame % 10)0% [####]".utf8)) }
        #expect(lines.unfinished.count <= 16 + 12)
        #expect(lines.append(Array("\r100% done\r\n".utf8)) == ["100% done"])
    }
}
