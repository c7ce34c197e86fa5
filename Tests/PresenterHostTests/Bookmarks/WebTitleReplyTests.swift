import Foundation
@testable import HostBookmarks
import Testing

/// The URL rules, the fetcher's reply format, and what a reply means.
@Suite("Get-title: URLs, replies and reasons")
struct WebTitleReplyTests {
    // MARK: - URLs

    @Test(
        arguments: [
            ("example.com", "https://example.com"),
            ("  example.com/a?b#c \n", "https://example.com/a?b#c"),
            ("http://example.com", "http://example.com"),
            ("HTTPS://Example.com/", "https://Example.com/"),  // the library knows lower-case schemes only
            ("localhost:8080", "https://localhost:8080"),
            ("example.com:8080/path", "https://example.com:8080/path"),
            ("//example.com/x", "https://example.com/x"),
            ("bücher.de", "https://bücher.de"),
            ("user:pw@example.com", nil),  // "user:" reads as a scheme
            ("http://[::1]:8000/", "http://[::1]:8000/"),
            // Found by scripts/fuzz --target web-url: these were returned as typed.
            ("https://x/a b?q=c d#e f", "https://x/a%20b?q=c%20d#e%20f"),
            // A user and password are sent, never kept in the URL (userInfo(in:)).
            ("https://u s@example.com/", "https://example.com/"),
            ("HTTP://al%40ice:pa%3Ass@example.com:8080/a@b?c=@", "http://example.com:8080/a@b?c=@"),
            ("//user:pw@example.com/x", "https://example.com/x"),
            ("http://example.com/\u{1B}[2J\u{7F}", "http://example.com/%1B[2J%7F"),
            ("http://example.com/a\tb\u{9B}c", "http://example.com/a%09b%C2%9Bc"),
            ("https://example.com/a\u{202E}b\u{2028}c\u{A0}d", "https://example.com/a%E2%80%AEb%E2%80%A8c%C2%A0d"),
            ("https://example.com/a%20b", "https://example.com/a%20b"),
            ("https://example.com/a\u{200B}b?\u{FEFF}", "https://example.com/a%E2%80%8Bb?%EF%BB%BF"),
        ] as [(String, String?)])
    func aTypedURLBecomesTheURLFetched(typed: String, expected: String?) {
        #expect((try? WebTitle.normalizedURL(typed)) == expected)
    }

    @Test(
        arguments: [
            ("http://example.com/", nil),
            ("http://@example.com/", nil),
            ("https://u s@example.com/", "u%20s"),
            ("HTTP://al%40ice:pa%3Ass@example.com:8080/a@b?c=@", "al%40ice:pa%3Ass"),
            ("user:pw@example.com/x", nil),  // refused: "user:" reads as a scheme
            ("//user:pw@example.com/x", "user:pw"),
        ] as [(String, String?)])
    func theUserInformationIsTakenOutOfTheURL(typed: String, expected: String?) {
        #expect((try? WebTitle.userInfo(in: typed)) == expected)
    }

    @Test func aUserInformationPastItsLimitIsRefused() throws {
        let typed = "http://" + String(repeating: "u", count: WebTitle.maxUserInfoBytes) + ":pw@example.com/"
        #expect(throws: WebTitleError.longUserInfo(WebTitle.maxUserInfoBytes)) { try WebTitle.userInfo(in: typed) }
        let fits = "http://" + String(repeating: "u", count: WebTitle.maxUserInfoBytes) + "@example.com/"
        #expect(try WebTitle.userInfo(in: fits)?.utf8.count == WebTitle.maxUserInfoBytes)
    }

    @Test(arguments: [
        ("", "URL cannot be empty"),
        ("   ", "URL cannot be empty"),
        ("ftp://example.com/file", "only http and https URLs can be fetched, not 'ftp://example.com/file'"),
        ("ftp://user:secret@example.com/", "only http and https URLs can be fetched, not 'ftp://example.com/'"),
        ("http://user:secret@", "no host name in the URL 'http://'"),
        ("mailto:someone@example.com", "only http and https URLs can be fetched, not 'mailto:…@example.com'"),
        ("javascript:alert(1)", "only http and https URLs can be fetched, not 'javascript:alert(1)'"),
        ("http://", "no host name in the URL 'http://'"),
        ("https:///path", "no host name in the URL 'https:///path'"),
        ("http:/example.com", "no host name in the URL 'http:/example.com'"),
        ("exa mple.com", "'exa mple.com' is not a valid URL"),
        ("http://a\u{1B}[2J.com", "'http://a\\x1B[2J.com' is not a valid URL"),
    ])
    func aURLThatCannotBeFetchedSaysWhy(typed: String, reason: String) {
        #expect(throws: WebTitleError(reason: reason)) { try WebTitle.normalizedURL(typed) }
    }

    // MARK: - The reply format

    private func response(
        status: Int = 200, url: String = "http://example.com/", type: String = "text/html",
        body: String, end: String = "complete"
    ) -> [UInt8] {
        Array(
            "presenter-host-fetch reply 1\nstatus \(status)\nurl \(url)\ncontent-type \(type)\nredirects 0\nbody \(body.utf8.count) \(end)\n\(body)"
                .utf8)
    }

    @Test func aResponseIsRead() throws {
        let reply = try WebTitleReply.decode(
            response(type: "text/html; charset=utf-8", body: "<title>x</title>\n"),
            maxBody: 100)
        #expect(
            reply
                == .response(
                    .init(
                        status: 200, url: "http://example.com/", contentType: "text/html; charset=utf-8",
                        redirects: 0, body: Array("<title>x</title>\n".utf8), end: .complete)))
    }

    @Test func aFailureIsRead() throws {
        #expect(
            try WebTitleReply.decode(Array("presenter-host-fetch reply 1\nfailure redirects 5\n".utf8), maxBody: 1)
                == .failure(kind: "redirects", detail: "5"))
        #expect(
            try WebTitleReply.decode(Array("presenter-host-fetch reply 1\nfailure timeout\n".utf8), maxBody: 1)
                == .failure(kind: "timeout", detail: ""))
    }

    @Test(arguments: [
        ("", "it ends early"),
        ("HTTP/1.1 200 OK\n", "it does not start with 'presenter-host-fetch reply '"),
        ("presenter-host-fetch reply one\n", "its version is not a number"),
        ("presenter-host-fetch reply 1\nfailure explode\n", "unknown failure kind 'explode'"),
        ("presenter-host-fetch reply 1\nfailure timeout\nmore", "bytes follow its end"),
        ("presenter-host-fetch reply 1\nstatus 200\n", "it ends early"),
        ("presenter-host-fetch reply 1\nstatus 2000\n", "'status' is not a number from 0 to 999"),
        (
            "presenter-host-fetch reply 1\nstatus 200\nurl x\ncontent-type \nredirects 0\nbody 5 complete\nabc",
            "its body is shorter than announced"
        ),
        (
            "presenter-host-fetch reply 1\nstatus 200\nurl x\ncontent-type \nredirects 0\nbody 11 complete\n",
            "its body line is not 'body N complete|limit|timeout|cut' with N up to 10"
        ),
        (
            "presenter-host-fetch reply 1\nstatus 200\nurl x\ncontent-type \nredirects 0\nbody 1 finished\nx",
            "its body line is not 'body N complete|limit|timeout|cut' with N up to 10"
        ),
        (
            "presenter-host-fetch reply 1\nstatus 200\nurl x\ncontent-type \nredirects 0\nbody 1 complete\nxy",
            "bytes follow its end"
        ),
        ("presenter-host-fetch reply 1\nstatus 200\ncontent-type x\n", "'url' is missing"),
        ("presenter-host-fetch reply 1\nfailure other a\u{1B}b\n", "a line is not UTF-8 text"),
    ])
    func aBrokenReplyIsRefusedWithTheReason(text: String, reason: String) {
        #expect(throws: WebTitleReply.Malformed(reason)) { try WebTitleReply.decode(Array(text.utf8), maxBody: 10) }
    }

    @Test func aLineLongerThanTheLimitIsRefused() {
        let long =
            "presenter-host-fetch reply 1\nfailure other " + String(repeating: "x", count: WebTitleReply.maxLineBytes)
        #expect(throws: WebTitleReply.Malformed("a line is too long or unended")) {
            try WebTitleReply.decode(Array((long + "\n").utf8), maxBody: 10)
        }
        #expect(throws: WebTitleReply.Malformed("a line is not UTF-8 text")) {
            try WebTitleReply.decode([0xFF, 0x0A], maxBody: 10)
        }
    }

    // MARK: - What a reply means

    private func meaning(_ bytes: [UInt8], url: String = "http://example.com/", timeout: Double = 10)
        throws -> Result<String, WebTitleError>
    {
        WebTitle.title(from: try WebTitleReply.decode(bytes, maxBody: WebTitle.maxBytes), url: url, timeout: timeout)
    }

    private func reason(_ text: String) -> Result<String, WebTitleError> { .failure(WebTitleError(reason: text)) }

    @Test func aPageGivesItsTitle() throws {
        #expect(try meaning(response(body: "<title> The  Title </title>")) == .success("The Title"))
    }

    @Test func aStatusOtherThan2xxNamesTheStatusAndTheURLThatGaveIt() throws {
        #expect(
            try meaning(response(status: 404, url: "http://example.com/gone", body: "<title>404</title>"))
                == reason("HTTP 404 from http://example.com/gone"))
        #expect(try meaning(response(status: 304, body: "")) == reason("HTTP 304 from http://example.com/"))
        #expect(try meaning(response(status: 204, body: "")) == reason("no <title> in the page"))
    }

    @Test func whyABodyHasNoTitleDependsOnHowItEnded() throws {
        #expect(try meaning(response(body: "<p>none")) == reason("no <title> in the page"))
        #expect(
            try meaning(response(body: "<p>none", end: "limit")) == reason("no <title> in the first 1 MiB of the page"))
        #expect(
            try meaning(response(body: "<title>cut", end: "timeout"), timeout: 2.5) == reason("no answer within 2.5 s"))
        #expect(
            try meaning(response(body: "<title>cut", end: "cut"))
                == reason("the connection ended before the page's <title>"))
        #expect(try meaning(response(body: "<title>ended</title>", end: "timeout")) == .success("ended"))
    }

    @Test func aTitleFromTheNetworkCannotBreakTheReasonsLine() throws {
        // (The fetcher turns control characters into spaces; bidirectional controls get this far.)
        #expect(
            try meaning(response(type: "application/x-\u{202E}evil", body: ""))
                == reason("not HTML (application/x-\\u{202E}evil)"))
    }

    @Test(arguments: [
        ("timeout", "", "no answer within 10 s"),
        ("redirects", "5", "more than 5 redirects"),
        ("resolve", "", "cannot resolve host example.com"),
        ("connect", "", "cannot connect to example.com:8080"),
        (
            "handshake", "",
            "the TLS handshake with example.com:8080 failed (for a plain HTTP server, give the URL with http://)"
        ),
        (
            "certificate", "certificate has expired",
            "the certificate of example.com:8080 is not trusted (certificate has expired)"
        ),
        ("certificate", "", "the certificate of example.com:8080 is not trusted"),
        // An older fetcher's kind: the library's words are not shown.
        (
            "tls", "error:0A00010B:SSL routines::wrong version number",
            "the TLS handshake with example.com:8080 failed (for a plain HTTP server, give the URL with http://)"
        ),
        ("certificate", "error:0A000086:SSL routines::x", "the certificate of example.com:8080 is not trusted"),
        ("scheme", "ftp://example.com/", "redirected to 'ftp://example.com/': only http and https URLs can be fetched"),
        ("other", "something broke", "cannot fetch http://example.com:8080/x: something broke"),
    ])
    func eachFailureKindHasItsReason(kind: String, detail: String, expected: String) throws {
        let text = "presenter-host-fetch reply 1\nfailure \(kind)\(detail.isEmpty ? "" : " " + detail)\n"
        #expect(try meaning(Array(text.utf8), url: "http://example.com:8080/x") == reason(expected))
    }

    @Test func aConnectFailureNamesTheSchemesDefaultPort() throws {
        let text = Array("presenter-host-fetch reply 1\nfailure connect\n".utf8)
        #expect(try meaning(text, url: "http://example.com/") == reason("cannot connect to example.com:80"))
        #expect(try meaning(text, url: "https://example.com/") == reason("cannot connect to example.com:443"))
    }

    @Test func secondsAreWrittenAsAPersonWritesThem() {
        #expect(WebTitle.format(seconds: 10) == "10")
        #expect(WebTitle.format(seconds: 0.5) == "0.5")
        #expect(WebTitle.format(seconds: 2.25) == "2.25")
    }
}
