import Foundation
@testable import HostBookmarks
import Testing

/// A URL typed without a scheme, as a browser takes a typed address: https
/// first, http when that connection or its TLS handshake fails, said under
/// `-v`; one line naming both when both fail; a URL given with its scheme
/// never changes it; a refused certificate is not downgraded to http. The
/// real fetcher against the plain-HTTP title server, a closed port, and a
/// loopback server that speaks TLS (a certificate no client trusts) and
/// plain HTTP on one port (Fixtures/web/tls_server.py).
///
/// Serialized: the TLS server counts handshakes for the whole process, and
/// only this suite uses it.
@Suite("Get-title: a URL without a scheme tries https, then http", .serialized)
struct WebTitleSchemeTests {
    private var plain: TitleServer { TitleServer.shared }
    private var both: TitleServer { TitleServer.bothProtocols }

    /// One fetch with the real fetcher; the result, the URL that answered
    /// and the notes it made.
    private func fetch(_ url: String) -> (Result<String, WebTitleError>, String?, [String]) {
        let notes = LockedBox<[String]>([])
        let fetch = WebTitleFetch(
            url: url, timeout: 10, environment: WebTitleFetchTests.noProxies, fetcher: WebTitleFetchTests.fetcher,
            note: { note in notes.mutate { $0.append(note) } })
        let result = fetch.run()
        return (result, fetch.fetchedURL, notes.value)
    }

    /// The TLS server's counts: handshakes begun, plain /page requests.
    private func counts() throws -> (tls: Int, http: Int) {
        let words = try both.ask("/count").split(separator: " ")
        let values = words.compactMap { $0.split(separator: "=").last.flatMap { Int($0) } }
        try #require(values.count == 2, "the server said \(words)")
        return (values[0], values[1])
    }

    /// No library's codes reach the user ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number").
    private func expectWords(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for code in ["error:", "OpenSSL", "SSL routines", "SSL_"] {
            #expect(!text.contains(code), "'\(code)' in \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func aTypedURLOnAPlainHTTPServerFallsBackToHTTPAndSaysSo() {
        let port = plain.port
        let (result, answered, notes) = fetch("127.0.0.1:\(port)/page?title=Plain%20Site")
        #expect(result == .success("Plain Site"))
        #expect(answered == "http://127.0.0.1:\(port)/page?title=Plain%20Site")
        #expect(
            notes == [
                "https://127.0.0.1:\(port)/page?title=Plain%20Site: the TLS handshake with 127.0.0.1:\(port) failed; "
                    + "trying http://127.0.0.1:\(port)/page?title=Plain%20Site"
            ])
        notes.forEach { expectWords($0) }
    }

    @Test func aTypedURLAtAClosedPortNamesBothAttemptsInOneLine() {
        let refusing = RefusingPort()
        defer { refusing.close() }
        let (result, _, notes) = fetch("127.0.0.1:\(refusing.port)/")
        #expect(
            result == .failure(WebTitleError(reason: "cannot connect to 127.0.0.1:\(refusing.port) over https or http"))
        )
        #expect(notes.count == 1 && notes[0].hasSuffix("; trying http://127.0.0.1:\(refusing.port)/"), "\(notes)")
    }

    @Test func aURLGivenWithHTTPSNeverFallsBack() throws {
        let path = "/page?title=Never&\(UUID())"
        let (result, _, notes) = fetch("https://127.0.0.1:\(plain.port)\(path)")
        #expect(
            result
                == .failure(
                    WebTitleError(
                        reason: "the TLS handshake with 127.0.0.1:\(plain.port) failed "
                            + "(for a plain HTTP server, give the URL with http://)")))
        #expect(notes.isEmpty)
        // No plain request for it came.
        #expect(
            try plain.ask("/seen?path=\(path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)") == "0")
        if case .failure(let error) = result { expectWords(error.reason) }
    }

    @Test func aURLGivenWithHTTPIsNeverUpgraded() throws {
        let before = try counts()
        let (result, answered, notes) = fetch("http://127.0.0.1:\(both.port)/page")
        #expect(result == .success("Over http"))
        #expect(answered == "http://127.0.0.1:\(both.port)/page" && notes.isEmpty)
        let after = try counts()
        #expect(after.tls == before.tls, "a TLS handshake was begun")
        #expect(after.http == before.http + 1)
    }

    @Test func aTypedURLTriesHTTPSFirstAndARefusedCertificateIsNotDowngraded() throws {
        let before = try counts()
        let (result, answered, notes) = fetch("127.0.0.1:\(both.port)/page")
        // The server answers plain HTTP on the same port: a downgrade would have fetched "Over http".
        #expect(
            result
                == .failure(
                    WebTitleError(
                        reason: "the certificate of 127.0.0.1:\(both.port) is not trusted (self-signed certificate)")
                ))
        #expect(answered == "https://127.0.0.1:\(both.port)/page")
        let after = try counts()
        #expect(after.tls == before.tls + 1, "https was not tried")
        #expect(after.http == before.http, "the page was fetched over http")
        #expect(
            notes == [
                "https://127.0.0.1:\(both.port)/page: the certificate is refused; not trying http "
                    + "(a certificate error is no connection failure)"
            ])
    }

    @Test func aURLGivenWithHTTPSGetsTheCertificatesReasonInWords() throws {
        let (result, _, _) = fetch("https://127.0.0.1:\(both.port)/page")
        #expect(
            result
                == .failure(
                    WebTitleError(
                        reason: "the certificate of 127.0.0.1:\(both.port) is not trusted (self-signed certificate)")
                ))
    }

    // MARK: - Through the binary

    private func host(_ arguments: [String], store: String? = nil) throws -> ProcessResult {
        var environment = WebTitleFetchTests.noProxies
        environment["PRESENTER_BOOKMARKS"] = store ?? TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        return try ProcessRunner.run(TestPaths.binary, ["add-bookmark"] + arguments, environment: environment)
    }

    @Test func getTitleUnderVerboseSaysItTriesHTTPAndPrintsTheTitle() throws {
        let url = "127.0.0.1:\(plain.port)/page?title=From%20HTTP"
        let quiet = try host(["--url", url, "--get-title"])
        #expect(quiet.status == 0 && quiet.stdout == "From HTTP\n", "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("trying http"))
        let verbose = try host(["--url", url, "--get-title", "-v"])
        #expect(verbose.status == 0 && verbose.stdout == "From HTTP\n", "\(verbose.stderr)")
        #expect(
            verbose.stderr.contains(
                "presenter-host: info: https://\(url): the TLS handshake with 127.0.0.1:\(plain.port) failed; "
                    + "trying http://\(url)\n"), "\(verbose.stderr)")
        expectWords(verbose.stderr)
    }

    @Test func addSavesTheURLThatAnswered() throws {
        let store = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let url = "127.0.0.1:\(plain.port)/page?title=Saved%20Plain"
        let result = try host(["--url", url, "--add"], store: store)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try BookmarkStore(path: store).load() == [Bookmark(url: "http://\(url)", title: "Saved Plain")])
    }

    @Test func bothAttemptsFailingIsOneLineAndStatus1() throws {
        let refusing = RefusingPort()
        defer { refusing.close() }
        let result = try host(["--url", "127.0.0.1:\(refusing.port)/x", "--get-title"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        let failures = result.stderr.split(separator: "\n").filter { $0.contains("cannot connect") }
        // The presenter's line, and the closing one a terminal shows too: one message, naming both.
        #expect(
            failures == [
                "✖ An error occurred retrieving the title: cannot connect to 127.0.0.1:\(refusing.port) over https or http",
                "Error: cannot connect to 127.0.0.1:\(refusing.port) over https or http",
            ], "\(result.stderr)")
    }

    // MARK: - The rules

    @Test func onlyAURLWithoutASchemeHasTwoAttempts() throws {
        #expect(try WebTitle.attempts(for: " example.com/x ") == ["https://example.com/x", "http://example.com/x"])
        #expect(try WebTitle.attempts(for: "localhost:8080") == ["https://localhost:8080", "http://localhost:8080"])
        #expect(try WebTitle.attempts(for: "//example.com") == ["https://example.com", "http://example.com"])
        #expect(try WebTitle.attempts(for: "https://example.com") == ["https://example.com"])
        #expect(try WebTitle.attempts(for: "HTTP://example.com") == ["http://example.com"])
    }

    @Test(arguments: [
        ("connect", true), ("handshake", true), ("tls", true), ("certificate", false), ("timeout", false),
        ("resolve", false), ("other", false),
    ])
    func onlyAConnectionOrHandshakeFailureFallsBack(kind: String, falls: Bool) {
        #expect(WebTitle.fallsBack(after: .failure(kind: kind, detail: "")) == falls)
    }

    @Test func aCertificatesReasonIsShownOnlyWhenItIsWords() {
        #expect(WebTitle.plainWords("certificate has expired") == "certificate has expired")
        #expect(WebTitle.plainWords("error:0A000086:SSL routines::certificate verify failed") == nil)
        #expect(WebTitle.plainWords("") == nil)
    }
}
