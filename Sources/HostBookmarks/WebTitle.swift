import HostText

/// Get-title's rules: which URLs are fetched, and what a fetch's reply
/// means (a title, or a precise reason). The fetch itself is
/// ``WebTitleFetch``.
package enum WebTitle {
    /// Redirects followed before giving up.
    static let maxRedirects = 5
    /// The most bytes of a page read: 1 MiB.
    static let maxBytes = 1 << 20

    /// The longest user information (`user:password`, percent-encoded as
    /// typed) sent with a request: it goes to the fetcher through a pipe,
    /// written whole before the fetcher starts, and a pipe holds at least
    /// this much.
    static let maxUserInfoBytes = 4095

    /// What the user typed, as the URL to fetch, save and show: trimmed; no
    /// scheme → "https://" + it; only http/https (else throws); no host →
    /// throws; the scheme in lower case; no user information (a user name
    /// and password, "http://user:pass@host/" → "http://host/": they are
    /// sent with the request, ``userInfo(in:)``, and never saved, listed or
    /// printed); control, bidi and other invisible format characters
    /// (``ControlCharacters/escaped``: a zero-width space too) and white
    /// space inside it percent-encoded.
    ///
    /// "example.com:8080/x" has no scheme (a port follows the colon) and
    /// becomes "https://example.com:8080/x"; "mailto:x@y" has one, and is
    /// refused. "https://x/a b" becomes "https://x/a%20b": the URL fetched
    /// (the fetcher's `URL(string:)` sends it so), saved and shown is one
    /// line with nothing hidden in it. "HTTP://x/" becomes "http://x/"
    /// (schemes are compared without regard to case, RFC 3986; the
    /// fetcher's library knows only the lower-case ones).
    package static func normalizedURL(_ text: String) throws(WebTitleError) -> String {
        try parse(text).url
    }

    /// The user information of what the user typed ("user:pass" in
    /// "http://user:pass@host/"), percent-encoded as typed, its controls
    /// and white space encoded too: nil when there is none (or it is
    /// empty). The fetcher sends it as HTTP Basic authentication, to that
    /// URL's origin only.
    /// - Throws: what ``normalizedURL(_:)`` throws.
    package static func userInfo(in text: String) throws(WebTitleError) -> String? {
        try parse(text).userInfo
    }

    /// `text` as the URL fetched, and the user information taken out of it.
    private static func parse(_ text: String) throws(WebTitleError) -> (url: String, userInfo: String?) {
        let typed = text.trimmingWhitespace(newlines: true)
        guard !typed.isEmpty else { throw .emptyURL }
        let url: String
        if typed.hasPrefix("//") {
            url = "https:" + typed
        } else {
            url = hasScheme(typed) ? typed : "https://" + typed
        }
        guard let address = WebAddress(url) else { throw .invalidURL(typed) }
        let scheme = address.scheme.lowercased()
        guard scheme == "http" || scheme == "https" else { throw .notHTTP(typed) }
        guard let host = address.host, !host.isEmpty else { throw .noHost(typed) }
        let (rest, userInfo) = splitUserInfo(url)
        let encoded = userInfo.map(percentEncodingInvisible)
        if let encoded, encoded.utf8.count > maxUserInfoBytes { throw .longUserInfo(maxUserInfoBytes) }
        let afterScheme = String(String.UnicodeScalarView(rest.unicodeScalars.dropFirst(scheme.unicodeScalars.count)))
        return (scheme + percentEncodingInvisible(afterScheme), encoded)
    }

    /// `url` without the user information of its authority ("scheme://"
    /// or "//", then up to the first "/", "?" or "#"; what comes before
    /// the authority's last "@"), and that user information (nil when
    /// there is none or it is empty). Anything else is left as it is.
    /// Scalar by scalar: a joiner or a combining mark after a "/" or an "@"
    /// must not hide it, as it would from a comparison of characters.
    private static func splitUserInfo(_ url: String) -> (url: String, userInfo: String?) {
        let scalars = Array(url.unicodeScalars)
        let delimiters: Set<Unicode.Scalar> = ["/", "?", "#"]
        guard let start = scalars.indices.first(where: { scalars[$0...].starts(with: ["/", "/"]) }) else {
            return (url, nil)
        }
        // "//" starts the authority only right after a scheme's colon, or at the start.
        let prefix = scalars[..<start]
        guard prefix.isEmpty || (prefix.last == ":" && !prefix.dropLast().contains(where: delimiters.contains))
        else { return (url, nil) }
        let authority = start + 2
        let end = scalars[authority...].firstIndex(where: delimiters.contains) ?? scalars.endIndex
        guard let at = scalars[authority..<end].lastIndex(of: "@") else { return (url, nil) }
        let text = { (part: ArraySlice<Unicode.Scalar>) in String(String.UnicodeScalarView(part)) }
        let userInfo = text(scalars[authority..<at])
        return (text(scalars[..<authority]) + text(scalars[(at + 1)...]), userInfo.isEmpty ? nil : userInfo)
    }

    /// `text` (a URL, or what was typed as one) without the user
    /// information in its authority: what an error or a listing shows of
    /// a URL, so that a password in it is never printed.
    package static func withoutUserInfo(_ text: String) -> String {
        let url = splitUserInfo(text).url
        // Typed without "//" ("admin:secret@router.lan" reads as the scheme
        // "admin"): what comes between the first ":" and an "@" ahead of the
        // first "/", "?" or "#" may be a password too, and is shown as "…"
        // ("admin:…@router.lan", "mailto:…@example.com").
        let scalars = Array(url.unicodeScalars)
        let end = scalars.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? scalars.endIndex
        guard let at = scalars[..<end].lastIndex(of: "@") else { return url }
        let text = { (part: ArraySlice<Unicode.Scalar>) in String(String.UnicodeScalarView(part)) }
        let kept = scalars[..<at].firstIndex(of: ":").map { text(scalars[...$0]) } ?? ""
        return kept + "…" + text(scalars[at...])
    }

    /// `url` with each control, bidi or format character and white space
    /// as its UTF-8 bytes percent-encoded. Only the path, query, fragment
    /// and user info can hold a control: ``WebAddress`` refuses such a host.
    private static func percentEncodingInvisible(_ url: String) -> String {
        var result = ""
        for scalar in url.unicodeScalars {
            if ControlCharacters.escaped.matches(scalar) || scalar.properties.isWhitespace {
                for byte in String(scalar).utf8 {
                    result += (byte < 0x10 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
                }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The URLs get-title tries for what the user typed, in order. A URL
    /// typed with its scheme is tried as given: `https://` never falls
    /// back, and `http://` is never upgraded. One typed without a scheme
    /// ("example.com", "//example.com") is tried as a browser tries a typed
    /// address: over https first, then over http when that connection or
    /// its TLS handshake fails (``fallsBack(after:)``).
    /// - Throws: what ``normalizedURL(_:)`` throws.
    package static func attempts(for text: String) throws(WebTitleError) -> [String] {
        let url = try normalizedURL(text)
        let typed = text.trimmingWhitespace(newlines: true)
        guard typed.hasPrefix("//") || !hasScheme(typed) else { return [url] }
        return [url, "http" + url.dropFirst("https".count)]
    }

    /// Whether an https attempt that got `reply` is tried again over http
    /// (for a URL typed without a scheme): when it could not connect, or
    /// the TLS handshake failed (a plain-HTTP server on that port). Not
    /// when the server's certificate was refused: a server that speaks TLS
    /// answered, and could not prove who it is; fetching the page over
    /// plain http instead would hide that from the user (and hand the
    /// fetch to whoever made the certificate fail). Not on a timeout
    /// either: the whole budget is spent.
    static func fallsBack(after reply: WebTitleReply) -> Bool {
        guard case .failure(let kind, _) = reply else { return false }
        return ["connect", "handshake", "tls"].contains(kind)
    }

    /// Whether `text` starts with a scheme ("name:"), and not with a host
    /// and port ("localhost:8080", "example.com:80/path").
    private static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else {
            return false
        }
        let name = text[..<colon]
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return false
        }
        let rest = text[text.index(after: colon)...]
        let port = rest.prefix(while: { $0.isASCII && $0.isNumber })
        let isPort = !port.isEmpty && (port.endIndex == rest.endIndex || "/?#".contains(rest[port.endIndex]))
        return !isPort
    }

    /// What a reply from presenter-host-fetch for `url` means.
    static func title(from reply: WebTitleReply, url: String, timeout: Double) -> Result<String, WebTitleError> {
        switch reply {
        case .failure(let kind, let detail):
            let address = WebAddress(url)
            let host = address?.host ?? url
            switch kind {
            case "timeout": return .failure(.timeout(timeout))
            case "redirects": return .failure(.redirects(Int(detail) ?? maxRedirects))
            case "resolve": return .failure(.resolve(host))
            case "connect": return .failure(.connect(hostAndPort(address, host: host)))
            case "handshake", "tls":
                // "tls" is an older fetcher's kind: its detail, the library's own words, is not shown.
                return .failure(.handshake(hostAndPort(address, host: host)))
            case "certificate": return .failure(.certificate(hostAndPort(address, host: host), plainWords(detail)))
            case "scheme": return .failure(.redirectScheme(detail))
            default: return .failure(.other(url, detail))
            }
        case .response(let response):
            guard (200..<300).contains(response.status) else {
                return .failure(.http(response.status, from: response.url))
            }
            let type = MediaType(response.contentType)
            guard type.isHTML else { return .failure(.notHTML(type.essence)) }
            let complete = response.end == .complete
            if let title = TitleExtractor.title(in: response.body, contentType: type, complete: complete) {
                return title.isEmpty ? .failure(.emptyTitle) : .success(title)
            }
            switch response.end {
            case .complete: return .failure(.noTitle)
            case .limit: return .failure(.noTitleInFirst(bytes: maxBytes))
            case .timeout: return .failure(.timeout(timeout))
            case .cut: return .failure(.cut)
            }
        }
    }

    /// "host:port", the port the scheme's default when the URL has none.
    private static func hostAndPort(_ address: WebAddress?, host: String) -> String {
        "\(host):\(address?.port ?? (address?.scheme.lowercased() == "http" ? 80 : 443))"
    }

    /// `detail` when it is plain words ("self-signed certificate",
    /// "certificate has expired": OpenSSL's verification reasons), else
    /// nil: a library's codes ("error:0A000086:SSL routines::...") are
    /// not shown to the user.
    static func plainWords(_ detail: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.'()-")
        let words = detail.trimmingWhitespace()
        guard !words.isEmpty, words.count <= 120, words.allSatisfy({ allowed.contains($0) }),
            words.contains(where: { $0.isLetter })
        else { return nil }
        return words
    }

    /// Seconds as a person writes them: "10", "0.5".
    static func format(seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}
