import HostText

/// Why a title could not be had, as one precise line:
/// "HTTP 404 from http://…", "no <title> in the page", "not HTML (application/json)",
/// "more than 5 redirects", "no answer within 10 s", "cannot resolve host …",
/// "cannot connect to …", "only http and https URLs …", "cancelled". A URL
/// in a reason never shows its user information (a password).
package struct WebTitleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The reason, one line (what came from the network is escaped).
    package let reason: String
    /// The reason, as printed.
    package var description: String { reason }

    /// An error with `reason`, made one line (controls escaped).
    package init(reason: String) {
        self.reason = PrintableText.escaping(reason)
    }
}

/// Every reason get-title gives, in one place.
extension WebTitleError {
    static let emptyURL = WebTitleError(reason: "URL cannot be empty")
    static func notHTTP(_ url: String) -> WebTitleError {
        WebTitleError(reason: "only http and https URLs can be fetched, not '\(WebTitle.withoutUserInfo(url))'")
    }
    static func noHost(_ url: String) -> WebTitleError {
        WebTitleError(reason: "no host name in the URL '\(WebTitle.withoutUserInfo(url))'")
    }
    static func invalidURL(_ url: String) -> WebTitleError {
        WebTitleError(reason: "'\(WebTitle.withoutUserInfo(url))' is not a valid URL")
    }
    static func longUserInfo(_ limit: Int) -> WebTitleError {
        WebTitleError(
            reason: "the user name and password in the URL are longer than \(limit) bytes; give shorter ones")
    }

    static func http(_ status: Int, from url: String) -> WebTitleError {
        WebTitleError(reason: "HTTP \(status) from \(WebTitle.withoutUserInfo(url))")
    }
    static func notHTML(_ essence: String) -> WebTitleError { WebTitleError(reason: "not HTML (\(essence))") }
    static let noTitle = WebTitleError(reason: "no <title> in the page")
    static let emptyTitle = WebTitleError(reason: "the page's <title> is empty")
    static func noTitleInFirst(bytes: Int) -> WebTitleError {
        WebTitleError(reason: "no <title> in the first \(bytes >> 20) MiB of the page")
    }
    static let cut = WebTitleError(reason: "the connection ended before the page's <title>")
    static func ipv6Address(_ host: String) -> WebTitleError {
        WebTitleError(
            reason:
                "cannot fetch from the IPv6 address \(host): the HTTP library presenter-host-fetch uses refuses such URLs; give a host name for it, or type the title yourself"
        )
    }
    static func redirects(_ limit: Int) -> WebTitleError { WebTitleError(reason: "more than \(limit) redirects") }
    static func redirectScheme(_ url: String) -> WebTitleError {
        WebTitleError(
            reason: "redirected to '\(WebTitle.withoutUserInfo(url))': only http and https URLs can be fetched")
    }
    static func timeout(_ seconds: Double) -> WebTitleError {
        WebTitleError(reason: "no answer within \(WebTitle.format(seconds: seconds)) s")
    }
    static func resolve(_ host: String) -> WebTitleError { WebTitleError(reason: "cannot resolve host \(host)") }
    static func connect(_ hostAndPort: String) -> WebTitleError {
        WebTitleError(reason: "cannot connect to \(hostAndPort)")
    }
    /// What the handshake's reason advises (dropped once http was tried).
    private static let handshakeAdvice = " (for a plain HTTP server, give the URL with http://)"
    static func handshake(_ hostAndPort: String) -> WebTitleError {
        WebTitleError(reason: "the TLS handshake with \(hostAndPort) failed" + handshakeAdvice)
    }
    static func certificate(_ hostAndPort: String, _ why: String?) -> WebTitleError {
        WebTitleError(reason: "the certificate of \(hostAndPort) is not trusted" + (why.map { " (\($0))" } ?? ""))
    }
    /// The reason without the handshake's advice (give http://), once http
    /// is tried anyway.
    var withoutAdvice: String { reason.replacingEvery(Self.handshakeAdvice, with: "") }
    /// A URL typed without a scheme: https (`first`) could not connect or
    /// its handshake failed, then http failed too, with no response.
    static func neither(https first: WebTitleError, http second: WebTitleError) -> WebTitleError {
        let https = first.withoutAdvice
        return WebTitleError(
            reason: https == second.reason
                ? "\(https) over https or http" : "over https, \(https); over http, \(second.reason)")
    }
    static func other(_ url: String, _ detail: String) -> WebTitleError {
        WebTitleError(reason: "cannot fetch \(WebTitle.withoutUserInfo(url)): \(detail)")
    }
    static let cancelled = WebTitleError(reason: "cancelled")

    static func fetcherMissing(_ paths: [String]) -> WebTitleError {
        WebTitleError(
            reason: "cannot find presenter-host-fetch (looked for \(paths.joined(separator: " and "))); "
                + "install it with presenter-host")
    }
    static func fetcherFailed(_ path: String, _ what: String) -> WebTitleError {
        WebTitleError(reason: "\(path) \(what)")
    }
}
