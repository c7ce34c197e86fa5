// presenter-host-fetch: one HTTP(S) GET with URLSession, for add-bookmark's
// get-title. A process of its own because FoundationNetworking (libcurl and
// some 30 more shared libraries) nearly doubles a program's start-up:
// presenter-host never links it, and spawns this per fetch (which also keeps
// libcurl out of the host and makes a cancel a kill).
//
//   presenter-host-fetch --parent PID --timeout SECONDS --max-bytes N --max-redirects R
//                        [--user-info-on-stdin] -- URL
//
// With --user-info-on-stdin, stdin holds one line, "user:password" as in
// a URL (percent-encoded), sent as HTTP Basic authentication to the URL's
// origin only: the host takes it out of the URL, so that it is on no
// command line (which every user can read) and in no URL it shows.
// It writes one reply on stdout, in the format the host's WebTitleReply
// reads (docs/ARCHITECTURE.md, "Get-title"), and exits 0; a usage error
// exits 64 with a line on stderr. It sends the bytes of the page, not a
// title: the host decides what they mean (status, type, charset, title).
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SystemShims
import Synchronization

/// The reply format's version: the first line is "presenter-host-fetch reply 1".
let replyVersion = 1
/// The longest text put on one reply line (a URL, a Content-Type, a reason).
let maxLineBytes = 4096

/// The command line, checked strictly (only presenter-host starts this).
struct Arguments {
    var parent: pid_t = 0
    var timeout: Double = 0
    var maxBytes = 0
    var maxRedirects = 0
    var userInfoOnStdin = false
    var url: URL

    init(_ arguments: [String]) throws(UsageError) {
        var values: [String: String] = [:]
        var rest = arguments[...]
        while let flag = rest.first, flag != "--" {
            if flag == "--user-info-on-stdin" {
                userInfoOnStdin = true
                rest = rest.dropFirst()
                continue
            }
            guard ["--parent", "--timeout", "--max-bytes", "--max-redirects"].contains(flag), rest.count >= 2 else {
                throw UsageError("unknown or incomplete option '\(flag)'")
            }
            values[flag] = rest[rest.startIndex + 1]
            rest = rest.dropFirst(2)
        }
        guard rest.first == "--", rest.count == 2, let url = URL(string: rest[rest.startIndex + 1]),
            ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        else {
            throw UsageError("expected '-- URL' with an http or https URL last")
        }
        self.url = url
        guard let parent = values["--parent"].flatMap({ pid_t($0) }), parent > 0,
            let timeout = values["--timeout"].flatMap({ Double($0) }), timeout > 0, timeout.isFinite,
            let maxBytes = values["--max-bytes"].flatMap({ Int($0) }), maxBytes > 0,
            let maxRedirects = values["--max-redirects"].flatMap({ Int($0) }), maxRedirects >= 0
        else {
            throw UsageError("--parent, --timeout, --max-bytes and --max-redirects each need a positive number")
        }
        (self.parent, self.timeout, self.maxBytes, self.maxRedirects) = (parent, timeout, maxBytes, maxRedirects)
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// How the transfer ended, as the reply says it.
enum Outcome {
    /// A response: its body so far and why it stopped.
    case response(end: String)
    /// No response: a failure kind and its detail.
    case failure(kind: String, detail: String)
}

/// One GET, driven by URLSession's delegate calls (on its serial delegate
/// queue) and by the total-time timer (on another queue): whichever ends it
/// first writes the reply and exits the process.
final class Fetch: NSObject, URLSessionDataDelegate, Sendable {
    private let arguments: Arguments
    /// The Authorization header's value for the URL's origin, when the
    /// host gave a user and password.
    private let authorization: String?
    private struct State {
        var finished = false
        var redirects = 0
        var response: HTTPURLResponse?
        var body = Data()
    }

    private let state = Mutex(State())

    init(_ arguments: Arguments, authorization: String?) {
        self.arguments = arguments
        self.authorization = authorization
    }

    /// Whether the response's head has come.
    private var answered: Bool {
        state.withLock { $0.response != nil }
    }

    func start() {
        let configuration = URLSessionConfiguration.ephemeral
        // URLSession's request timeout is an idle timer (no byte for that
        // long, connecting included) in whole seconds; the total time is
        // this process's own timer below, to the millisecond.
        configuration.timeoutIntervalForRequest = max(1, arguments.timeout.rounded(.up))
        configuration.httpAdditionalHeaders = ["Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"]
        // No proxy is set here: libcurl then reads http_proxy, https_proxy,
        // ALL_PROXY and NO_PROXY from the environment itself, as curl does.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        var request = URLRequest(url: arguments.url)
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        request.timeoutInterval = configuration.timeoutIntervalForRequest
        session.dataTask(with: request).resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + arguments.timeout) {
            self.finish(self.answered ? .response(end: "timeout") : .failure(kind: "timeout", detail: ""))
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let count = state.withLock { state in
            state.redirects += 1
            return state.redirects
        }
        guard count <= arguments.maxRedirects else {
            completionHandler(nil)
            return finish(.failure(kind: "redirects", detail: String(arguments.maxRedirects)))
        }
        // URLSession reads a Location whose scheme has no host ("file:///etc/passwd",
        // "unix:/x", "data:,x") as a path on the same server: its scheme is
        // checked as the Location gives it, before URLSession's reading.
        let location = response.value(forHTTPHeaderField: "Location") ?? ""
        let said = URL(string: location)?.scheme?.lowercased()
        guard said == nil || said == "http" || said == "https", let target = request.url,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            completionHandler(nil)
            return finish(
                .failure(kind: "scheme", detail: location.isEmpty ? request.url?.absoluteString ?? "" : location))
        }
        var next = request
        // "HTTP://": URLSession serves lower-case schemes only.
        if target.scheme != scheme, var components = URLComponents(url: target, resolvingAgainstBaseURL: false) {
            components.scheme = scheme
            next.url = components.url ?? target
        }
        // URLSession copies every header into the redirect's request: a
        // password goes to the origin it was given for, and no other.
        if let url = next.url, origin(of: url) != origin(of: arguments.url) {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(next)
    }

    /// Scheme, host and port (the scheme's default when none is given), in lower case.
    private func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "http" ? 80 : 443)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// A 401 (or 407) asking for a password: the response is the answer.
    /// URLSession on Linux would otherwise wait for a credential it has
    /// none of (the user's, when given, went as a header) until the
    /// timeout, or cancel the task without a word.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        state.withLock { state in
            if state.response == nil {
                state.response = (task.response ?? challenge.failureResponse) as? HTTPURLResponse
            }
        }
        finish(answered ? .response(end: "complete") : .failure(kind: "other", detail: "an authentication challenge"))
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let full = state.withLock { state in
            let room = arguments.maxBytes - state.body.count
            state.body.append(data.prefix(max(0, room)))
            return data.count >= room
        }
        if full { finish(.response(end: "limit")) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        // URLSession tells no delegate of a 301, 302, 303 or 307 it does not
        // follow (one without a Location): the task has it.
        state.withLock { state in
            if state.response == nil { state.response = task.response as? HTTPURLResponse }
        }
        guard let error = error as? URLError else {
            return finish(error == nil ? .response(end: "complete") : .failure(kind: "other", detail: "\(error!)"))
        }
        let answered = self.answered
        if answered && error.code != .timedOut { return finish(.response(end: "cut")) }
        switch error.code {
        case .timedOut: finish(answered ? .response(end: "timeout") : .failure(kind: "timeout", detail: ""))
        case .cannotFindHost, .dnsLookupFailed: finish(.failure(kind: "resolve", detail: ""))
        case .cannotConnectToHost, .notConnectedToInternet, .networkConnectionLost:
            finish(.failure(kind: "connect", detail: ""))
        case .httpTooManyRedirects: finish(.failure(kind: "redirects", detail: String(arguments.maxRedirects)))
        case .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid:
            finish(.failure(kind: "certificate", detail: ""))
        case .secureConnectionFailed, .clientCertificateRejected:
            finish(tlsFailure(error.localizedDescription) ?? .failure(kind: "handshake", detail: ""))
        case .cancelled: break  // ours: finish has run
        default:
            finish(
                tlsFailure(error.localizedDescription) ?? .failure(kind: "other", detail: error.localizedDescription))
        }
    }

    /// A TLS failure told apart by libcurl's words: URLSession on Linux
    /// gives every TLS error as `.unknown` (or `.secureConnectionFailed`),
    /// with curl's error text as its description. A refused certificate
    /// ("SSL certificate problem: self-signed certificate", "SSL: no
    /// alternative certificate subject name matches target host name ...")
    /// is `certificate`, with OpenSSL's reason when it gives one; anything
    /// else of TLS ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong
    /// version number", "OpenSSL SSL_connect: SSL_ERROR_SYSCALL ...") is
    /// `handshake`, its words dropped: they are codes, not reasons.
    func tlsFailure(_ text: String) -> Outcome? {
        let problem = "SSL certificate problem: "
        if text.hasPrefix(problem) {
            return .failure(kind: "certificate", detail: String(text.dropFirst(problem.count)))
        }
        if text.contains("subject name") && text.contains("host") {
            return .failure(kind: "certificate", detail: "it is for another host name")
        }
        if text.contains("SSL peer certificate") { return .failure(kind: "certificate", detail: "") }
        let words = ["SSL", "TLS", "OpenSSL", "certificate"]
        return words.contains(where: { text.contains($0) }) ? .failure(kind: "handshake", detail: "") : nil
    }

    /// Writes the reply and exits; only the first call does anything.
    func finish(_ outcome: Outcome) {
        // Held until the exit: a second caller waits, and exits with it.
        state.withLock { state in finish(outcome, &state) }
    }

    private func finish(_ outcome: Outcome, _ state: inout State) {
        guard !state.finished else { return }
        state.finished = true
        var reply = "presenter-host-fetch reply \(replyVersion)\n"
        var bytes = Data()
        switch outcome {
        case .failure(let kind, let detail):
            reply += "failure \(kind)" + (detail.isEmpty ? "" : " " + oneLine(detail)) + "\n"
        case .response(let end):
            let response = state.response
            reply += "status \(response?.statusCode ?? 0)\n"
            reply += "url \(oneLine(response?.url?.absoluteString ?? arguments.url.absoluteString))\n"
            reply += "content-type \(oneLine(response?.value(forHTTPHeaderField: "Content-Type") ?? ""))\n"
            reply += "redirects \(state.redirects)\n"
            reply += "body \(state.body.count) \(end)\n"
            bytes = state.body
        }
        writeAll(Data(reply.utf8) + bytes)
        // Not exit(): URLSession's threads may be inside libcurl.
        _exit(0)
    }
}

/// `text` on one line of at most maxLineBytes: ASCII's controls (C0, DEL)
/// become spaces.
// The host's ControlCharacters.ascii, which WebTitleReply checks, written
// out: this executable links SystemShims only, not the host.
func oneLine(_ text: String) -> String {
    let scalars = text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }
    var line = String(String.UnicodeScalarView(scalars))
    while line.utf8.count > maxLineBytes { line.removeLast() }
    return line
}

/// Writes all of `data` to `fd` (stdout by default); stops when the reader
/// is gone (the host) or the descriptor is closed. Never FileHandle's
/// `write`, which stops the process on such an error.
// Its own loop, not the host's FileDescriptor.writeAll/retryingOnInterrupt: this
// executable links SystemShims only, and pulling in PresenterHost (the whole
// host) for ten lines would slow every fetch's start.
func writeAll(_ data: Data, to fd: Int32 = STDOUT_FILENO) {
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, base + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }  // the host is gone
            offset += written
        }
    }
}

/// Stdin to its end, at most 8 KiB (the host writes one short line, then closes it).
func readStandardInput() -> String {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count <= 8192 {
        let count = read(STDIN_FILENO, &chunk, chunk.count)
        if count < 0 && errno == EINTR { continue }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1000)
            continue
        }
        guard count > 0 else { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// "Basic " and the base64 of "user:password", each percent-decoded from
/// `line` ("user:password" as a URL holds it); nil when it is empty.
func basicAuthorization(_ line: String) -> String? {
    let userInfo = line.hasSuffix("\n") ? String(line.dropLast()) : line
    guard !userInfo.isEmpty else { return nil }
    let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    let decoded = parts.map { String($0).removingPercentEncoding ?? String($0) }
    let pair = decoded[0] + ":" + (decoded.count > 1 ? decoded[1] : "")
    return "Basic " + Data(pair.utf8).base64EncodedString()
}

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    let line = "presenter-host-fetch: \(error.message) (it is started by presenter-host, not by hand)\n"
    writeAll(Data(line.utf8), to: STDERR_FILENO)
    exit(64)
}
// Dies with the host (SIGKILL when the thread that spawned it ends); if the
// host is already gone, the parent is not it.
_ = ph_set_parent_death_signal(SIGKILL)
if getppid() != arguments.parent { _exit(0) }
signal(SIGPIPE, SIG_IGN)
let fetch = Fetch(arguments, authorization: arguments.userInfoOnStdin ? basicAuthorization(readStandardInput()) : nil)
fetch.start()
dispatchMain()
