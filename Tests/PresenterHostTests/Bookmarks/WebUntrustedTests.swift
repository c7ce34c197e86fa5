import Foundation
@testable import HostBookmarks
import Testing

/// What a web page, a server's redirect and a URL's password can make the
/// host do, tried through the real binary (`add-bookmark --get-title`,
/// `--add`, `bookmarks`) against the loopback server of
/// Fixtures/web/title_server.py playing a hostile site: each point was
/// seen on the code before it (issue 37, "The web is untrusted").
@Suite("The web is untrusted: titles, bookmarks, passwords and redirects, through the real binary")
struct WebUntrustedTests {
    /// No proxy for the loopback server, whatever the machine sets.
    static let environment: [String: String] = {
        var environment = AddBookmarkScriptTitleTests.environment
        environment["no_proxy"] = "*"
        environment["NO_PROXY"] = "*"
        return environment
    }()

    /// Far past what one fetch on loopback takes, and the most memory the
    /// host may hold for one: generous bounds that a hang or a runaway fails.
    static let seconds = TestTime.scaled(20)
    static let bytes = 256 << 20

    private var server: TitleServer { TitleServer.shared }

    /// `presenter-host arguments`, its time and memory bounded.
    private func host(_ arguments: [String]) throws -> MeasuredHostRun {
        let run = try MeasuredHostRun(arguments, environment: Self.environment)
        #expect(run.seconds < Self.seconds, "\(arguments) took \(run.seconds) s")
        #expect(run.peakBytes < Self.bytes, "\(arguments) held \(run.peakBytes) bytes")
        return run
    }

    /// `text` percent-encoded for a query's value.
    private static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    private static func store() -> String {
        TestPaths.temporaryDirectory("web-untrusted").appendingPathComponent("bookmarks.json").path
    }

    // MARK: - Titles

    @Test func getTitleEscapesBidiControlsAndInvisibleCharactersOnStdout() throws {
        let title = "a\u{202E}b\u{2066}c\u{2067}d\u{2068}e\u{2069}f\u{200B}g\u{200F}h\u{FEFF}i"
        let run = try host(["add-bookmark", "--get-title", "--url", server.url("/page?title=" + Self.query(title))])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == #"a\u{202E}b\u{2066}c\u{2067}d\u{2068}e\u{2069}f\u{200B}g\u{200F}h\u{FEFF}i"# + "\n")
        #expect(run.stderr == "")
    }

    /// A title with C1 and bidi controls (a store written by hand, or by a
    /// presenter-host before this one) is listed by `bookmarks --json`
    /// with them as `\uXXXX`, and a save writes the store so too.
    @Test func bookmarksJSONAndTheStoreWriteC1AndBidiControlsAsEscapes() throws {
        let store = Self.store()
        let hostile = #"x\u0085y\u009bz\u202eq\u2066r\u200bs"#
        try Data(
            #"{"version": 1, "bookmarks": [{"url": "https://example.com/\u0085", "title": "\#(hostile)", "added": "2026-12-01T00:00:00Z"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: store))
        let listed = try host(["bookmarks", "--json", "--store", store])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(#""title": "\#(hostile)""#), "\(listed.stdout)")
        #expect(listed.stdout.contains(#""url": "https://example.com/\u0085""#), "\(listed.stdout)")
        #expect(!listed.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value >= 0x2000 })

        let saved = try host([
            "add-bookmark", "--add", "--url", "https://example.org/", "--title", "Plain", "--store", store,
        ])
        #expect(saved.status == 0, "\(saved.stderr)")
        let bytes = try String(contentsOfFile: store, encoding: .utf8)
        #expect(bytes.contains(#""title": "\#(hostile)""#), "\(bytes)")
        #expect(!bytes.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value >= 0x2000 }, "\(bytes)")
        #expect(
            try BookmarkStore(path: store).load() == [
                Bookmark(url: "https://example.com/\u{85}", title: "x\u{85}y\u{9B}z\u{202E}q\u{2066}r\u{200B}s"),
                Bookmark(url: "https://example.org/", title: "Plain"),
            ])
    }

    // MARK: - A password in the URL

    /// `al%40ice:pa%3Ass`: the user "al@ice" with the password "pa:ss", as a
    /// URL holds them.
    private static let userInfo = "al%40ice:pa%3Ass"
    /// What shows the password: the user information as typed or decoded,
    /// or the password before a host. (The /auth page's own query names
    /// them too, to check them: a query is the page's address, not a password.)
    private static let secrets = ["al%40ice:pa%3Ass", "al@ice:pa:ss", "pa%3Ass@", "pa:ss@"]

    private func withPassword(_ path: String) -> String {
        "http://\(Self.userInfo)@127.0.0.1:\(server.port)\(path)"
    }

    private static func expectNoSecret(_ text: String, _ what: String) {
        for secret in secrets { #expect(!text.contains(secret), "\(what) shows '\(secret)': \(text)") }
    }

    @Test func aPasswordInTheURLIsSentToItsServerAsBasicAuthentication() throws {
        let run = try host([
            "add-bookmark", "--get-title", "--url", withPassword("/auth?user=al%40ice&password=pa%3Ass"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Welcome al@ice\n")
        Self.expectNoSecret(run.stderr, "stderr")
    }

    @Test func aPasswordInTheURLIsNeitherSavedNorListed() throws {
        let store = Self.store()
        let path = "/auth?user=al%40ice&password=pa%3Ass"
        let saved = try host(["add-bookmark", "--add", "--url", withPassword(path), "--store", store])
        #expect(saved.status == 0, "\(saved.stderr)")
        Self.expectNoSecret(saved.stderr, "stderr")
        let file = try String(contentsOfFile: store, encoding: .utf8)
        Self.expectNoSecret(file, "the store")
        #expect(try BookmarkStore(path: store).load() == [Bookmark(url: server.url(path), title: "Welcome al@ice")])
        // Typed with its own title: no fetch, and no password saved either.
        let typed = try host([
            "add-bookmark", "--add", "--url", "HTTPS://\(Self.userInfo)@example.com/x", "--title", "T", "--store",
            store,
        ])
        #expect(typed.status == 0, "\(typed.stderr)")
        Self.expectNoSecret(try String(contentsOfFile: store, encoding: .utf8), "the store")
        #expect(try BookmarkStore(path: store).load().last == Bookmark(url: "https://example.com/x", title: "T"))
    }

    /// A URL that cannot be read as one, with a password in it (no host):
    /// refused, never saved as typed with the password (the store kept it
    /// before), and the error shows none either.
    @Test func aURLThatCannotBeReadIsRefusedWithoutItsPassword() throws {
        let store = Self.store()
        let run = try host([
            "add-bookmark", "--add", "--url", "http://\(Self.userInfo)@/x", "--title", "T", "--store", store,
        ])
        #expect(run.status != 0, "\(run.stderr)")
        Self.expectNoSecret(run.stderr, "stderr")
        Self.expectNoSecret((try? String(contentsOfFile: store, encoding: .utf8)) ?? "", "the store")
        #expect(((try? BookmarkStore(path: store).load()) ?? []).isEmpty)
    }

    /// Typed without `//`, a user and password read as a scheme
    /// (`admin:secret@router.lan`): the refusal shows neither.
    @Test func aPasswordTypedWithoutASchemeIsNotPrintedInTheRefusal() throws {
        let run = try host(["add-bookmark", "--get-title", "--url", "alice:pa%3Ass@router.lan/x"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("…@router.lan/x"), "\(run.stderr)")
        Self.expectNoSecret(run.stderr, "stderr")
    }

    /// A store an older presenter-host wrote with a password in a URL: the
    /// listings leave it out.
    @Test func aPasswordInAStoredURLIsNotListed() throws {
        let store = Self.store()
        try Data(
            #"{"version": 1, "bookmarks": [{"url": "https://\#(Self.userInfo)@example.com/", "title": "Old", "added": "2026-12-01T00:00:00Z"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: store))
        let table = try host(["bookmarks", "--store", store])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("  https://example.com/\n"), "\(table.stdout)")
        Self.expectNoSecret(table.stdout, "bookmarks")
        let json = try host(["bookmarks", "--json", "--store", store])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""url": "https://example.com/""#), "\(json.stdout)")
        Self.expectNoSecret(json.stdout, "bookmarks --json")
    }

    @Test(arguments: ["/status/404", "/auth?user=bob&password=other"])
    func aPasswordInTheURLIsNotPrintedInAnError(path: String) throws {
        let run = try host(["add-bookmark", "--get-title", "--url", withPassword(path)])
        let status = path.hasPrefix("/status") ? 404 : 401
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr.hasSuffix("Error: HTTP \(status) from \(server.url(path))\n"), "\(run.stderr)")
        Self.expectNoSecret(run.stderr, "stderr")
    }

    /// URLSession on Linux waited for a credential it did not have until
    /// the timeout (and would stop the fetcher for a Digest one it had):
    /// a 401 is the answer, at once.
    @Test(arguments: [("", "Basic"), ("", "Digest"), ("bob:wrong@", "Basic"), ("bob:wrong@", "Digest")])
    func aServerAskingForAPasswordIsAnsweredAtOnce(userInfo: String, scheme: String) throws {
        let path = "/auth?user=bob&password=right&scheme=\(scheme)"
        let run = try host([
            "add-bookmark", "--get-title", "--timeout", "30", "--url",
            "http://\(userInfo)127.0.0.1:\(server.port)\(path)",
        ])
        #expect(run.status == 1)
        #expect(run.stderr.hasSuffix("Error: HTTP 401 from \(server.url(path))\n"), "\(run.stderr)")
        #expect(run.seconds < TestTime.scaled(10), "a 401 took \(run.seconds) s")
    }

    /// The fetcher's command line, which every user of the machine can
    /// read in /proc, holds the URL without the password: the fetcher gets
    /// it on its stdin.
    @Test func thePasswordIsOnNoCommandLine() throws {
        let gate = "password-\(UUID().uuidString)"
        let process = try TestProcess(
            TestPaths.binary, ["add-bookmark", "--get-title", "--url", withPassword("/gate/\(gate)")],
            environment: Self.environment, stderr: .null)
        defer { process.send(SIGKILL) }
        // The fetcher asked for the page, and waits for the gate.
        #expect(try server.wait(for: "/seen?path=/gate/\(gate)") { $0 == "1" } == "1")
        let fetchers = Self.children(of: process.pid).filter { $0.first?.hasSuffix("presenter-host-fetch") == true }
        #expect(fetchers.count == 1, "\(fetchers)")
        for fetcher in fetchers {
            #expect(fetcher.last == "http://127.0.0.1:\(server.port)/gate/\(gate)", "\(fetcher)")
            Self.expectNoSecret(fetcher.joined(separator: " "), "the fetcher's command line")
        }
        _ = try server.ask("/open/\(gate)")
        var output: [UInt8] = []
        while case let chunk = process.readAvailable(), !chunk.isEmpty { output += chunk }
        #expect(process.wait() == 0)
        #expect(String(decoding: output, as: UTF8.self) == "Hello\n")
    }

    /// The command lines of the children of `pid`, as /proc shows them to anyone.
    private static func children(of pid: pid_t) -> [[String]] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> [String]? in
            guard Int32(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == pid,
                let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            return cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test func thePasswordGoesToTheURLsOriginOnlyAfterARedirect() throws {
        let same = try host(["add-bookmark", "--get-title", "--url", withPassword("/redirect-to?to=/auth-echo")])
        #expect(same.status == 0, "\(same.stderr)")
        let basic = "Basic " + Data("al@ice:pa:ss".utf8).base64EncodedString()
        #expect(same.stdout == "Authorization: \(basic)\n")
        let elsewhere = "http://localhost:\(server.port)/auth-echo"
        let other = try host([
            "add-bookmark", "--get-title", "--url", withPassword("/redirect-to?to=" + Self.query(elsewhere)),
        ])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout == "Authorization: none\n")
    }

    // MARK: - Redirects

    /// URLSession read a Location with a scheme and no host as a path on
    /// the same server, and gave that page's title as a success: each is
    /// refused now with the reason gopher: gets.
    @Test(arguments: [
        "file:///page?title=Leaked", "unix:/page?title=Leaked", "data:/page?title=Leaked", "FILE:///page?title=Leaked",
        "javascript:/page?title=Leaked", "gopher://127.0.0.1:1/page?title=Leaked",
    ])
    func aRedirectToASchemeButHTTPOrHTTPSIsRefused(location: String) throws {
        let run = try host([
            "add-bookmark", "--get-title", "--url", server.url("/redirect-to?to=" + Self.query(location)),
        ])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout == "")
        #expect(
            run.stderr.hasSuffix("Error: redirected to '\(location)': only http and https URLs can be fetched\n"),
            "\(run.stderr)")
    }

    // MARK: - URLs that work

    @Test func anUpperCaseSchemeIsFetchedAndSavedInLowerCase() throws {
        let typed = "HTTP://127.0.0.1:\(server.port)/page?title=Caps"
        let run = try host(["add-bookmark", "--get-title", "--url", typed])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Caps\n")
        let store = Self.store()
        let saved = try host(["add-bookmark", "--add", "--url", typed, "--store", store])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try BookmarkStore(path: store).load() == [Bookmark(url: server.url("/page?title=Caps"), title: "Caps")])
        // A server's redirect to an upper-case scheme is followed too.
        let location = "HTTP://127.0.0.1:\(server.port)/page?title=Followed"
        let redirected = try host([
            "add-bookmark", "--get-title", "--url", server.url("/redirect-to?to=" + Self.query(location)),
        ])
        #expect(redirected.status == 0, "\(redirected.stderr)")
        #expect(redirected.stdout == "Followed\n")
    }

    /// URLSession on Linux cannot fetch from an IPv6 address (its host
    /// check and libcurl's disagree on the brackets): the reason is said
    /// plainly instead of "NSURLErrorDomain error -1000", and such a URL
    /// is saved with a title of one's own.
    @Test func anIPv6AddressURLGivesItsReasonAndIsSavedWithATitle() throws {
        let run = try host(["add-bookmark", "--get-title", "--url", "http://[::1]:1/x"])
        #expect(run.status == 1)
        #expect(
            run.stderr.hasSuffix(
                "Error: cannot fetch from the IPv6 address [::1]: the HTTP library presenter-host-fetch uses refuses such URLs; give a host name for it, or type the title yourself\n"
            ), "\(run.stderr)")
        let store = Self.store()
        let saved = try host([
            "add-bookmark", "--add", "--url", "HTTP://[::1]:8080/x", "--title", "Six", "--store", store,
        ])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try BookmarkStore(path: store).load() == [Bookmark(url: "http://[::1]:8080/x", title: "Six")])
    }
}
