/// Folds each line the command redrew with carriage returns to its last
/// state, for the output kept for a failure (`--output on-failure` and
/// `tail`): the replay shows what a terminal showed of a tqdm or curl bar
/// (`100%|██████████| 50/50`), once, not its two hundred states, and keeps
/// one state in memory, not all of them.
///
/// A state is the text after the last `\r` of its line; a `\r` followed by
/// `\n` (or by nothing more) leaves it as it was, and a line's `\r\n` stays
/// one (one `\r`). Nothing else changes: the
/// bytes of a line without `\r` are kept as written, escape codes and all.
///
/// Bounded: a state is held until its `\r` or `\n` comes only up to
/// ``longest`` bytes; past that it is passed on (it can no longer be folded
/// away), and a `\r` after it is then passed on as written, so a replay in
/// a terminal still draws the later states over it as the command did.
struct RedrawnLines {
    /// The most bytes of one state held back: 64 KiB, as for a line
    /// (``OutputLines/longestLine``).
    static let longest = 65536

    /// The current state, not passed on yet.
    private var state: [UInt8] = []
    /// A `\r` came after ``state``: the next text replaces it.
    private var redrawn = false
    /// Part of the current line was passed on before its `\r`.
    private var passedOn = false

    /// What to keep of `bytes`, the next bytes of the output.
    mutating func fold(_ bytes: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        var rest = bytes[...]
        while let end = rest.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            add(rest[..<end], to: &kept)
            if rest[end] == 0x0A {
                kept += state
                // A line that ends in `\r\n` keeps it: the replay is the output as written.
                if redrawn { kept.append(0x0D) }
                kept.append(0x0A)
                state.removeAll(keepingCapacity: true)
                (redrawn, passedOn) = (false, false)
            } else {
                redrawn = true
            }
            rest = rest[(end + 1)...]
        }
        add(rest, to: &kept)
        return kept
    }

    /// The last line's state, when the output ended without a newline.
    mutating func flush() -> [UInt8] {
        defer {
            state = []
            (redrawn, passedOn) = (false, false)
        }
        return state
    }

    private mutating func add(_ text: ArraySlice<UInt8>, to kept: inout [UInt8]) {
        guard !text.isEmpty else { return }
        if redrawn {
            // What was passed on stays on the screen: draw over it, as the command did.
            if passedOn { kept.append(0x0D) }
            state.removeAll(keepingCapacity: true)
            (redrawn, passedOn) = (false, false)
        }
        state += text
        if state.count > Self.longest {
            kept += state
            state.removeAll(keepingCapacity: true)
            passedOn = true
        }
    }
}
