import HostText

/// A page's title as a browser shows it in a tab: the text of the first
/// `<title>` element (its tag in any case, with any attributes), character
/// references decoded, white space collapsed and trimmed.
///
/// Pure and total on any bytes (fuzzed: Fuzz/WebTitleFuzz.swift).
enum TitleExtractor {
    /// The most bytes of a title element's text decoded: a title is a line,
    /// and this bounds the work on a page made to be slow.
    static let maxTitleBytes = 16 * 1024

    /// Elements whose content is not markup (a `<title>` in a script is
    /// text), and those whose titles are not the page's (SVG's `<title>`,
    /// a template's).
    private static let skippedElements: Set<String> = [
        "script", "style", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript", "template", "svg", "math",
    ]

    /// The title of `page`, decoded as ``Charset/sniff(_:contentType:)``
    /// says; nil when it has no title element, or when `complete` is false
    /// (the page was cut short) and its title element did not end in what
    /// came. May be empty (`<title></title>`).
    static func title(in page: [UInt8], contentType: MediaType, complete: Bool) -> String? {
        let (charset, start) = Charset.sniff(page[...], contentType: contentType)
        let text: String
        if charset.isASCIICompatible {
            guard let range = titleRange(in: page[start...], complete: complete) else { return nil }
            text = charset.decode(page[range.lowerBound..<min(range.upperBound, range.lowerBound + maxTitleBytes)])
        } else {
            // UTF-16: the markup is found in the page turned into UTF-8.
            let utf8 = Array(charset.decode(page[start...]).utf8)
            guard let range = titleRange(in: utf8[...], complete: complete) else { return nil }
            text = String(
                decoding: utf8[range.lowerBound..<min(range.upperBound, range.lowerBound + maxTitleBytes)],
                as: UTF8.self)
        }
        return clean(HTMLEntities.decode(text))
    }

    /// Where the text of the first `<title>` element is in `bytes`: from
    /// after its start tag to its `</title>` (any case), or to the end of a
    /// complete page that never closes it, as a browser reads it.
    static func titleRange(in bytes: ArraySlice<UInt8>, complete: Bool) -> Range<Int>? {
        var scanner = HTMLScanner(bytes)
        while let token = scanner.next() {
            guard case .startTag(let name, _, let end) = token else { continue }
            if name == "title" {
                let close = scanner.skipRawText(until: "title")
                guard close < bytes.endIndex || complete else { return nil }
                return end..<max(end, close)
            }
            if skippedElements.contains(name) {
                _ = scanner.skipRawText(until: name)
            } else if name == "plaintext" {
                return nil  // everything after it is text
            }
        }
        return nil
    }

    /// `text` as one line: runs of HTML white space (space, tab, LF, FF, CR)
    /// become one space, none at either end, and the other characters of the
    /// ``ControlCharacters/terminal`` rule are dropped (a title goes to a
    /// terminal and into a file). Layout characters stay: a right-to-left
    /// title may need its marks, and they are escaped where shown.
    static func clean(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D:  // HTML's white space, not a control rule
                pendingSpace = !result.isEmpty
            case _ where ControlCharacters.terminal.matches(scalar):
                continue
            default:
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }
}
