/// A `Content-Type` header's value, as far as get-title needs it: the
/// media type (`text/html`), and the `charset` parameter.
struct MediaType: Equatable, Sendable {
    /// type/subtype in lower case, e.g. "text/html"; "" when the header is
    /// empty or absent.
    let essence: String
    /// The charset parameter's value (unquoted, as written), if any.
    let charset: String?

    /// Parses `text/html; charset="ISO-8859-1"`: parameters split at `;`,
    /// names in any case, values quoted or not.
    init(_ header: String) {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        essence = parts.first.map { $0.trimmingASCIISpaces().lowercased() } ?? ""
        var charset: String?
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingASCIISpaces().lowercased()
            guard name == "charset", charset == nil else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingASCIISpaces()
            if value.hasPrefix("\"") {
                value = value.dropFirst()
                value = value.prefix(while: { $0 != "\"" })
            }
            charset = String(value)
        }
        self.charset = charset
    }

    /// An HTML page: `text/html` or `application/xhtml+xml`; also a
    /// response that names no type, which a browser would sniff.
    var isHTML: Bool {
        essence.isEmpty || essence == "text/html" || essence == "application/xhtml+xml"
    }
}

extension StringProtocol {
    /// Without HTTP's and HTML's white space (space, tab, CR, LF, FF) at either end.
    func trimmingASCIISpaces() -> Substring {
        let isSpace: (Character) -> Bool = { " \t\r\n\u{0C}".contains($0) }
        let text = Substring(self)
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[first...last]
    }
}
