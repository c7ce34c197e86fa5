import Dispatch
import FoundationEssentials
import Glibc
import HostPlugins
import HostSystem
import HostText
import PresenterABI
import SystemShims

/// Presenters in a presenter process: the host's side of the sandbox.
///
/// The process is this very program (`presenter-host`) run with an internal
/// flag (``PresenterProcessServer``), started on the first call: in a new
/// session (no controlling terminal: `/dev/tty` cannot be opened, no signal
/// the terminal sends reaches it), with stdin from `/dev/null`, stdout and
/// stderr on a pipe the host reads into the presenter log, the channel on
/// descriptor 3, its sandbox's report pipe on 4 and no other descriptor,
/// Swift's crash reporter off, and a parent-death signal, so it never
/// outlives the host. It enters the sandbox first (``PluginConfinement``),
/// loads the sealed copies of the plugin files the host checked and passes
/// it, runs every hook on its one thread
/// with a ``LocalPresenterEngine``, and answers over the presenter protocol
/// (``PresenterMessage``): what it drew comes back as drawing operations,
/// and only the host touches the terminal.
///
/// Every request must be answered within a budget (``Configuration/hookTimeout``,
/// 250 ms by default; starting and loading get ``Configuration/startTimeout``).
/// A process that crashes, exits, does not answer in time, or sends
/// anything the protocol does not allow is killed and reaped, and the call
/// throws a ``PresenterFailure``: from then on every call throws it again.
public final class PresenterProcess: PresenterEngine {
    /// How the presenter process is started and how long it may take.
    public struct Configuration: Sendable, Equatable {
        /// The `presenter-host` binary to run (this process's own by default).
        public var executable: String
        /// How long a hook may take to answer, in seconds.
        public var hookTimeout: Double
        /// How long starting the process and loading a plugin may take, in seconds.
        public var startTimeout: Double
        /// Variables the process gets besides (or instead of) the host's.
        public var environment: [String: String]
        /// The policy the plugin files are checked under (by the host, on
        /// the descriptor it copies them from: `PluginFile.image()`).
        public var policy: PluginPolicy = .strict
        /// A process already started for this engine (``PresenterProcessLaunch``),
        /// taken at the first call; nil: the first call starts one.
        public var launch: PresenterProcessLaunch?
        /// `--sandbox=require`: a presenter from a file outside
        /// ``trustedFolders`` is not run unless every layer of the sandbox is
        /// in force (``PresenterFailure/Reason/sandboxIncomplete(_:)``).
        public var requiresSandbox = false
        /// The folders of the presenters built with presenter-host (the
        /// bundled folder): those `requiresSandbox` does not hold back.
        public var trustedFolders: [String] = []

        /// Whether the plugin file at `path` is in a ``trustedFolders`` folder.
        func isTrusted(_ path: String) -> Bool {
            trustedFolders.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }

        /// The default budget of a hook: 250 ms.
        public static let defaultHookTimeout = 0.25
        /// The default budget of starting and loading: 5 s, as the scan helper's.
        public static let defaultStartTimeout = 5.0

        public init(
            executable: String = "/proc/self/exe", hookTimeout: Double = defaultHookTimeout,
            startTimeout: Double = defaultStartTimeout, environment: [String: String] = [:]
        ) {
            self.executable = executable
            self.hookTimeout = hookTimeout
            self.startTimeout = startTimeout
            self.environment = environment
        }
    }

    /// The most bytes of one line the process prints that reach the log.
    static let maxOutputLine = 4096
    /// The most lines the process may print into the log; the rest are
    /// counted and dropped (a plugin printing in a loop cannot flood the host).
    static let maxOutputLines = 10_000
    /// The most log lines and element operations one request may bring: a
    /// hook that logs in a loop breaks the protocol rather than the host.
    static let maxNoticesPerRequest = 256
    /// The longest reason the process may give for a refusal.
    static let maxReasonBytes = 512

    package weak var delegate: PresenterEngineDelegate?
    private let configuration: Configuration
    private let options: [String: String]
    private let clock: HostClock
    /// Requests carry the host's time when its clock is not the system's
    /// monotonic one (``HostClock/isSystemMonotonic``: a test's
    /// ``ManualClock``, an embedder's own clock), so `now_ns` agrees with it.
    private let pinsClock: Bool
    private var geometry: ViewGeometry
    private let output: @Sendable (PresenterLogEntry) -> Void

    private enum State {
        case idle
        case running(Running)
        case failed(PresenterFailure)
        case closed
    }
    private struct Running {
        let pid: pid_t
        let channel: FileDescriptor
        let pump: OutputPump
        let printed: PrintedLines
        let violations: FileDescriptor
    }
    /// A request sent and not answered yet.
    private struct Pending {
        let sequence: UInt32
        /// The hook it runs, for naming a failure ("start": the hello).
        let hook: String?
        /// Seconds it may take once the process is free to work on it.
        let budget: Double
        let sentAt: Double
        /// An attach, whose result is checked when it comes.
        let isAttach: Bool
    }
    private var state = State.idle
    private var sequence: UInt32 = 0
    private var incoming = FrameBuffer()
    private var receiveBuffer = [UInt8](repeating: 0, count: 65536)
    /// Requests in flight, oldest first (the process answers in order).
    private var pending: [Pending] = []
    private var awaitingHello = false
    /// When the process last finished a request (or started): the oldest
    /// pending request's budget runs from then, or from when it was sent.
    private var lastAnswer = 0.0
    private var loadedPaths = Set<String>()
    /// The presenter each attached view chose, for naming it in failures.
    private var viewPresenters: [ViewID: String] = [:]
    /// The presenter named when a failure is about no view in particular.
    private var currentPresenter = "presenter"
    /// Every presenter id the process was given (in attach chains): the
    /// only ids it may name.
    private var knownPresenters = Set<String>()
    /// Log lines and element operations since the last reply.
    private var notices = 0
    package private(set) var frameRequests: [ViewID: UInt64] = [:]
    /// The sandbox the process said it is under, once its hello came.
    private(set) var sandbox: ConfinementReport?
    /// From when the run is ending (``hurry()``), read by the wait on
    /// another thread; the start and the loading then get only the hook
    /// budget from that moment.
    private let hurryLock = Lock()
    private var hurriedAt: Double?

    package init(
        configuration: Configuration, options: [String: String], clock: HostClock, geometry: ViewGeometry,
        output: @escaping @Sendable (PresenterLogEntry) -> Void
    ) {
        self.configuration = configuration
        self.options = options
        self.clock = clock
        pinsClock = !clock.isSystemMonotonic
        self.geometry = geometry
        self.output = output
    }

    deinit { close() }

    // MARK: - PresenterEngine

    /// Sends the loading of the chain's files and the attach, and returns
    /// without waiting: the process starts, loads and creates meanwhile,
    /// and a failure of any of it throws from the next call that waits.
    package func attach(_ view: ViewID, chain: [PresenterPlugin], elements: [String]) throws(PresenterFailure) {
        guard let top = chain.first else { return }
        currentPresenter = top.id
        var paths: [String] = []
        for path in chain.map(\.file) where !loadedPaths.contains(path) && !paths.contains(path) { paths.append(path) }
        if configuration.requiresSandbox, paths.contains(where: { !configuration.isTrusted($0) }) {
            try expectDone(.geometry(geometry), hook: "start")  // its answer comes after the hello
            if let sandbox, !sandbox.isComplete { throw fail(hook: nil, .sandboxIncomplete(sandbox.summary)) }
        }
        if !paths.isEmpty {
            // The process can open no plugin folder: it loads sealed copies
            // of the files, which the host opens and checks here.
            var images: [FileDescriptor] = []
            defer { images.forEach { try? $0.close() } }
            for path in paths {
                do throws(PluginLoadFailure) {
                    images.append(try PluginFile.open(path, policy: configuration.policy).image())
                } catch {
                    throw fail(
                        hook: nil, .couldNotStart(PluginLoadError(path: path, failure: .loading(error)).description))
                }
            }
            _ = try submit(.load(paths: paths), hook: "load", budget: configuration.startTimeout, passing: images)
            loadedPaths.formUnion(paths)
        }
        let references = chain.map { PresenterMessage.PresenterRef(path: $0.file, id: $0.id) }
        viewPresenters[view] = top.id
        knownPresenters.formUnion(chain.map(\.id))
        _ = try submit(
            .attach(view: view, chain: references, elements: elements), hook: "create",
            budget: configuration.hookTimeout, isAttach: true)
    }

    package func show(_ view: ViewID, message: String, interactor: InteractorSnapshot) throws(PresenterFailure)
        -> HookOutcome
    {
        try outcome(of: .show(view: view, message: message, interactor: interactor), view: view, hook: "show")
    }

    package func hide(
        _ view: ViewID, message: String?, interactor: InteractorSnapshot,
        failure: InteractorError?
    ) throws(PresenterFailure) -> HookOutcome {
        try outcome(
            of: .hide(view: view, message: message, interactor: interactor, failure: failure), view: view, hook: "hide")
    }

    package func progress(_ view: ViewID, interactor: InteractorSnapshot) throws(PresenterFailure) -> HookOutcome {
        try outcome(of: .progress(view: view, interactor: interactor), view: view, hook: "progress")
    }

    package func render(_ view: ViewID, at now: UInt64) throws(PresenterFailure) -> [DrawOperation] {
        name(view)
        guard case .drawing(let operations) = try call(.render(view: view, now: now), hook: "render") else {
            throw violation("render", "answered render with something else than a drawing")
        }
        guard operations.count <= DrawOperation.maxPerRender else {
            throw violation("render", "drew \(operations.count) things, more than \(DrawOperation.maxPerRender)")
        }
        for case .text(_, _, _, _, let text) in operations where text.utf8.count > DrawOperation.maxTextBytes {
            throw violation(
                "render", "drew a text of \(text.utf8.count) bytes, more than \(DrawOperation.maxTextBytes)")
        }
        return operations
    }

    package func key(_ view: ViewID, code: UInt32) throws(PresenterFailure) -> Bool {
        name(view)
        guard case .keyUsed(let used) = try call(.key(view: view, code: code), hook: "key") else {
            throw violation("key", "answered key with something else than yes or no")
        }
        return used
    }

    package func setGeometry(_ geometry: ViewGeometry) throws(PresenterFailure) {
        self.geometry = geometry
        guard case .running = state else { return }  // configure sends it at the start
        try expectDone(.geometry(geometry), hook: nil)
    }

    package func detach(_ view: ViewID) throws(PresenterFailure) {
        name(view)
        try expectDone(.detach(view: view), hook: "destroy")
        viewPresenters[view] = nil
    }

    /// Closes the channel (the process then exits at once), waits for it up
    /// to the hook budget, kills it if it is still there, reaps it, and
    /// reads what it printed last.
    package func close() {
        guard case .running(let running) = state else {
            if case .idle = state { state = .closed }
            return
        }
        end(running, waitingUpTo: configuration.hookTimeout)
    }

    /// The run is ending: from now on, a start or a loading still under way
    /// gets only the hook budget. Any thread.
    package func hurry() {
        hurryLock.withLock { hurriedAt = hurriedAt ?? Self.now() }
    }

    // MARK: - Calls

    private func outcome(of request: PresenterMessage.Request, view: ViewID, hook: String) throws(PresenterFailure)
        -> HookOutcome
    {
        name(view)
        guard case .outcome(let outcome) = try call(request, hook: hook) else {
            throw violation(hook, "answered \(hook) with something else than a status")
        }
        return outcome
    }

    private func expectDone(_ request: PresenterMessage.Request, hook: String?) throws(PresenterFailure) {
        guard case .done = try call(request, hook: hook) else {
            throw violation(hook, "answered with something else than done")
        }
    }

    /// Names `view`'s presenter in failures from now on.
    private func name(_ view: ViewID) {
        if let presenter = viewPresenters[view] { currentPresenter = presenter }
    }

    /// Sends `request` and waits for its reply (and those before it).
    private func call(_ request: PresenterMessage.Request, hook: String?) throws(PresenterFailure)
        -> PresenterMessage.Result
    {
        try awaitReply(try submit(request, hook: hook, budget: configuration.hookTimeout))
    }

    /// Sends `request`, starting the process first if need be, and returns
    /// its number; the reply is waited for by ``awaitReply(_:)``.
    private func submit(
        _ request: PresenterMessage.Request, hook: String?, budget: Double,
        isAttach: Bool = false, passing images: [FileDescriptor] = []
    ) throws(PresenterFailure) -> UInt32 {
        let running = try started()
        if pending.isEmpty && !awaitingHello {
            // Anything waiting now came between requests: the process ended
            // (or spoke out of turn) while it had nothing to do.
            try receiveAvailable(running)
        }
        sequence &+= 1
        let body = PresenterMessage.encode(request, sequence: sequence, clock: pinsClock ? max(1, clock.now()) : 0)
        let now = Self.now()
        if pending.isEmpty && !awaitingHello { lastAnswer = now }
        pending.append(Pending(sequence: sequence, hook: hook, budget: budget, sentAt: now, isAttach: isAttach))
        try send(MessageCoding.frame(body), to: running, hook: hook, passing: images)
        return sequence
    }

    /// Handles what the process sends until the reply to request `number`
    /// has come, and returns its result. Replies to earlier requests (the
    /// start, loading, attach) are checked on the way.
    private func awaitReply(_ number: UInt32) throws(PresenterFailure) -> PresenterMessage.Result {
        let running = try started()
        while true {
            let head = pending.first
            let (hook, budget) = awaitingHello ? ("start", configuration.startTimeout) : (head?.hook, head?.budget ?? 0)
            let since = max(head?.sentAt ?? lastAnswer, lastAnswer)
            // Starting and loading get more than a hook, but not once the run
            // is ending: ``hurry()`` may come from another thread meanwhile,
            // so such a wait looks again every 50 ms.
            let long = budget > configuration.hookTimeout
            let deadline = { [self] () -> Double in
                guard long, let hurriedAt = hurryLock.withLock({ hurriedAt }) else { return since + budget }
                return min(since + budget, hurriedAt + configuration.hookTimeout)
            }
            guard let message = try next(running, until: deadline, slices: long, hook: hook) else { continue }
            if awaitingHello {
                guard case .notice(.hello(let version, let report)) = message else {
                    throw violation("start", "did not say hello first")
                }
                guard version == PresenterMessage.version else {
                    throw violation(
                        "start", "speaks presenter protocol \(version), this host \(PresenterMessage.version)")
                }
                guard let report = ConfinementReport(encoded: report) else {
                    throw violation("start", "did not say which sandbox it is under")
                }
                sandbox = report
                // Said once a process, in the presenter log (`-v`): the host's words, not the presenter's.
                delegate?.engine(
                    log: PresenterLogEntry(
                        level: report.isComplete ? .info : .warning, presenterId: nil,
                        message: "sandbox: " + report.summary))
                awaitingHello = false
                lastAnswer = Self.now()
                continue
            }
            if case .notice = message {
                // A hook that logs in a loop must not keep the host reading past its budget.
                notices += 1
                guard notices <= Self.maxNoticesPerRequest else {
                    throw violation(
                        hook, "sent more than \(Self.maxNoticesPerRequest) log lines and element changes in one hook")
                }
                guard Self.now() <= deadline() else { throw hung(hook) }
            }
            switch message {
            case .notice(.log(var entry)):
                guard entry.presenterId.map(knownPresenters.contains) ?? true else {
                    throw violation(hook, "logged as a presenter it was not given")
                }
                entry.presenterId = entry.presenterId ?? currentPresenter
                entry.message = Self.cut(entry.message, to: HostServices.maxLogBytes)
                delegate?.engine(log: entry)
            case .notice(.element(let view, let name, let operation)):
                guard head != nil, viewPresenters[view] != nil else {
                    throw violation(hook, "changed an element of view \(view) outside a hook of that view")
                }
                delegate?.engine(view: view, element: name, operation: operation)
            case .notice(.hello):
                throw violation(hook, "said hello twice")
            case .reply(let reply):
                guard let head, reply.sequence == head.sequence else {
                    throw violation(
                        hook, "sent reply \(reply.sequence) when \(head.map { String($0.sequence) } ?? "none") was due")
                }
                pending.removeFirst()
                notices = 0
                lastAnswer = Self.now()
                for view in reply.frameRequests.keys where viewPresenters[view] == nil {
                    throw violation(hook, "asked for a frame for view \(view), which it does not have")
                }
                frameRequests = reply.frameRequests
                try check(reply.result, of: head)
                if head.sequence == number { return reply.result }
            }
        }
    }

    /// `text` cut to at most `bytes` bytes of UTF-8, at a character's end.
    private static func cut(_ text: String, to bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: bytes)
        while end > text.startIndex && !text.unicodeScalars.indices.contains(end) { end = text.utf8.index(before: end) }
        return String(text[..<end])
    }

    /// Throws for an earlier request whose result means the presenter
    /// cannot go on (a file that did not load, a failed create).
    private func check(_ result: PresenterMessage.Result, of request: Pending) throws(PresenterFailure) {
        switch result {
        case .refused(let reason):
            // Its words reach the user's terminal: one line, escaped, bounded.
            throw fail(hook: nil, .couldNotStart(PrintableText.escaping(Self.cut(reason, to: Self.maxReasonBytes))))
        case let .createFailed(presenterId, status, message):
            guard request.isAttach, knownPresenters.contains(presenterId) else {
                throw violation(request.hook, "named a presenter it was not given")
            }
            currentPresenter = presenterId
            throw fail(
                hook: "create",
                .createFailed(status: status, message: message.map { Self.cut($0, to: HostServices.maxLogBytes) }))
        case .outcome(let outcome):
            guard ["", "show", "hide", "progress"].contains(outcome.hook),
                outcome.presenterId.isEmpty || knownPresenters.contains(outcome.presenterId)
            else {
                throw violation(request.hook, "answered for a hook or presenter it was not asked about")
            }
        case .done, .drawing, .keyUsed:
            break
        }
        if case .done = result { return }
        guard !request.isAttach && request.hook != "load" && request.hook != "start" else {
            throw violation(request.hook, "answered with something else than done")
        }
    }

    /// The running process, started now if need be (without waiting for
    /// it: its hello is checked with the first reply); throws the failure
    /// that ended it before.
    private func started() throws(PresenterFailure) -> Running {
        switch state {
        case .running(let running): return running
        case .failed(let failure): throw failure
        case .closed:
            throw PresenterFailure(presenterId: currentPresenter, hook: nil, reason: .couldNotStart("it was closed"))
        case .idle: break
        }
        // Started ahead by `run` (its registry load and command spawn went on
        // meanwhile), else now.
        let launched = configuration.launch?.take(for: configuration) ?? PresenterProcessLaunch.spawn(configuration)
        let started: PresenterProcessLaunch.Started
        switch launched {
        case .success(let value): started = value
        case .failure(let failure): throw fail(hook: nil, .couldNotStart(failure.reason))
        }
        try? started.channel.setNonBlocking()
        let printed = PrintedLines(presenterId: currentPresenter, output: output)
        let pump = OutputPump(fd: started.log) { printed.append($0) }
        let running = Running(
            pid: started.pid, channel: started.channel, pump: pump, printed: printed, violations: started.violations)
        state = .running(running)
        awaitingHello = true
        lastAnswer = Self.now()
        sequence &+= 1
        let body = PresenterMessage.encode(
            .configure(options: self.options, geometry: geometry), sequence: sequence,
            clock: pinsClock ? max(1, clock.now()) : 0)
        pending.append(
            Pending(
                sequence: sequence, hook: "start", budget: configuration.startTimeout, sentAt: lastAnswer,
                isAttach: false))
        try send(MessageCoding.frame(body), to: running, hook: "start")
        return running
    }

    /// Reads what is there without waiting; with nothing in flight, any
    /// message is out of turn, and the end of the channel means the process
    /// ended between hooks.
    private func receiveAvailable(_ running: Running) throws(PresenterFailure) {
        if try next(running, until: nil, hook: nil) != nil {
            throw violation(nil, "spoke when nothing was asked")
        }
    }

    /// The next message, waiting for it until `deadline` (nil: only if one
    /// is there already; then nil when none is), in waits of at most 50 ms
    /// with `slices` (the deadline may move meanwhile). Throws when the
    /// process ended, ran out of time or sent bytes that are not a message.
    private func next(
        _ running: Running, until deadline: (() -> Double)?, slices: Bool = false,
        hook: String?
    ) throws(PresenterFailure) -> PresenterMessage.Incoming? {
        while true {
            do throws(MessageError) {
                if let body = try incoming.next() { return try PresenterMessage.decodeIncoming(body) }
            } catch {
                throw violation(hook, error.description)
            }
            // Past the deadline, what is there already still counts: the host
            // may have been stopped (SIGSTOP) while the answer came.
            let remaining = deadline.map { max(0, $0() - Self.now()) } ?? 0
            let end = Self.now() + (slices ? min(remaining, 0.05) : remaining)
            let ready = try? running.channel.wait(for: .input) { MonotonicTime.milliseconds(until: end) }
            if ready?.isEmpty == true {
                if deadline == nil { return nil }
                if remaining <= 0 { throw hung(hook) }
                continue
            }
            let count: Int
            do throws(Errno) {
                count = try running.channel.read(into: &receiveBuffer)
            } catch {
                if error.wouldBlock { continue }
                throw ended(hook)
            }
            guard count > 0 else { throw ended(hook) }
            receiveBuffer.withUnsafeBytes { incoming.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Writes `bytes` to the channel. Requests are small and the process
    /// reads them as it goes; one that stopped reading runs out of its
    /// budget while the host waits for its reply, so a full channel waits
    /// at most the hook budget.
    private func send(
        _ bytes: [UInt8], to running: Running, hook: String?, passing images: [FileDescriptor] = []
    ) throws(PresenterFailure) {
        let deadline = Self.now() + configuration.hookTimeout
        // It stopped reading while busy with its oldest request: wait for
        // room until the budget is spent.
        do throws(Errno) {
            try running.channel.send(bytes, passing: images) {
                let remaining = deadline - Self.now()
                return remaining > 0 ? Int32(remaining * 1000 + 1) : nil
            }
        } catch {
            switch error.code {
            case EPIPE, ECONNRESET:
                // The process is gone: the replies it sent first, and the end of
                // the channel after them, are read by the next wait, which so
                // blames the request it died on, not this later one.
                return
            case EAGAIN:
                throw hung(pending.first?.hook ?? hook)
            default:
                throw ended(hook)
            }
        }
    }

    // MARK: - Failures

    /// The channel reached its end: the process ended, or closed it (then it
    /// is killed after the hook budget, for breaking the protocol).
    private func ended(_ hook: String?) -> PresenterFailure {
        guard case .running(let running) = state else { return fail(hook: hook, .couldNotStart("it was closed")) }
        let (termination, killed, records) = end(running, waitingUpTo: configuration.hookTimeout)
        let reason: PresenterFailure.Reason
        if killed {
            reason = .protocolViolation("closed its connection to the host")
        } else {
            reason = Self.reason(for: termination, records: records)
        }
        return fail(hook: hook, reason)
    }

    /// Why a process that ended on its own ended (its sandbox's reports read).
    static func reason(
        for termination: ChildProcess.Termination, records: [ConfinementViolation.Record]
    ) -> PresenterFailure.Reason {
        switch ConfinementViolation.Ending(termination, records: records) {
        case .stopped(let violation): .stopped(violation)
        case .signaled(let signal): .crashed(signal: signal)
        case .exited(let status): .exited(status: status)
        }
    }

    private func hung(_ hook: String?) -> PresenterFailure {
        let long = (hook == "start" || hook == "load") && hurryLock.withLock({ hurriedAt }) == nil
        let budget = long ? configuration.startTimeout : configuration.hookTimeout
        return fail(hook: hook, .hung(milliseconds: Int((budget * 1000).rounded())))
    }

    private func violation(_ hook: String?, _ detail: String) -> PresenterFailure {
        fail(hook: hook, .protocolViolation(detail))
    }

    /// Records `reason` as the end of the process, killing and reaping it
    /// (at once) unless that was done, and returns the failure to throw.
    private func fail(hook: String?, _ reason: PresenterFailure.Reason) -> PresenterFailure {
        let failure = PresenterFailure(presenterId: currentPresenter, hook: hook, reason: reason)
        if case .running(let running) = state { end(running, waitingUpTo: 0) }
        state = .failed(failure)
        pending = []
        return failure
    }

    /// Closes the channel (the process exits when it reads its end), waits
    /// up to `seconds` for it, kills it and what it started (its process
    /// group) if need be, reaps it, and drains what it printed and what its
    /// sandbox reported.
    @discardableResult
    private func end(
        _ running: Running, waitingUpTo seconds: Double
    ) -> (ChildProcess.Termination, killed: Bool, records: [ConfinementViolation.Record]) {
        state = .closed
        try? running.channel.close()
        let (termination, killed) = ProcessExit.end(running.pid, waitingUpTo: seconds, group: true)
        let records = ConfinementViolation.read(running.violations)
        try? running.violations.close()
        running.pump.finish()
        running.printed.finish()
        return (termination, killed, records)
    }

    private static func now() -> Double { MonotonicTime.seconds() }
}

/// What a presenter process prints, as log entries: cut into lines of at
/// most ``PresenterProcess/maxOutputLine`` bytes (a longer one is cut and
/// marked), at most ``PresenterProcess/maxOutputLines`` of them (the rest
/// counted), one partial line kept. Fed on the output pump's queue;
/// ``finish()`` after the pump finished.
// Safe: fed only on the output pump's serial queue; `finish()` runs after the pump finished.
private final class PrintedLines: @unchecked Sendable {
    private let presenterId: String
    private let output: @Sendable (PresenterLogEntry) -> Void
    private var pending: [UInt8] = []
    private var cut = false
    private var lines = 0
    private var dropped = 0

    init(presenterId: String, output: @escaping @Sendable (PresenterLogEntry) -> Void) {
        self.presenterId = presenterId
        self.output = output
    }

    func append(_ bytes: [UInt8]) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let piece = rest[..<(newline ?? rest.endIndex)]
            let room = max(0, PresenterProcess.maxOutputLine - pending.count)
            pending.append(contentsOf: piece.prefix(room))
            if piece.count > room { cut = true }
            guard let newline else { break }
            emit()
            rest = rest[(newline + 1)...]
        }
    }

    /// The last line, if it had no newline, and the count of those dropped.
    func finish() {
        if !pending.isEmpty { emit() }
        if dropped > 0 {
            output(
                PresenterLogEntry(
                    level: .warning, presenterId: presenterId,
                    message: "printed \(dropped) more lines, not shown"))
            dropped = 0
        }
    }

    private func emit() {
        defer {
            pending.removeAll(keepingCapacity: true)
            cut = false
        }
        guard lines < PresenterProcess.maxOutputLines else {
            dropped += 1
            return
        }
        lines += 1
        output(
            PresenterLogEntry(
                level: .warning, presenterId: presenterId,
                message: "printed: " + String(decoding: pending, as: UTF8.self) + (cut ? " [cut]" : "")))
    }
}
