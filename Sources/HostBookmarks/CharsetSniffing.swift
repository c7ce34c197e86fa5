/// How a page's charset is chosen, in a browser's order: a byte order mark,
/// else the `Content-Type` header's charset, else a `<meta charset>` or
/// `<meta http-equiv="Content-Type" content="...; charset=...">` in the
/// first 1,024 bytes, else UTF-8. A label not known to ``Charset`` counts
/// as none.
extension Charset {
    /// How much of a page the meta prescan reads.
    static let prescanLength = 1024

    /// The charset to decode `page` with, and where its text starts (after
    /// a byte order mark).
    static func sniff(_ page: ArraySlice<UInt8>, contentType: MediaType) -> (charset: Charset, textStart: Int) {
        let start = page.startIndex
        if page.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, start + 3) }
        if page.starts(with: [0xFE, 0xFF]) { return (.utf16(bigEndian: true), start + 2) }
        if page.starts(with: [0xFF, 0xFE]) { return (.utf16(bigEndian: false), start + 2) }
        if let label = contentType.charset, let charset = Charset(label: label) { return (charset, start) }
        return (prescan(page.prefix(prescanLength)) ?? .utf8, start)
    }

    /// The charset a meta tag in `head` declares, if a known one. A page
    /// whose bytes are read as ASCII to find its meta tag cannot be UTF-16,
    /// so a meta that says so means UTF-8 (as the HTML standard says).
    static func prescan(_ head: ArraySlice<UInt8>) -> Charset? {
        var scanner = HTMLScanner(head)
        while let token = scanner.next() {
            // A tag cut off by the end of the window does not count.
            guard case .startTag("meta", let attributes, let end) = token, end > head.startIndex,
                head[end - 1] == UInt8(ascii: ">")
            else { continue }
            let value = { (name: String) in attributes.first(where: { $0.0 == name })?.1 }
            var label = value("charset")
            if label == nil, value("http-equiv")?.lowercased() == "content-type", let content = value("content") {
                label = charsetInMetaContent(content)
            }
            guard let label, let charset = Charset(label: label) else { continue }
            if case .utf16 = charset { return .utf8 }
            return charset
        }
        return nil
    }

    /// The charset in a meta tag's `content` ("text/html; charset=koi8-r"),
    /// found as the HTML standard finds it: the first "charset" followed by
    /// "=", then a quoted value or one up to white space or ";".
    static func charsetInMetaContent(_ content: String) -> String? {
        let text = Array(content.utf8)
        let key = Array("charset".utf8)
        var index = 0
        while index + key.count <= text.count {
            guard zip(text[index..<index + key.count], key).allSatisfy({ HTMLScanner.lower($0) == $1 }) else {
                index += 1
                continue
            }
            index += key.count
            while index < text.count && HTMLScanner.isSpace(text[index]) { index += 1 }
            guard index < text.count, text[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < text.count && HTMLScanner.isSpace(text[index]) { index += 1 }
            guard index < text.count else { return nil }
            let quote = text[index]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                guard let close = text[(index + 1)...].firstIndex(of: quote) else { return nil }
                return String(decoding: text[(index + 1)..<close], as: UTF8.self)
            }
            let end =
                text[index...].firstIndex(where: { HTMLScanner.isSpace($0) || $0 == UInt8(ascii: ";") })
                ?? text.count
            return end > index ? String(decoding: text[index..<end], as: UTF8.self) : nil
        }
        return nil
    }
}
