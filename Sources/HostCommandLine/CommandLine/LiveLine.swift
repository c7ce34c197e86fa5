import HostText

/// The latest state of the command's unfinished line, as a terminal shows it
/// while it is still being written: what `--output tail` and `stream` show
/// live, before its newline comes. tqdm, pip, curl, wget and rsync redraw
/// their progress with carriage returns on a line that ends only when they
/// finish; a `printf 'Progress: '` is a line begun and not ended.
///
/// - The state is the text after the last `\r`, or after the last move to
///   the first column (`ESC [ 1 G`: ``afterLastMoveToColumnOne(in:)``). A `\r` at the end leaves
///   the state shown until more text comes (a terminal shows it until it
///   is overwritten), so a `\r\n` is just a line end, even split across
///   two reads.
/// - A `\n` ends the line: the state is empty again (the whole line goes
///   the way whole lines go).
/// - Bounded: only the first ``longest`` bytes of a state are kept, which
///   is as much as a message shows (``DisplayText/longestMessage``), so a
///   10 MB line without a newline costs 4 KiB here, and each read costs
///   its own length (only its part after the last `\n` or `\r` is looked at).
/// - ``text`` is what a row shows: escape codes and controls dropped as for
///   every tail line (``DisplayText``), and a UTF-8 character cut short at
///   the end of a read left out until its last bytes come.
struct LiveLine: Equatable {
    /// The most bytes of a state kept.
    static let longest = DisplayText.longestMessage

    /// The state's first bytes (at most ``longest``), as written.
    private(set) var bytes: [UInt8] = []
    /// A `\r` came after ``bytes``: the next text starts a new state.
    private var redrawn = false

    /// Adds the next bytes of the command's output (as read, in order).
    /// Returns true when the state changed.
    mutating func append(_ chunk: ArraySlice<UInt8>) -> Bool {
        var part = chunk
        var changed = false
        if let newline = part.lastIndex(of: 0x0A) {
            changed = !bytes.isEmpty
            bytes.removeAll(keepingCapacity: true)
            redrawn = false
            part = part[(newline + 1)...]
        }
        // Carriage returns at the end say only that the next text starts over.
        var end = part.endIndex
        var endsRedrawn = false
        while end > part.startIndex, part[end - 1] == 0x0D {
            end -= 1
            endsRedrawn = true
        }
        let text = part[..<end]
        if !text.isEmpty {
            let restart = [text.lastIndex(of: 0x0D).map { $0 + 1 }, Self.afterLastMoveToColumnOne(in: text)]
            if let from = restart.compactMap({ $0 }).max() {
                start(with: text[from...])
            } else if redrawn {
                start(with: text)
            } else if bytes.count < Self.longest {
                bytes.append(contentsOf: text.prefix(Self.longest - bytes.count))
            }
            redrawn = false
            changed = true
        }
        if endsRedrawn { redrawn = true }
        return changed
    }

    /// Where the text after the last move of the cursor to the line's
    /// first column (CSI G, `ESC [ G`, `ESC [ 0 G` or `ESC [ 1 G`) begins:
    /// Node's `readline.cursorTo(stream, 0)`, which ora and log-update
    /// redraw with, is a `\r` as a terminal shows it. A sequence cut across
    /// two reads is not seen (its text is then added to the state).
    static func afterLastMoveToColumnOne(in text: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index? {
        var search = text
        while let escape = search.lastIndex(of: 0x1B) {
            var at = escape + 1
            if at < text.endIndex && text[at] == UInt8(ascii: "[") {
                at += 1
                if at < text.endIndex && (text[at] == UInt8(ascii: "0") || text[at] == UInt8(ascii: "1")) { at += 1 }
                if at < text.endIndex && text[at] == UInt8(ascii: "G") { return at + 1 }
            }
            search = text[..<escape]
        }
        return nil
    }

    private mutating func start(with text: ArraySlice<UInt8>) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: text.prefix(Self.longest))
    }

    /// The state as a row shows it; nil when it shows nothing.
    var text: String? { Self.text(of: bytes) }

    /// `bytes` (a state) as a row shows it: without a UTF-8 character cut
    /// short at its end, cleaned and cut as a message (``DisplayText/message(_:)``);
    /// nil when nothing of it shows.
    static func text(of bytes: [UInt8]) -> String? {
        let shown = DisplayText.message(String(decoding: withoutCutCharacter(bytes[...]), as: UTF8.self))
        return shown.isEmpty ? nil : shown
    }

    /// `bytes` without the start of a UTF-8 character whose last bytes have
    /// not come yet (a read may end inside one).
    static func withoutCutCharacter(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        // The last byte that starts a character, within a character's length of the end.
        var lead = bytes.endIndex
        while lead > bytes.startIndex, lead > bytes.endIndex - 4 {
            lead -= 1
            let byte = bytes[lead]
            guard byte & 0xC0 == 0x80 else {
                let length = byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                return bytes.endIndex - lead < length ? bytes[..<lead] : bytes
            }
        }
        return bytes
    }
}
