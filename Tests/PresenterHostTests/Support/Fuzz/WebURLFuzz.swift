// The fuzz target for the URL a user gives add-bookmark's get-title
// (`scripts/fuzz --target web-url`): WebTitle.normalizedURL, on the input
// as UTF-8 text (malformed bytes become U+FFFD, as a line read from a
// terminal or a drive client does).
//
// Checked on every input (what the function's doc comment and
// WebTitleReplyTests promise):
//  - a result is the trimmed input, "https://" + it (no scheme, or a host
//    and port) or "https:" + it (it starts with "//"), its scheme in lower
//    case, without its user information, and with only its control
//    characters and white space percent-encoded (UTF-8);
//  - a result has an http or https scheme (in lower case) and a host (what
//    the fetcher is given), no user or password, and holds no control
//    character (ControlCharacters.escaped: format characters too) and no
//    white space;
//  - the user information (WebTitle.userInfo) holds no control character
//    and no white space, and fits its limit;
//  - a result is normalized: normalizing it again gives it back;
//  - a refusal is one line with no control character, and names the
//    trimmed input with its controls escaped and without its user
//    information (except "URL cannot be empty", given only when nothing
//    but white space was typed, and the refusal of a user information
//    past its limit).

import Foundation
#if !PRESENTER_FUZZ
    @testable import HostText
    @testable import HostBookmarks
#endif

enum WebURLFuzz {
    static func run(_ input: [UInt8]) {
        let text = fuzzText(input)
        // The product's trimming (Foundation's takes a zero-width space for white space).
        let typed = text.trimmingWhitespace(newlines: true)
        do {
            let url = try WebTitle.normalizedURL(text)
            check(url, typed: typed)
            if let userInfo = try WebTitle.userInfo(in: text) {
                if userInfo.unicodeScalars.contains(where: {
                    ControlCharacters.escaped.matches($0) || $0.properties.isWhitespace
                }) || userInfo.utf8.count > WebTitle.maxUserInfoBytes {
                    fuzzFailure("the user information of \(text.debugDescription) is \(userInfo.debugDescription)")
                }
            }
        } catch {
            fuzzCheckOneLine(error.reason, "refusing \(text.debugDescription)")
            if typed.isEmpty {
                guard error == .emptyURL else { fuzzFailure("\(text.debugDescription) gave \(error.reason)") }
            } else if error != .longUserInfo(WebTitle.maxUserInfoBytes),
                !error.reason.contains(PrintableText.escaping(WebTitle.withoutUserInfo(typed)))
            {
                fuzzFailure("refusing \(text.debugDescription) does not name it: \(error.reason)")
            }
        }
    }

    /// `text` with what comes before its first ":" in lower case: a URL's scheme.
    private static func lowercasingScheme(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let colon = scalars.firstIndex(of: ":") else { return text }
        return String(scalars[..<colon]).lowercased() + String(scalars[colon...])
    }

    private static func check(_ url: String, typed: String) {
        let variants = [typed, "https://" + typed, "https:" + typed].map {
            lowercasingScheme(WebTitle.withoutUserInfo($0))
        }
        guard variants.contains(where: { matches(url, $0) }) else {
            fuzzFailure("\(typed.debugDescription) became \(url.debugDescription)")
        }
        guard let components = URLComponents(string: url),
            let scheme = components.scheme, scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { fuzzFailure("\(url.debugDescription) has no lower-case http(s) scheme or no host") }
        guard components.user == nil && components.password == nil else {
            fuzzFailure("\(url.debugDescription) holds a user or a password")
        }
        if url.unicodeScalars.contains(where: { ControlCharacters.escaped.matches($0) || $0.properties.isWhitespace }) {
            fuzzFailure("\(url.debugDescription) holds a control character or white space")
        }
        let again: String
        do { again = try WebTitle.normalizedURL(url) } catch {
            fuzzFailure("\(url.debugDescription) is refused once normalized: \(error.reason)")
        }
        guard again == url else { fuzzFailure("\(url.debugDescription) normalizes again to \(again.debugDescription)") }
    }

    /// Whether `url` is `typed` scalar by scalar, but for the invisible
    /// ones (controls and white space), each given as "%XX" per UTF-8 byte.
    private static func matches(_ url: String, _ typed: String) -> Bool {
        var rest = Substring(url).unicodeScalars[...]
        for scalar in typed.unicodeScalars {
            if ControlCharacters.escaped.matches(scalar) || scalar.properties.isWhitespace {
                for byte in String(scalar).utf8 {
                    let escape = "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                    guard rest.starts(with: escape.unicodeScalars) else { return false }
                    rest = rest.dropFirst(3)
                }
            } else {
                guard rest.first == scalar else { return false }
                rest = rest.dropFirst()
            }
        }
        return rest.isEmpty
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let urls = [
            "example.com", "https://example.com/a/b?c=d&e=f#g", "  http://example.com \n", "HTTPS://Example.COM/",
            "localhost:8080", "example.com:8080/path", "//example.com/x", "http://[::1]:8000/", "[::1]:8080",
            "http://[fe80::1%25eth0]/", "https://user:pw@example.com/", "user:pw@example.com", "bücher.de",
            "https://xn--bcher-kva.de/", "https://例え.テスト/パス", "http://example.com/a%20b%2F%zz",
            "http://127.0.0.1:65535", "http://example.com:99999", "http://example.com:", "javascript:alert(1)",
            "mailto:someone@example.com", "ftp://example.com/file", "file:///etc/passwd", "data:text/html,<title>x",
            "http://", "https:///path", "http:/example.com", "exa mple.com", "http://a\u{1B}[2J.com",
            "http://a\u{202E}b.com", "http://a\u{00A0}b.com", "https://example.com/\u{2028}", "http://ex\tample.com",
            "https://" + String(repeating: "a", count: 300) + ".com/" + String(repeating: "x/", count: 1500),
            "h:1", "1http://x", "http:80", "http://%41.com", "http://@/", "http://:@example.com",
            "https://example.com?q", "https://example.com#", "HTTP://[::ffff:1.2.3.4]",
            "http://al%40ice:pa%3Ass@example.com/", "HTTPS://user:pw@EXAMPLE.com:8443/a@b?c=@#@",
            "ftp://user:secret@example.com/", "//user:pw@example.com/", "http://user@example.com/",
            "http://us er:p\u{1B}w@example.com/", "http://a:b@c@example.com/", "hTtP://[::1]:8080/",
            "http://:pw@example.com/", "http://" + String(repeating: "u", count: 5000) + ":pw@example.com/",
            // Found by scripts/fuzz --target web-url: a joiner after "//" hid the authority from a search by characters.
            "\u{200D}@s", "https://\u{301}user:pw@example.com/",
            // Found by it too: a zero-width space at the end stayed in the URL as it was.
            "hhtht?\u{202B}tht\u{202B}@\u{FFFD}\u{01} s\u{202B}\u{200B}", "http://a\u{200D}b.com/\u{FEFF}",
        ]
        var seeds = urls.enumerated().map { index, url in ("url-\(index)", Array(url.utf8)) }
        seeds.append(
            ("malformed-utf8", [0x68, 0x74, 0x74, 0x70, 0x3A, 0x2F, 0x2F, 0xC3, 0x28, 0xFF, 0x2E, 0x63, 0x6F]))
        return seeds
    }
}
