/// The little of HTML's tokenizer that finding a page's `<title>` and its
/// `<meta charset>` needs, over the page's bytes: tags with their
/// attributes (quoted values may hold `>`), comments, and the end of an
/// element whose content is raw text (`<script>`, `<style>`).
///
/// Bytes, not characters: every byte it looks for (`<`, `>`, `/`, `=`,
/// quotes, ASCII letters after `<`) stands for itself in UTF-8 and in every
/// ASCII-compatible charset a page may declare (in Shift_JIS, Big5 and GBK
/// a second byte may be a letter, but never `<`, so a match that starts at
/// a `<` is real). Pure, total on any input, linear in its length.
struct HTMLScanner {
    /// One piece of markup found by ``next()``.
    enum Token: Equatable {
        /// A start tag: its name in lower case, its attributes (names in
        /// lower case, values as written, undecoded), and the index just
        /// after its `>` (or the end of the input when it has none).
        case startTag(name: String, attributes: [(String, String)], end: Int)
        /// An end tag, a comment, a doctype or a processing instruction.
        case other

        static func == (a: Token, b: Token) -> Bool {
            switch (a, b) {
            case (.other, .other): return true
            case let (.startTag(n1, a1, e1), .startTag(n2, a2, e2)):
                return n1 == n2 && e1 == e2 && a1.elementsEqual(a2, by: { $0 == $1 })
            default: return false
            }
        }
    }

    let bytes: ArraySlice<UInt8>
    /// Where scanning goes on.
    var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    /// The next tag or comment, or nil at the end of the input.
    mutating func next() -> Token? {
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            guard index < bytes.endIndex else { return nil }
            let first = bytes[index]
            if first == UInt8(ascii: "!") && starts(with: "!--", at: index) {
                // A comment ends at the first "-->" that overlaps no byte of
                // its "<!" (so "<!-->" and "<!--->" are empty comments).
                index = find("-->", from: index + 1).map { $0 + 3 } ?? bytes.endIndex
                return .other
            }
            if isLetter(first) {
                return startTag()
            }
            if first == UInt8(ascii: "/") || first == UInt8(ascii: "!") || first == UInt8(ascii: "?") {
                // An end tag, a doctype, a bogus comment: up to the next ">".
                index = bytes[index...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? bytes.endIndex
                return .other
            }
            // A "<" that starts nothing is text.
        }
        index = bytes.endIndex
        return nil
    }

    /// Moves past the end tag `</name` (any case) that ends a raw-text
    /// element, returning where that end tag starts (the end of the input
    /// when there is none).
    mutating func skipRawText(until name: String) -> Int {
        var from = index
        while let open = find("</", from: from) {
            let after = open + 2
            if matchesCaseInsensitive(name, at: after) {
                let next = after + name.utf8.count
                if next >= bytes.endIndex || isTagNameEnd(bytes[next]) {
                    index = bytes[next...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? bytes.endIndex
                    return open
                }
            }
            from = after
        }
        index = bytes.endIndex
        return bytes.endIndex
    }

    // MARK: - Tags

    /// At the first letter of a tag name.
    private mutating func startTag() -> Token {
        let nameStart = index
        while index < bytes.endIndex && !isTagNameEnd(bytes[index]) { index += 1 }
        let name = lowercased(bytes[nameStart..<index])
        var attributes: [(String, String)] = []
        while let attribute = nextAttribute() {
            // The first of a repeated attribute counts, as in a browser.
            if !attributes.contains(where: { $0.0 == attribute.0 }) { attributes.append(attribute) }
        }
        return .startTag(name: name, attributes: attributes, end: index)
    }

    /// The next attribute of the tag, or nil at its `>` (then `index` is
    /// just past it) or at the end of the input.
    private mutating func nextAttribute() -> (String, String)? {
        while index < bytes.endIndex && (Self.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/")) {
            index += 1
        }
        guard index < bytes.endIndex else { return nil }
        if bytes[index] == UInt8(ascii: ">") {
            index += 1
            return nil
        }
        // A name runs to "=", white space, "/" or ">" (its first byte may be "=").
        let nameStart = index
        index += 1
        while index < bytes.endIndex, !Self.isSpace(bytes[index]),
            ![UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: ">")].contains(bytes[index])
        {
            index += 1
        }
        let name = lowercased(bytes[nameStart..<index])
        skipSpaces()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else { return (name, "") }
        index += 1
        skipSpaces()
        guard index < bytes.endIndex else { return (name, "") }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let valueStart = index + 1
            let close = bytes[valueStart...].firstIndex(of: quote) ?? bytes.endIndex
            index = min(close + 1, bytes.endIndex)
            return (name, String(decoding: bytes[valueStart..<close], as: UTF8.self))
        }
        let valueStart = index
        while index < bytes.endIndex && !Self.isSpace(bytes[index]) && bytes[index] != UInt8(ascii: ">") {
            index += 1
        }
        return (name, String(decoding: bytes[valueStart..<index], as: UTF8.self))
    }

    private mutating func skipSpaces() {
        while index < bytes.endIndex && Self.isSpace(bytes[index]) { index += 1 }
    }

    // MARK: - Bytes

    /// The first index at or after `from` where `text` (ASCII) starts.
    private func find(_ text: String, from: Int) -> Int? {
        let needle = Array(text.utf8)
        var at = from
        while let first = bytes[at...].firstIndex(of: needle[0]) {
            if bytes[first...].starts(with: needle) { return first }
            at = first + 1
        }
        return nil
    }

    private func starts(with text: String, at position: Int) -> Bool {
        bytes[position...].starts(with: text.utf8)
    }

    /// Whether `name` (lower-case ASCII) is at `position`, in any case.
    private func matchesCaseInsensitive(_ name: String, at position: Int) -> Bool {
        let name = Array(name.utf8)
        guard bytes.endIndex - position >= name.count else { return false }
        return zip(bytes[position..<position + name.count], name).allSatisfy { HTMLScanner.lower($0) == $1 }
    }

    private func isTagNameEnd(_ byte: UInt8) -> Bool {
        Self.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// HTML's ASCII white space: tab, line feed, form feed, carriage return, space.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private func lowercased(_ slice: ArraySlice<UInt8>) -> String {
        String(decoding: slice.map(HTMLScanner.lower), as: UTF8.self)
    }

    /// An ASCII upper-case letter in lower case; any other byte unchanged.
    static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
