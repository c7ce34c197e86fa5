import Foundation
@testable import HostBookmarks
import Testing

/// Get-title for real: the built presenter-host-fetch (URLSession, libcurl)
/// against the loopback server of Fixtures/web/title_server.py.
@Suite("Get-title: fetching from a real server")
struct WebTitleFetchTests {
    /// This process's environment without proxy variables: a machine with a
    /// proxy set would otherwise send the loopback requests through it.
    static let noProxies: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY",
            "no_proxy",
        ] {
            environment[name] = nil
        }
        return environment
    }()

    static let fetcher = TestPaths.products.appendingPathComponent("presenter-host-fetch").path

    private var server: TitleServer { TitleServer.shared }

    private func fetch(
        _ url: String, timeout: Double = 10, environment: [String: String] = noProxies,
        fetcher: String? = fetcher
    ) -> Result<String, WebTitleError> {
        WebTitleFetch(url: url, timeout: timeout, environment: environment, fetcher: fetcher).run()
    }

    private func page(title: String, charset: String? = nil, type: String? = nil, meta: String? = nil) -> String {
        var query = [URLQueryItem(name: "title", value: title)]
        if let charset { query.append(URLQueryItem(name: "charset", value: charset)) }
        if let type { query.append(URLQueryItem(name: "type", value: type)) }
        if let meta { query.append(URLQueryItem(name: "meta", value: meta)) }
        var components = URLComponents(string: server.url("/page"))!
        components.queryItems = query
        // "+" stays literal in a query; the server reads it as a space.
        return components.string!.replacingOccurrences(of: "+", with: "%2B")
    }

    @Test func upperCaseTagsAttributesAndWhiteSpaceGiveTheTitleOnOneLine() {
        #expect(fetch(server.url("/raw/upper")) == .success("Upper Case Title"))
    }

    @Test func aTitleInACommentOrAScriptIsNotThePagesTitle() {
        #expect(fetch(server.url("/raw/decoys")) == .success("The \"real\" one"))
    }

    @Test func namedDecimalAndHexEntitiesAreDecoded() {
        let url = page(title: "Fish &amp; Chips &#8212; caf&eacute; &#x1F600; &lt;b&gt; &copy 2024 &#150;")
        #expect(fetch(url) == .success("Fish & Chips — café 😀 <b> © 2024 –"))
    }

    @Test func theCharsetOfTheContentTypeHeaderDecodesThePage() {
        // Latin-1 bytes, which are not UTF-8: "é" is the single byte 0xE9.
        let url = page(title: "Café crème", charset: "iso-8859-1", type: "text/html; charset=ISO-8859-1")
        #expect(fetch(url) == .success("Café crème"))
    }

    @Test func aMetaCharsetTagDecodesThePage() {
        let url = page(title: "Привет, мир", charset: "koi8-r", meta: "<meta charset=\"KOI8-R\">")
        #expect(fetch(url) == .success("Привет, мир"))
    }

    @Test func aMetaHttpEquivTagDecodesThePage() {
        let url = page(
            title: "日本語のページ", charset: "shift_jis",
            meta: "<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=Shift_JIS\">")
        #expect(fetch(url) == .success("日本語のページ"))
    }

    @Test func theHeadersCharsetWinsOverTheMetaTags() {
        let url = page(
            title: "Café", charset: "windows-1252", type: "text/html; charset=windows-1252",
            meta: "<meta charset=\"koi8-r\">")
        #expect(fetch(url) == .success("Café"))
    }

    @Test func withNoCharsetDeclaredTheBytesAreUTF8WithReplacement() {
        let url = page(title: "Café", charset: "iso-8859-1")
        #expect(fetch(url) == .success("Caf\u{FFFD}"))
    }

    @Test func aPageWithoutATitleSaysSo() {
        #expect(fetch(page(title: "-")) == .failure(WebTitleError(reason: "no <title> in the page")))
        #expect(fetch(page(title: " \t ")) == .failure(WebTitleError(reason: "the page's <title> is empty")))
    }

    @Test func fiveRedirectsAreFollowedAndASixthIsNot() {
        #expect(fetch(server.url("/redirect/5")) == .success("Arrived"))
        #expect(fetch(server.url("/redirect/6")) == .failure(WebTitleError(reason: "more than 5 redirects")))
    }

    @Test func aRedirectLoopEndsAfterFiveRedirects() throws {
        #expect(fetch(server.url("/loop")) == .failure(WebTitleError(reason: "more than 5 redirects")))
        #expect(try server.ask("/seen?path=/loop") == "6")
    }

    @Test func aRedirectWithoutALocationIsAnHTTPStatus() {
        let url = server.url("/nowhere")
        #expect(fetch(url) == .failure(WebTitleError(reason: "HTTP 302 from \(url)")))
    }

    @Test(arguments: [404, 500, 403])
    func anHTTPErrorStatusNamesTheStatusAndTheURL(status: Int) {
        let url = server.url("/status/\(status)")
        #expect(fetch(url) == .failure(WebTitleError(reason: "HTTP \(status) from \(url)")))
    }

    @Test func aServerThatNeverAnswersTimesOut() {
        let started = Date()
        #expect(
            fetch(server.url("/slow-head?\(UUID())"), timeout: 0.5)
                == .failure(WebTitleError(reason: "no answer within 0.5 s")))
        // Its 30 s of silence were not waited for.
        #expect(Date().timeIntervalSince(started) < 0.5 + WebTitleFetch.killGrace + 2)
    }

    @Test func aPageThatStopsBeforeItsTitleEndsTimesOut() {
        #expect(
            fetch(server.url("/slow?\(UUID())"), timeout: 0.5)
                == .failure(WebTitleError(reason: "no answer within 0.5 s")))
    }

    @Test func aPageThatStopsAfterItsTitleStillGivesIt() {
        #expect(fetch(server.url("/slow-title?title=Early%20Bird"), timeout: 0.5) == .success("Early Bird"))
    }

    @Test func aHugePageIsReadOnlyAsFarAsTheLimit() throws {
        let id = UUID().uuidString
        #expect(fetch(server.url("/huge?id=\(id)&title=Big%20One&mib=64")) == .success("Big One"))
        // The server could write far less than its 64 MiB before the fetcher went.
        let sent = try server.wait(for: "/sent?id=\(id)") { $0 != "-1" }
        let bytes = try #require(Int(sent))
        #expect(bytes >= WebTitle.maxBytes && bytes < 32 << 20, "the server wrote \(bytes) bytes")
    }

    @Test func aHugePageWithItsTitlePastTheLimitHasNoneInTheFirstMiB() {
        let url = server.url("/huge?id=\(UUID())&at=end&mib=3")
        #expect(fetch(url) == .failure(WebTitleError(reason: "no <title> in the first 1 MiB of the page")))
    }

    @Test func aCompressedPageIsDecompressed() {
        #expect(fetch(server.url("/gzip")) == .success("Squeezed & Sent"))
    }

    @Test func aPageInChunksIsReadWhole() {
        #expect(fetch(server.url("/chunked")) == .success("In Three Pièces"))
    }

    @Test func aBodyThatIsNotHTMLIsNotSearched() {
        #expect(fetch(server.url("/json")) == .failure(WebTitleError(reason: "not HTML (application/json)")))
        #expect(
            fetch(page(title: "Plain", type: "text/plain; charset=utf-8"))
                == .failure(WebTitleError(reason: "not HTML (text/plain)")))
    }

    @Test func aPageWithoutAContentTypeIsReadAsHTML() {
        #expect(fetch(page(title: "Untyped", type: "-")) == .success("Untyped"))
    }

    /// A resolver that cannot be reached takes its own time to say so
    /// (glibc: 5 s a try, 2 tries): `.invalid` lookups get this long.
    static let resolveTimeout: Double = 30

    @Test func aHostThatDoesNotResolveIsNamed() {
        #expect(
            fetch("http://no-such-host.invalid/", timeout: Self.resolveTimeout)
                == .failure(WebTitleError(reason: "cannot resolve host no-such-host.invalid")))
    }

    @Test func aRefusedConnectionNamesHostAndPort() {
        let refusing = RefusingPort()
        defer { refusing.close() }
        #expect(
            fetch("http://127.0.0.1:\(refusing.port)/")
                == .failure(WebTitleError(reason: "cannot connect to 127.0.0.1:\(refusing.port)")))
    }

    // A URL without a scheme (https, then http): WebTitleSchemeTests.

    @Test func onlyHTTPAndHTTPSAreFetched() {
        #expect(
            fetch("ftp://example.com/")
                == .failure(WebTitleError(reason: "only http and https URLs can be fetched, not 'ftp://example.com/'")))
    }

    // MARK: - Proxies, as curl reads them

    @Test func httpProxyCarriesAnHTTPRequest() throws {
        var environment = Self.noProxies
        environment["http_proxy"] = server.url("")
        let target = "http://proxied-\(UUID().uuidString.prefix(8).lowercased()).invalid/some/page"
        #expect(fetch(target, environment: environment) == .success("Proxied \(target.dropFirst(7))"))
        #expect(try server.ask("/proxied").split(separator: "\n").contains(Substring(target)))
    }

    @Test func allProxyCarriesItToo() {
        var environment = Self.noProxies
        environment["ALL_PROXY"] = server.url("")
        #expect(
            fetch("http://everything.invalid/x", environment: environment) == .success("Proxied everything.invalid/x"))
    }

    @Test func upperCaseHTTPProxyIsIgnoredAsCurlIgnoresIt() {
        // curl reads only http_proxy for http (HTTP_PROXY could come from a CGI request's Proxy: header).
        var environment = Self.noProxies
        environment["HTTP_PROXY"] = server.url("")
        #expect(
            fetch("http://not-proxied.invalid/", timeout: Self.resolveTimeout, environment: environment)
                == .failure(WebTitleError(reason: "cannot resolve host not-proxied.invalid")))
    }

    @Test func noProxyBypassesTheProxy() {
        let deadProxy = RefusingPort()
        defer { deadProxy.close() }
        var environment = Self.noProxies
        environment["http_proxy"] = "http://127.0.0.1:\(deadProxy.port)"
        // Through the dead proxy: refused (the proxy is what fails).
        #expect(
            fetch(page(title: "Direct"), environment: environment)
                == .failure(WebTitleError(reason: "cannot connect to 127.0.0.1:\(server.port)")))
        environment["NO_PROXY"] = "127.0.0.1"
        #expect(fetch(page(title: "Direct"), environment: environment) == .success("Direct"))
    }

    // MARK: - The fetcher process

    @Test func cancelKillsTheFetchAtOnce() throws {
        let path = "/slow-head?\(UUID())"
        let fetch = WebTitleFetch(
            url: server.url(path), timeout: 30, environment: Self.noProxies,
            fetcher: Self.fetcher)
        let done = DispatchSemaphore(value: 0)
        let result = LockedBox<Result<String, WebTitleError>?>(nil)
        let started = Date()
        Thread {
            let value = fetch.run()
            result.mutate { $0 = value }
            done.signal()
        }.start()
        // Cancelled once the request is at the server: the fetcher is running.
        #expect(
            try server.wait(for: "/seen?path=\(path.replacingOccurrences(of: "?", with: "%3F"))") { $0 == "1" } == "1")
        fetch.cancel()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(result.value == .failure(.cancelled))
        #expect(Date().timeIntervalSince(started) < 10)
        // And again: the same answer.
        #expect(fetch.run() == .failure(.cancelled))
    }

    @Test func aFetchCancelledBeforeItRunsFetchesNothing() {
        let fetch = WebTitleFetch(url: page(title: "Never"), environment: Self.noProxies, fetcher: Self.fetcher)
        fetch.cancel()
        #expect(fetch.run() == .failure(.cancelled))
    }

    @Test func theFetcherIsFoundNextToTheRunningExecutable() {
        // The test runner sits in the products folder, next to presenter-host-fetch.
        #expect(fetch(page(title: "Found"), fetcher: nil) == .success("Found"))
    }

    @Test func anInstalledFetcherIsFoundInLibexec() throws {
        // <prefix>/bin/presenter-host finds <prefix>/libexec/presenter-host/presenter-host-fetch.
        let prefix = TestPaths.temporaryDirectory("prefix").path
        let libexec = prefix + "/libexec/presenter-host"
        try FileManager.default.createDirectory(atPath: libexec, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        let executable = prefix + "/bin/presenter-host"
        #expect(
            WebTitleFetch.locateFetcher(nil, executable: executable)
                == .failure(
                    WebTitleError(
                        reason: "cannot find presenter-host-fetch (looked for \(prefix)/bin/presenter-host-fetch and "
                            + "\(prefix)/libexec/presenter-host/presenter-host-fetch); install it with presenter-host"))
        )
        try FileManager.default.copyItem(atPath: Self.fetcher, toPath: libexec + "/presenter-host-fetch")
        #expect(
            WebTitleFetch.locateFetcher(nil, executable: executable)
                == .success(prefix + "/libexec/presenter-host/presenter-host-fetch"))
        // Next to the executable comes first.
        try FileManager.default.copyItem(atPath: Self.fetcher, toPath: prefix + "/bin/presenter-host-fetch")
        #expect(
            WebTitleFetch.locateFetcher(nil, executable: executable) == .success(prefix + "/bin/presenter-host-fetch"))
    }

    @Test func aMissingFetcherIsNamed() {
        let missing = "/nonexistent/presenter-host-fetch"
        #expect(
            fetch(page(title: "x"), fetcher: missing)
                == .failure(
                    WebTitleError(
                        reason:
                            "cannot find presenter-host-fetch (looked for \(missing)); install it with presenter-host"))
        )
    }

    /// A stand-in fetcher: a shell script (written by `writeExecutable`, so
    /// that no child of a parallel test holds it open: "Text file busy").
    private func fakeFetcher(_ body: String) throws -> String {
        let url = TestPaths.temporaryDirectory("fetcher").appendingPathComponent("presenter-host-fetch")
        try writeExecutable(Array(("#!/bin/sh\n" + body + "\n").utf8), to: url)
        return url.path
    }

    @Test func aFetcherThatDoesNotAnswerIsKilledAfterTheTimeout() throws {
        let pidFile = TestPaths.temporaryDirectory("fetcher").appendingPathComponent("pid").path
        let fetcher = try fakeFetcher("echo $$ > \(pidFile); exec sleep 60")
        let started = Date()
        #expect(
            fetch(page(title: "x"), timeout: 0.2, fetcher: fetcher)
                == .failure(WebTitleError(reason: "no answer within 0.2 s")))
        #expect(Date().timeIntervalSince(started) < 0.2 + WebTitleFetch.killGrace + 2)
        let pid = try #require(
            pid_t(
                try String(contentsOfFile: pidFile, encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed and reaped: no such process is left.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test func aFetcherThatCrashesIsReported() throws {
        let fetcher = try fakeFetcher("kill -SEGV $$")
        #expect(
            fetch(page(title: "x"), fetcher: fetcher)
                == .failure(WebTitleError(reason: "\(fetcher) ended (SIGSEGV) without answering")))
    }

    @Test func aReplyThatIsNotTheProtocolIsRefused() throws {
        let garbage = try fakeFetcher("printf 'HTTP/1.1 200 OK\\n'")
        #expect(
            fetch(page(title: "x"), fetcher: garbage)
                == .failure(
                    WebTitleError(
                        reason:
                            "\(garbage) sent a reply that cannot be read: it does not start with 'presenter-host-fetch reply '"
                    )))
        let newer = try fakeFetcher("printf 'presenter-host-fetch reply 2\\nsomething new\\n'")
        #expect(
            fetch(page(title: "x"), fetcher: newer)
                == .failure(
                    WebTitleError(
                        reason:
                            "\(newer) sent a reply that cannot be read: it is in reply format 2, this presenter-host reads "
                            + "format 1; install presenter-host and presenter-host-fetch from the same build")))
    }

    @Test func aFetcherThatSendsTooMuchIsStopped() throws {
        let flood = try fakeFetcher("printf 'presenter-host-fetch reply 1\\n'; exec cat /dev/zero")
        #expect(
            fetch(page(title: "x"), fetcher: flood)
                == .failure(
                    WebTitleError(
                        reason: "\(flood) sent more than \(WebTitleFetch.maxReplyBytes) bytes")))
    }

    @Test func theFetcherGetsTheEnvironmentGivenAndNotTheHosts() throws {
        let directory = TestPaths.temporaryDirectory("fetcher")
        let out = directory.appendingPathComponent("env").path
        let fetcher = try fakeFetcher("/usr/bin/env > \(out)")
        _ = fetch(page(title: "x"), environment: ["ONLY_THIS": "1"], fetcher: fetcher)
        let names = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
            $0.prefix { $0 != "=" }
        }
        #expect(names.contains("ONLY_THIS"))
        // Nothing of the test process's own (the shell adds PWD and the like).
        #expect(!names.contains("PATH") && !names.contains("HOME"), "\(names)")
    }

    @Test func theFetcherRunsOnlyForItsParentAndWithItsArguments() throws {
        let arguments = ["--timeout", "5", "--max-bytes", "100", "--max-redirects", "5", "--", page(title: "x")]
        // Not our child's parent: it leaves at once, saying nothing.
        let stranger = try ProcessRunner.run(
            URL(fileURLWithPath: Self.fetcher), ["--parent", "1"] + arguments,
            environment: Self.noProxies)
        #expect(stranger.status == 0 && stranger.stdout.isEmpty)
        let wrong = try ProcessRunner.run(URL(fileURLWithPath: Self.fetcher), ["--parent", "1", "--max-bytes", "x"])
        #expect(wrong.status == 64 && wrong.stdout.isEmpty)
        #expect(wrong.stderr.hasPrefix("presenter-host-fetch: ") && wrong.stderr.hasSuffix("not by hand)\n"))
    }

    @Test func theFetcherDiesWithItsParent() throws {
        // A shell stands in for the host: it starts the fetcher on a page that never answers, then is killed.
        let path = "/slow-head?\(UUID())"
        let shell = try TestProcess(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "'\(Self.fetcher)' --parent $$ --timeout 60 "
                    + "--max-bytes 100 --max-redirects 5 -- '\(server.url(path))' & echo $!; wait",
            ],
            environment: Self.noProxies, stdin: .null, stderr: .null)
        var said: [UInt8] = []
        while !said.contains(UInt8(ascii: "\n")) {
            let chunk = shell.readAvailable()
            if chunk.isEmpty { break }
            said += chunk
        }
        let fetcher = try #require(
            pid_t(String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(
            try server.wait(for: "/seen?path=\(path.replacingOccurrences(of: "?", with: "%3F"))") { $0 == "1" } == "1")
        shell.send(SIGKILL)
        _ = shell.wait()
        // Gone (or a zombie waiting for init) well before its 60 s.
        #expect(waitUntilEnded(fetcher))
    }

    // MARK: - Linking

    /// The shared libraries a program loads, by `ldd`.
    private func libraries(of path: String) throws -> String {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [path])
        #expect(result.status == 0, "ldd: \(result.stderr)")
        return result.stdout
    }

    @Test func presenterHostNeverLinksFoundationNetworkingAndTheFetcherDoes() throws {
        for executable in [TestPaths.binary, TestPaths.pluginsBinary] {
            let host = try libraries(of: executable.path)
            #expect(host.contains("libc.so"), "ldd sees no C library in \(executable.lastPathComponent): \(host)")
            #expect(!host.contains("libFoundationNetworking"))
            #expect(!host.contains("libcurl"))
        }
        let fetcher = try libraries(of: Self.fetcher)
        #expect(fetcher.contains("libFoundationNetworking"))
        #expect(fetcher.contains("libcurl"))
    }

    /// Neither process of a `run` loads Foundation, ICU's data,
    /// FoundationInternationalization or (issue 33) FoundationEssentials:
    /// their loading took about 3 ms of every start and 7 MiB, and
    /// FoundationEssentials' 1 ms and 3 MiB more (docs/BENCHMARKS.md).
    @Test func presenterHostLoadsNoICU() throws {
        for executable in [TestPaths.binary, TestPaths.pluginsBinary] {
            let host = try libraries(of: executable.path)
            #expect(host.contains("libc.so"), "ldd sees no C library in \(executable.lastPathComponent): \(host)")
            for library in [
                "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
                "libFoundationEssentials.so",
            ] {
                #expect(!host.contains(library), "\(executable.lastPathComponent) loads \(library)")
            }
        }
    }
}
