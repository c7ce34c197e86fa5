import Glibc
import HostSystem

/// One title fetch (blocking `run()` on any thread; `cancel()` from another).
///
/// `run()` spawns presenter-host-fetch (the only program that links
/// FoundationNetworking; see docs/ARCHITECTURE.md, "Get-title") with the
/// URL, reads its reply (``WebTitleReply``) and finds the title in the page
/// (``WebTitle/title(from:url:timeout:)``). The fetcher enforces the
/// timeout (connecting included) itself; the host kills it (SIGKILL) if it
/// has not answered ``killGrace`` seconds after, so a fetch never outlasts
/// its timeout by more. `cancel()` kills it at once: `run()` then returns
/// "cancelled".
package final class WebTitleFetch: Sendable {
    /// The timeout when none is given, in seconds.
    package static let defaultTimeout: Double = 10
    /// How long past the timeout a fetcher that has not answered lives: its
    /// start-up and the writing of its reply.
    static let killGrace: Double = 1
    /// The most reply bytes read: the page's and the reply's lines.
    static let maxReplyBytes = WebTitle.maxBytes + 64 * 1024

    /// The URL as given (normalized when the fetch runs; without a scheme
    /// it is tried over https, then http: ``WebTitle/attempts(for:)``).
    package let url: String
    /// The connect and total timeout, in seconds.
    package let timeout: Double
    private let environment: [String: String]
    private let fetcher: String?

    private struct State {
        /// The fetcher while it may be killed: set before it is reaped.
        var pid: pid_t?
        var cancelled = false
        var result: Result<String, WebTitleError>?
        var answeredURL: String?
    }

    private let state = LockedValue(State())
    private let note: (@Sendable (String) -> Void)?

    /// `fetcher`: path of presenter-host-fetch; nil = next to /proc/self/exe
    /// (then <dir>/../libexec/presenter-host/presenter-host-fetch).
    /// `environment` is the fetcher's: its proxy variables (http_proxy,
    /// https_proxy, ALL_PROXY, NO_PROXY) apply as curl applies them.
    /// `note` hears, on the fetching thread, what the fetch decided on its
    /// way (an https attempt that failed, and the http one that follows;
    /// `-v`).
    package init(
        url: String, timeout: Double = defaultTimeout,
        environment: [String: String],
        fetcher: String? = nil, note: (@Sendable (String) -> Void)? = nil
    ) {
        self.url = url
        self.timeout = timeout
        self.environment = environment
        self.fetcher = fetcher
        self.note = note
    }

    /// The URL whose answer ``run()`` gave (the http one when a URL typed
    /// without a scheme fell back to http); nil before that, and when no
    /// fetch ran (an impossible URL, a cancel).
    package var fetchedURL: String? { state.withLock { $0.answeredURL } }

    /// Fetches the page and returns its title, or why there is none. Blocks
    /// for at most the timeout plus ``killGrace``. A second call returns the
    /// first call's result.
    package func run() -> Result<String, WebTitleError> {
        let earlier: Result<String, WebTitleError>? = state.withLock {
            $0.cancelled ? .failure(.cancelled) : $0.result
        }
        if let earlier { return earlier }
        let fetched = fetch()
        return state.withLock { state in
            let final = state.cancelled ? .failure(.cancelled) : fetched
            state.result = final
            return final
        }
    }

    /// Stops the fetch: kills the fetcher; `run()` returns "cancelled".
    /// Safe from any thread, before, during or after `run()`.
    package func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let pid = state.pid { ProcessSignals.send(SIGKILL, to: pid) }
        }
    }

    private func fetch() -> Result<String, WebTitleError> {
        let attempts: [String]
        let userInfo: String?
        do {
            attempts = try WebTitle.attempts(for: url)
            userInfo = try WebTitle.userInfo(in: url)
        } catch {
            return .failure(error)
        }
        // URLSession on Linux refuses every URL whose host is an IPv6
        // address (its host, "::1", and libcurl's, "[::1]", differ, and it
        // takes that for a bad URL: "NSURLErrorDomain error -1000"): said
        // plainly, with no fetcher started.
        if let host = WebAddress(attempts[0])?.host, host.hasPrefix("[") {
            return .failure(.ipv6Address(host))
        }
        guard timeout > 0 && timeout <= 86_400 else {
            return .failure(WebTitleError(reason: "the timeout must be from 0 to 86400 seconds, not \(timeout)"))
        }
        let path: String
        switch Self.locateFetcher(fetcher) {
        case .success(let found): path = found
        case .failure(let error): return .failure(error)
        }
        // One budget for every attempt: the http one gets what https left.
        let deadline = MonotonicTime.nanoseconds() &+ UInt64(timeout * 1e9)
        var failed: WebTitleError?
        for (index, target) in attempts.enumerated() {
            if state.withLock({ $0.cancelled }) { return .failure(.cancelled) }
            let now = MonotonicTime.nanoseconds()
            guard now < deadline else { return .failure(.timeout(timeout)) }
            let reply: WebTitleReply
            switch attempt(target, userInfo: userInfo, fetcher: path, seconds: Double(deadline - now) / 1e9) {
            case .success(let answer): reply = answer
            case .failure(let error): return .failure(error)
            }
            let meaning = WebTitle.title(from: reply, url: target, timeout: timeout)
            if index + 1 < attempts.count, WebTitle.fallsBack(after: reply), case .failure(let error) = meaning {
                note?("\(target): \(error.withoutAdvice); trying \(attempts[index + 1])")
                failed = error
                continue
            }
            state.withLock { $0.answeredURL = target }
            // Both attempts failed before any response: one reason for the two.
            if let failed, case .failure = reply, case .failure(let error) = meaning {
                return .failure(.neither(https: failed, http: error))
            }
            if case .failure(let kind, _) = reply, kind == "certificate", index + 1 < attempts.count {
                note?(
                    "\(target): the certificate is refused; not trying http (a certificate error is no connection failure)"
                )
            }
            return meaning
        }
        return .failure(failed ?? .timeout(timeout))
    }

    /// One run of the fetcher on `target` with `seconds` left: its reply,
    /// or why there is none. `userInfo` ("user:password", percent-encoded)
    /// reaches it on its stdin, never on its command line, which every
    /// user of the machine can read in /proc.
    private func attempt(_ target: String, userInfo: String?, fetcher path: String, seconds: Double) -> Result<
        WebTitleReply, WebTitleError
    > {
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do throws(Errno) {
            pipe = try FileDescriptor.pipe()
        } catch {
            return .failure(.fetcherFailed(path, "cannot be started: \(errnoText(error.code))"))
        }
        defer { try? pipe.readEnd.close() }
        var input: Spawn.Source = .null(O_RDONLY)
        if let userInfo {
            do throws(Errno) {
                input = .descriptor(try Self.pipe(holding: userInfo + "\n"))
            } catch {
                return .failure(.fetcherFailed(path, "cannot be started: \(errnoText(error.code))"))
            }
        }
        defer { if case .descriptor(let fd) = input { try? fd.close() } }
        var options = Spawn.Options()
        options.descriptors = [
            .standardInput: input, .standardOutput: .descriptor(pipe.writeEnd), .standardError: .null(O_WRONLY),
        ]
        options.closeOthers = true
        // A Ctrl-C meant for the host is the host's to act on (cancel).
        options.newProcessGroup = true
        options.environment = environment.map { "\($0.key)=\($0.value)" }
        let arguments =
            [
                "presenter-host-fetch", "--parent", String(ProcessSelf.id), "--timeout", String(seconds),
                "--max-bytes", String(WebTitle.maxBytes), "--max-redirects", String(WebTitle.maxRedirects),
            ] + (userInfo == nil ? [] : ["--user-info-on-stdin"]) + ["--", target]
        let spawned = Spawn.start(path, arguments, options)
        try? pipe.writeEnd.close()
        let child: pid_t
        switch spawned {
        case .success(let pid): child = pid
        case .failure(let failure):
            return .failure(.fetcherFailed(path, "cannot be started: \(errnoText(failure.code))"))
        }
        state.withLock { state in
            state.pid = child
            if state.cancelled { ProcessSignals.send(SIGKILL, to: child) }
        }
        let deadline = MonotonicTime.nanoseconds() &+ UInt64((seconds + Self.killGrace) * 1e9)
        let (reply, ending) = Self.read(pipe.readEnd, before: deadline)
        state.withLock { $0.pid = nil }
        if ending != .endOfFile { ProcessSignals.send(SIGKILL, to: child) }
        let termination = ProcessExit.end(child, waitingUpTo: 1).0
        switch ending {
        case .deadline:
            return .failure(.timeout(timeout))
        case .tooLong:
            return .failure(.fetcherFailed(path, "sent more than \(Self.maxReplyBytes) bytes"))
        case .endOfFile:
            if reply.isEmpty && termination != .exited(0) {
                return .failure(.fetcherFailed(path, "ended (\(Self.describe(termination))) without answering"))
            }
            do {
                return .success(try WebTitleReply.decode(reply, maxBody: WebTitle.maxBytes))
            } catch {
                return .failure(.fetcherFailed(path, "sent a reply that cannot be read: \(error)"))
            }
        }
    }

    /// The read end of a pipe that holds `line`, then its end: written
    /// whole before the fetcher starts, as it fits (at most 4 KiB:
    /// ``WebTitle/maxUserInfoBytes``; a pipe holds at least a page), so
    /// no write waits on the fetcher.
    private static func pipe(holding line: String) throws(Errno) -> FileDescriptor {
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        defer { try? pipe.writeEnd.close() }
        do throws(Errno) {
            try pipe.writeEnd.writeAll(Array(line.utf8))
        } catch {
            try? pipe.readEnd.close()
            throw error
        }
        return pipe.readEnd
    }

    /// How reading a reply ended.
    private enum Ending {
        case endOfFile, deadline, tooLong
    }

    /// Everything the fetcher writes, until it closes its stdout (it ended),
    /// the deadline (on MonotonicTime) or ``maxReplyBytes``.
    private static func read(_ fd: FileDescriptor, before deadline: UInt64) -> ([UInt8], Ending) {
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            guard MonotonicTime.nanoseconds() < deadline else { return (reply, .deadline) }
            let ready = try? fd.wait(for: .input) {
                let now = MonotonicTime.nanoseconds()
                return now < deadline ? Int32(min((deadline - now) / 1_000_000 + 1, 60_000)) : 0
            }
            guard let ready, !ready.isEmpty else { continue }  // the wait's end: the deadline check decides
            let count: Int
            do throws(Errno) {
                count = try fd.read(into: &chunk)
            } catch {
                if error.wouldBlock { continue }
                return (reply, .endOfFile)
            }
            guard count > 0 else { return (reply, .endOfFile) }
            reply += chunk[..<count]
            if reply.count > maxReplyBytes { return (reply, .tooLong) }
        }
    }

    private static func describe(_ termination: ChildProcess.Termination) -> String {
        switch termination {
        case .exited(let status): return "exit status \(status)"
        case .signaled(let signal): return SignalName.of(signal)
        }
    }

    /// The fetcher to run: `explicit`, else presenter-host-fetch next to
    /// `executable` (nil: the running one), else in its prefix's
    /// libexec/presenter-host.
    static func locateFetcher(_ explicit: String?, executable: String? = nil) -> Result<String, WebTitleError> {
        var candidates: [String] = []
        if let explicit {
            candidates = [explicit]
        } else if let executable = executable ?? PathName.readExecutableLink() {
            candidates = PathName.companionCandidates("presenter-host-fetch", of: executable)
        }
        if let found = candidates.first(where: FileStatus.isExecutable) { return .success(found) }
        return .failure(.fetcherMissing(candidates))
    }
}
