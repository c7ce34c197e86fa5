import HostText
import PresenterABI

/// A key pressed in a terminal in raw mode, or a paste, as ``KeyDecoder``
/// reads it from the bytes the terminal sends.
///
/// Every key has a ``code``: what the presenters' key hook and
/// ``ScreenletView/handleKey(_:)`` receive. A key with a character is its
/// Unicode code point (Enter 13, Escape 27, Tab 9, Backspace 127, Ctrl-A
/// to Ctrl-Z 1 to 26); the others take the code points of Apple's function
/// keys in the Private Use Area (`NSUpArrowFunctionKey` and its kin, which
/// the original's platform gives its views), so that one number is one key
/// on both sides of the plugin boundary (Shift-Tab, which has none, is U+F7FF).
package enum TerminalKey: Equatable, Sendable {
    /// A character typed (one Unicode scalar; a cluster comes as several).
    case text(Unicode.Scalar)
    /// Keys that edit or move between fields (`delete` is Delete, forward;
    /// `backTab` is Shift-Tab).
    case enter, tab, backTab, escape, backspace, delete
    /// Keys that move the caret.
    case up, down, left, right, home, end
    /// Ctrl and a letter (1 = Ctrl-A ... 26 = Ctrl-Z) that is none of the above.
    case control(UInt8)
    /// Text pasted in one go (bracketed paste), not typed: it never presses a button.
    case paste(String)

    // The header's PRESENTER_KEY_* values (Apple's `NSUpArrowFunctionKey`
    // and its kin; Shift-Tab has none: Apple's `NSBackTabCharacter`, 0x19,
    // is Ctrl-Y in a terminal).
    /// The code of Up (`PRESENTER_KEY_UP`).
    package static let upCode = UInt32(PRESENTER_KEY_UP)
    /// The code of Down (`PRESENTER_KEY_DOWN`).
    package static let downCode = UInt32(PRESENTER_KEY_DOWN)
    /// The code of Left (`PRESENTER_KEY_LEFT`).
    package static let leftCode = UInt32(PRESENTER_KEY_LEFT)
    /// The code of Right (`PRESENTER_KEY_RIGHT`).
    package static let rightCode = UInt32(PRESENTER_KEY_RIGHT)
    /// The code of Delete, forward (`PRESENTER_KEY_DELETE`).
    package static let deleteForwardCode = UInt32(PRESENTER_KEY_DELETE)
    /// The code of Home (`PRESENTER_KEY_HOME`).
    package static let homeCode = UInt32(PRESENTER_KEY_HOME)
    /// The code of End (`PRESENTER_KEY_END`).
    package static let endCode = UInt32(PRESENTER_KEY_END)
    /// The code of Shift-Tab (`PRESENTER_KEY_BACK_TAB`).
    package static let backTabCode = UInt32(PRESENTER_KEY_BACK_TAB)

    /// The key's code (see the type's description); `nil` for a paste, which is not a key.
    package var code: UInt32? {
        switch self {
        case .text(let scalar): return scalar.value
        case .enter: return 13
        case .tab: return 9
        case .backTab: return Self.backTabCode
        case .escape: return 27
        case .backspace: return 127
        case .delete: return Self.deleteForwardCode
        case .up: return Self.upCode
        case .down: return Self.downCode
        case .left: return Self.leftCode
        case .right: return Self.rightCode
        case .home: return Self.homeCode
        case .end: return Self.endCode
        case .control(let letter): return UInt32(letter)
        case .paste: return nil
        }
    }

    /// The key a ``code`` stands for (the inverse of ``code``); `nil` for a
    /// code no key has (another control character, a surrogate).
    package init?(code: UInt32) {
        switch code {
        case 13: self = .enter
        case 9: self = .tab
        case Self.backTabCode: self = .backTab
        case 27: self = .escape
        case 127, 8: self = .backspace
        case Self.deleteForwardCode: self = .delete
        case Self.upCode: self = .up
        case Self.downCode: self = .down
        case Self.leftCode: self = .left
        case Self.rightCode: self = .right
        case Self.homeCode: self = .home
        case Self.endCode: self = .end
        case 1...26: self = .control(UInt8(code))
        default:
            guard let scalar = Unicode.Scalar(code), !ControlCharacters.terminal.matches(scalar) else { return nil }
            self = .text(scalar)
        }
    }
}
