import HostText

/// A one-line text field's content and caret, edited as in a shell's line
/// editor: characters are grapheme clusters (an emoji or a letter with its
/// accents is one), widths are terminal columns.
///
/// Control characters never enter it: a paste keeps its text with each line
/// break and tab turned into a space (a URL copied with its newline stays
/// one line).
package struct TextField: Equatable, Sendable {
    /// The most characters a field holds; typing or pasting more is cut.
    package static let maxLength = 4096

    /// The text.
    package private(set) var text: String
    /// The caret, in characters from the start (0...text.count).
    package private(set) var caret: Int
    /// The first character shown when the text is wider than the field.
    private var scroll = 0

    /// A field holding `text`, the caret at its end.
    package init(_ text: String = "") {
        self.text = ""
        caret = 0
        insert(text)
    }

    package var isEmpty: Bool { text.isEmpty }

    /// Replaces the text, the caret at its end.
    package mutating func set(_ newText: String) {
        text = ""
        caret = 0
        scroll = 0
        insert(newText)
    }

    /// Inserts `typed` at the caret; control characters become spaces
    /// (line breaks, tabs) or are dropped.
    package mutating func insert(_ typed: String) {
        var clean = ""
        for scalar in typed.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: clean.unicodeScalars.append(" ")
            case _ where ControlCharacters.terminal.matches(scalar): continue
            default: clean.unicodeScalars.append(scalar)
            }
        }
        var characters = Array(text)
        let room = Self.maxLength - characters.count
        guard room > 0 else { return }
        let added = Array(clean).prefix(room)
        characters.insert(contentsOf: added, at: caret)
        // A combining mark typed after a letter joins its cluster: count again.
        let before = String(characters[..<(caret + added.count)]).count
        text = String(characters)
        caret = min(before, text.count)
    }

    package mutating func moveLeft() { caret = max(0, caret - 1) }
    package mutating func moveRight() { caret = min(text.count, caret + 1) }
    package mutating func moveHome() { caret = 0 }
    package mutating func moveEnd() { caret = text.count }

    /// Backspace: the character before the caret.
    package mutating func deleteBackward() {
        guard caret > 0 else { return }
        remove(from: caret - 1, to: caret)
    }

    /// Delete: the character under the caret.
    package mutating func deleteForward() {
        guard caret < text.count else { return }
        remove(from: caret, to: caret + 1)
    }

    /// Ctrl-U: everything before the caret.
    package mutating func deleteToStart() { remove(from: 0, to: caret) }

    /// Ctrl-W: the word before the caret and the blanks after it, as a
    /// shell does (a word ends at white space; in a URL, also at `/`, so
    /// that one Ctrl-W takes one path segment).
    package mutating func deleteWordBackward() {
        let characters = Array(text)
        var start = caret
        while start > 0, Self.isBreak(characters[start - 1]) { start -= 1 }
        while start > 0, !Self.isBreak(characters[start - 1]) { start -= 1 }
        remove(from: start, to: caret)
    }

    /// What to show in `columns` columns: the visible part of the text and
    /// the caret's column in it. The view scrolls so the caret stays visible.
    package mutating func visible(columns: Int) -> (text: String, caretColumn: Int) {
        guard columns > 1 else { return ("", 0) }
        let characters = Array(text)
        let widths = characters.map { DisplayWidth.of($0) }
        // The caret needs its own column at the end.
        scroll = min(scroll, caret)
        while widths[scroll..<caret].reduce(0, +) > columns - 1 { scroll += 1 }
        // Show as much as fits when the text got shorter.
        while scroll > 0, widths[(scroll - 1)..<characters.count].reduce(0, +) < columns { scroll -= 1 }
        var shown = "", used = 0
        for index in scroll..<characters.count {
            guard used + widths[index] <= columns else { break }
            shown.append(characters[index])
            used += widths[index]
        }
        return (shown, widths[scroll..<caret].reduce(0, +))
    }

    private mutating func remove(from start: Int, to end: Int) {
        guard start < end else { return }
        var characters = Array(text)
        characters.removeSubrange(start..<end)
        text = String(characters)
        caret = start
    }

    private static func isBreak(_ character: Character) -> Bool {
        character.isWhitespace || character == "/"
    }
}
