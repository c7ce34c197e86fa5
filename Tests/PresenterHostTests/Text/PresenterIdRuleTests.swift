import Testing
@testable import HostText

/// What an id may be: the characters the completion scripts' patterns are
/// spelled from are exactly those `isValid` takes, and the length bounds.
@Suite struct PresenterIdRuleTests {
    @Test func theSpelledCharactersAreTheOnesTaken() throws {
        for value in UInt32(0)...0x2100 {
            let scalar = try #require(Unicode.Scalar(value))
            let text = String(Character(scalar))
            #expect(
                PresenterIdRule.isValid(text) == PresenterIdRule.characters.unicodeScalars.contains(scalar),
                "U+\(String(value, radix: 16))")
        }
        #expect(PresenterIdRule.characters.unicodeScalars.count == 39)
    }

    @Test func anIdIsOneTo64Bytes() {
        #expect(!PresenterIdRule.isValid(""))
        #expect(PresenterIdRule.isValid("a"))
        #expect(PresenterIdRule.isValid(String(repeating: "x", count: 64)))
        #expect(!PresenterIdRule.isValid(String(repeating: "x", count: 65)))
        #expect(PresenterIdRule.isValid("mbhud.dark-2_x"))
        for word in ["Mbhud", "mb hud", "$(id)", "`id`", "a;b", "*", "é", "mb\u{200B}hud", "a\n"] {
            #expect(!PresenterIdRule.isValid(word), "\(word.debugDescription)")
        }
    }
}
