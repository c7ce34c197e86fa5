import PresenterABI

/// What a presenter id may be: 1 to `PRESENTER_ID_MAX` (64) bytes of
/// `a-z`, `0-9`, `.`, `_` and `-` (presenter_abi.h). A word of these
/// characters means the same to every shell, so an id can be offered to
/// one (completion) and typed on a command line as it is; anything else
/// a plugin process reports as an id is not one.
package enum PresenterIdRule {
    /// The characters an id is made of, spelled out: the completion scripts
    /// match each candidate against them (a range like `a-z` can mean more
    /// in a shell's locale).
    package static let characters = "abcdefghijklmnopqrstuvwxyz0123456789._-"

    /// The longest id in bytes.
    package static let maxBytes = Int(PRESENTER_ID_MAX)

    /// True when `text` is an id.
    package static func isValid(_ text: String) -> Bool {
        let count = text.utf8.count
        return count >= 1 && count <= maxBytes
            && text.utf8.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2E || byte == 0x5F
                    || byte == 0x2D
            }
    }
}
