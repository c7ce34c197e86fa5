/// Text that is shown as text, not passed to a terminal: a working, success
/// or failure message (from `--working`, a messages file, a `drive` line or
/// the command's progress channel) and the command's lines in `--output
/// tail`. It keeps what a terminal would show of it and drops what a
/// terminal would act on, so a message keeps its meaning without its
/// escape codes: `$(tput bold)Building$(tput sgr0)` is `Building`, not
/// `[1mBuilding[m` (what is left when only the ESC byte is dropped).
///
/// - An escape sequence goes whole: CSI (`ESC [`, U+009B) up to its final
///   byte (SGR colours, cursor moves, erases); OSC, DCS, SOS, PM and APC
///   strings (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _` and their C1
///   forms) up to BEL or ST, or to the end of the line when unterminated;
///   other escapes (`ESC 7`, `ESC ( B`) with their final byte.
/// - A tab becomes spaces up to the next multiple of 8 columns.
/// - A carriage return starts the line over: what follows it is the line
///   (a progress line redrawn with `\r`), and one at the end of a line (a
///   CRLF line end) is dropped. A backspace takes the character before it back.
/// - Line feeds are kept (mbhud shows a message's second line as detail);
///   every other C0, DEL and C1 control is dropped.
///
/// Other characters are unchanged: a canvas drops the layout characters
/// itself (``Canvas/withoutControls(_:)``). Cleaning twice changes nothing more.
package enum DisplayText {
    /// The columns between two tab stops.
    package static let tabWidth = 8

    /// The most bytes (UTF-8) of a message the host keeps: 4 KiB, as many
    /// as a progress line holds (a longer one is cut, with an ellipsis,
    /// where it is read: ``message(_:)``). Far more than a terminal shows,
    /// and far less than the presenter channel's frame (1 MiB), so a long
    /// command line as the working message neither slows the host nor
    /// breaks a presenter.
    package static let longestMessage = 4096

    /// A message as read (a flag, a messages file, the progress channel, a
    /// `drive` line): cut to ``longestMessage`` bytes, then ``cleaned(_:)``.
    /// Cut first, so cleaning costs what a message of that size costs.
    package static func message(_ text: String) -> String {
        cleaned(cut(text, toBytes: longestMessage))
    }

    /// `text` when it has at most `limit` UTF-8 bytes; else its longest
    /// start that leaves room for `…`, ending between two characters
    /// (a character cut short loses its last marks only when it is the
    /// first one), followed by `…`.
    package static func cut(_ text: String, toBytes limit: Int) -> String {
        let ellipsis = DisplayWidth.unicodeEllipsis
        guard text.utf8.count > limit else { return text }
        let room = max(0, limit - ellipsis.utf8.count)
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: room)
        while end > text.startIndex, text.utf8[end] & 0xC0 == 0x80 {  // inside a UTF-8 character
            end = text.utf8.index(before: end)
        }
        var kept = String(text.unicodeScalars[..<end])
        // The character at the cut continues past it: not kept cut short.
        if let last = kept.last, end < text.endIndex,
            (String(last) + String(text.unicodeScalars[end])).count == 1, kept.count > 1
        {
            kept.removeLast()
        }
        return kept + ellipsis
    }

    /// `text` as a terminal would show it, without escape sequences and
    /// controls (the rules above). Linear in its length.
    package static func cleaned(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: ControlCharacters.terminal.matches) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = ""
        var line = ""
        var column = 0
        var lineRestarts = false
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar.value {
            case 0x0A:
                result += line + "\n"
                (line, column, lineRestarts) = ("", 0, false)
            case 0x0D:
                lineRestarts = true
            case 0x09:
                if lineRestarts { (line, column, lineRestarts) = ("", 0, false) }
                let spaces = tabWidth - column % tabWidth
                line += String(repeating: " ", count: spaces)
                column += spaces
            case 0x08:
                // The column goes back by what was taken (not measured again:
                // a backspace per character would make cleaning quadratic).
                if let last = line.popLast() { column -= DisplayWidth.of(last) }
            case 0x1B:
                index = end(ofEscapeAt: index, in: scalars)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                index = end(ofStringFrom: index, in: scalars)
            case 0x9B:
                index = end(ofControlSequenceFrom: index, in: scalars)
            case _ where ControlCharacters.terminal.matches(scalar):
                continue
            default:
                if lineRestarts { (line, column, lineRestarts) = ("", 0, false) }
                line.unicodeScalars.append(scalar)
                column += DisplayWidth.of(scalar)
            }
        }
        return result + line
    }

    /// Where the escape whose ESC came just before `start` ends (the index
    /// after it). A lone ESC (before a control, a non-ASCII character or
    /// the end) is only itself.
    private static func end(ofEscapeAt start: Int, in scalars: [Unicode.Scalar]) -> Int {
        guard start < scalars.count else { return start }
        switch scalars[start].value {
        case 0x5B:  // [
            return end(ofControlSequenceFrom: start + 1, in: scalars)
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // ] P X ^ _
            return end(ofStringFrom: start + 1, in: scalars)
        case 0x20...0x2F:
            // Intermediate bytes, then the final one (`ESC ( B`).
            var index = start
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
            return index
        case 0x30...0x7E:
            return start + 1
        default:
            return start
        }
    }

    /// Where a control sequence whose introducer ends before `start` ends:
    /// parameter bytes, intermediate bytes, then its final byte. A byte that
    /// cannot come next ends a malformed one before it (and is kept).
    private static func end(ofControlSequenceFrom start: Int, in scalars: [Unicode.Scalar]) -> Int {
        var index = start
        while index < scalars.count, (0x30...0x3F).contains(scalars[index].value) { index += 1 }
        while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
        if index < scalars.count, (0x40...0x7E).contains(scalars[index].value) { index += 1 }
        return index
    }

    /// Where a command string (OSC, DCS, SOS, PM, APC) whose introducer ends
    /// before `start` ends: after its BEL or ST (`ESC \` or U+009C), or at
    /// the end of the line when it has none.
    private static func end(ofStringFrom start: Int, in scalars: [Unicode.Scalar]) -> Int {
        var index = start
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C: return index + 1
            case 0x0A: return index
            case 0x1B where index + 1 < scalars.count && scalars[index + 1] == "\\": return index + 2
            default: index += 1
            }
        }
        return index
    }
}
