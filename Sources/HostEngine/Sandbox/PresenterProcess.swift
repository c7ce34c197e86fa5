import Glibc
import HostPlugins
import HostSandbox
import HostSystem

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
package final class PresenterProcess: PresenterEngine {
    /// The most bytes of one line the process prints that reach the log.
    static let maxOutputLine = 4096
    /// The most lines the process may print into the log; the rest are
    /// counted and dropped (a plugin printing in a loop cannot flood the host).
    static let maxOutputLines = 10_000
    /// The most log lines and element operations one request may bring: a
    /// hook that logs in a loop breaks the protocol rather than the host.
    static let maxNoticesPerRequest = 256

    package weak var delegate: PresenterEngineDelegate?
    let configuration: PresenterProcessConfiguration
    let options: [String: String]
    let clock: HostClock
    /// Requests carry the host's time when its clock is not the system's
    /// monotonic one (``HostClock/isSystemMonotonic``: a test's
    /// ``ManualClock``, an embedder's own clock), so `now_ns` agrees with it.
    let pinsClock: Bool
    var geometry: ViewGeometry
    let output: @Sendable (PresenterLogEntry) -> Void

    enum State {
        case idle
        case running(Running)
        case failed(PresenterFailure)
        case closed
    }
    struct Running {
        let pid: pid_t
        let channel: PresenterChannel
        let pump: OutputPump
        let printed: PrintedLines
        let violations: FileDescriptor
    }
    /// A request sent and not answered yet.
    struct Pending: Equatable {
        let sequence: UInt32
        /// The hook it runs, for naming a failure (`.start`: the hello).
        let hook: Hook?
        /// Seconds it may take once the process is free to work on it.
        let budget: Double
        let sentAt: Double
        /// An attach, whose result is checked when it comes.
        let isAttach: Bool
        /// A load: what it asked for, which its answer must be.
        var load: Load? = nil
    }
    /// What a load asked for: the handles its answer must give, in order,
    /// and the files and presenters a refusal of it may name.
    struct Load: Equatable {
        let handles: [PresenterMessage.Handle]
        let files: [PresenterMessage.FileLoad]
    }
    /// A presenter as the process loads it: a file's descriptor.
    struct DescriptorKey: Hashable {
        let file: String
        let index: Int
        init(_ plugin: PresenterPlugin) { (file, index) = (plugin.file, plugin.index) }
    }
    var state = State.idle
    var sequence: UInt32 = 0
    /// Requests in flight, oldest first (the process answers in order).
    var pending: [Pending] = []
    /// What the wait for a reply knows from one message to the next.
    var replyWait = ReplyWait(maxNotices: maxNoticesPerRequest)
    /// When the process last finished a request (or started): the oldest
    /// pending request's budget runs from then, or from when it was sent.
    var lastAnswer = 0.0
    var loadedPaths = Set<String>()
    /// The process's start while its exec is not known to have worked.
    var unconfirmedExec: Spawn.Beginning?
    /// The handle of each presenter the process was asked to load: what
    /// attach names it by (the process numbers them from 0, in order).
    var handles: [DescriptorKey: PresenterMessage.Handle] = [:]
    /// The presenter each attached view chose, for naming it in failures.
    var viewPresenters: [ViewID: String] = [:]
    /// The presenter named when a failure is about no view in particular.
    var currentPresenter = "presenter"
    /// Every presenter id the process was given (in attach chains): the
    /// only ids it may name.
    var knownPresenters = Set<String>()
    package internal(set) var frameRequests: [ViewID: UInt64] = [:]
    /// The sandbox the process said it is under, once its hello came.
    var sandbox: ConfinementReport?
    /// From when the run is ending (``hurry()``), read by the wait on
    /// another thread; the start and the loading then get only the hook
    /// budget from that moment.
    let hurriedAt = LockedValue<Double?>(nil)
    /// Whether the run dismissed the process (``dismiss``), and its number
    /// while it is ours to kill (running and not reaped): one lock, so a
    /// dismissal never kills a number that was reaped meanwhile.
    let dismissal = LockedValue(Dismissal())

    package init(
        configuration: PresenterProcessConfiguration, options: [String: String], clock: HostClock,
        geometry: ViewGeometry,
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
    package func attach(_ view: ViewID, chain: PresenterChain, elements: [String]) throws(PresenterFailure) {
        currentPresenter = chain.id
        // The presenters not loaded yet, by file, the handles they will
        // have, and the files not passed yet.
        let new = chain.plugins.filter { handles[DescriptorKey($0)] == nil }
        var files: [PresenterMessage.FileLoad] = []
        for plugin in new {
            let presenter = PresenterMessage.Presenter(index: UInt32(plugin.index), id: plugin.id)
            if let at = files.firstIndex(where: { $0.path == plugin.file }) {
                files[at].presenters.append(presenter)
            } else {
                files.append(.init(path: plugin.file, presenters: [presenter]))
            }
        }
        let wire = files.flatMap { file in new.filter { $0.file == file.path } }  // as the process numbers them
        let expected = new.indices.map { PresenterMessage.Handle(handles.count + $0) }
        let paths = files.map(\.path).filter { !loadedPaths.contains($0) }
        if configuration.requiresSandbox, paths.contains(where: { !configuration.isTrusted($0) }) {
            try expectDone(.geometry(geometry), hook: .start)  // its answer comes after the hello
            if let sandbox, !sandbox.isComplete { throw stop(in: nil, .sandboxIncomplete(sandbox.summary)) }
        }
        if !files.isEmpty {
            // The process can open no plugin folder: it loads sealed copies
            // of the files, which the host opens and checks here: the check
            // that the file is still what it was (a file swapped since is
            // refused by the same rules) and the copy are one step.
            var images: [FileDescriptor] = []
            defer { images.forEach { try? $0.close() } }
            for path in paths {
                do throws(PluginLoadFailure) {
                    images.append(try PluginFile.open(path, policy: configuration.policy).image())
                } catch {
                    throw stop(in: nil, .couldNotStart(.file(PluginLoadError(path: path, failure: .loading(error)))))
                }
            }
            _ = try submit(
                .load(files: files), hook: .load, budget: configuration.startTimeout, passing: images,
                load: Load(handles: expected, files: files))
            loadedPaths.formUnion(paths)
            for (plugin, handle) in zip(wire, expected) { handles[DescriptorKey(plugin)] = handle }
        }
        let chainHandles = chain.plugins.compactMap { handles[DescriptorKey($0)] }
        viewPresenters[view] = chain.id
        knownPresenters.formUnion(chain.plugins.map(\.id))
        _ = try submit(
            .attach(view: view, chain: chainHandles, elements: elements), hook: .create,
            budget: configuration.hookTimeout, isAttach: true)
    }

    package func show(_ view: ViewID, message: String, interactor: InteractorSnapshot) throws(PresenterFailure)
        -> HookOutcome
    {
        try outcome(of: .show(view: view, message: message, interactor: interactor), view: view, hook: .show)
    }

    package func hide(
        _ view: ViewID, message: String?, interactor: InteractorSnapshot,
        failure: InteractorError?
    ) throws(PresenterFailure) -> HookOutcome {
        try outcome(
            of: .hide(view: view, message: message, interactor: interactor, failure: failure), view: view, hook: .hide)
    }

    package func progress(_ view: ViewID, interactor: InteractorSnapshot) throws(PresenterFailure) -> HookOutcome {
        try outcome(of: .progress(view: view, interactor: interactor), view: view, hook: .progress)
    }

    package func render(_ view: ViewID, at now: UInt64, final: Bool) throws(PresenterFailure) -> [DrawOperation] {
        name(view)
        guard case .drawing(let operations) = try call(.render(view: view, now: now, final: final), hook: .render)
        else {
            throw stop(in: .render, .protocolViolation(.wrongAnswer(to: .render, expected: .drawing)))
        }
        guard operations.count <= DrawOperation.maxPerRender else {
            throw stop(
                in: .render,
                .protocolViolation(.tooManyDrawOperations(count: operations.count, limit: DrawOperation.maxPerRender)))
        }
        func check(_ text: String) throws(PresenterFailure) {
            guard text.utf8.count > DrawOperation.maxTextBytes else { return }
            throw stop(
                in: .render,
                .protocolViolation(.textTooLong(bytes: text.utf8.count, limit: DrawOperation.maxTextBytes)))
        }
        for operation in operations {
            switch operation {
            case .text(_, _, _, _, let text): try check(text)
            case .cycle(let cycle): for frame in cycle.frames { try check(frame.text) }
            case .box: break
            }
        }
        return operations
    }

    package func key(_ view: ViewID, code: UInt32) throws(PresenterFailure) -> Bool {
        name(view)
        guard case .keyUsed(let used) = try call(.key(view: view, code: code), hook: .key) else {
            throw stop(in: .key, .protocolViolation(.wrongAnswer(to: .key, expected: .yesOrNo)))
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
        try expectDone(.detach(view: view), hook: .destroy)
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

    // MARK: - Calls

    func outcome(of request: PresenterMessage.Request, view: ViewID, hook: Hook) throws(PresenterFailure)
        -> HookOutcome
    {
        name(view)
        guard case .outcome(let outcome) = try call(request, hook: hook) else {
            throw stop(in: hook, .protocolViolation(.wrongAnswer(to: hook, expected: .status)))
        }
        return outcome
    }

    func expectDone(_ request: PresenterMessage.Request, hook: Hook?) throws(PresenterFailure) {
        guard case .done = try call(request, hook: hook) else {
            throw stop(in: hook, .protocolViolation(.wrongAnswer(to: nil, expected: .done)))
        }
    }

    /// Names `view`'s presenter in failures from now on.
    func name(_ view: ViewID) {
        if let presenter = viewPresenters[view] { currentPresenter = presenter }
    }

    /// Sends `request` and waits for its reply (and those before it).
    func call(_ request: PresenterMessage.Request, hook: Hook?) throws(PresenterFailure)
        -> PresenterMessage.Result
    {
        try awaitReply(try submit(request, hook: hook, budget: configuration.hookTimeout))
    }

    /// Sends `request`, starting the process first if need be, and returns
    /// its number; the reply is waited for by ``awaitReply(_:)``.
    func submit(
        _ request: PresenterMessage.Request, hook: Hook?, budget: Double,
        isAttach: Bool = false, passing images: [FileDescriptor] = [], load: Load? = nil
    ) throws(PresenterFailure) -> UInt32 {
        let running = try started()
        if pending.isEmpty && !replyWait.awaitingHello {
            // Anything waiting now came between requests: the process ended
            // (or spoke out of turn) while it had nothing to do.
            try receiveAvailable(running)
        }
        sequence &+= 1
        let body = PresenterMessage.encode(request, sequence: sequence, clock: pinsClock ? max(1, clock.now()) : 0)
        let now = Self.now()
        if pending.isEmpty && !replyWait.awaitingHello { lastAnswer = now }
        pending.append(
            Pending(sequence: sequence, hook: hook, budget: budget, sentAt: now, isAttach: isAttach, load: load))
        try send(MessageCoding.frame(body), to: running, hook: hook, passing: images)
        return sequence
    }

    /// The running process, started now if need be (without waiting for
    /// it: its hello is checked with the first reply); throws the failure
    /// that ended it before.
    func started() throws(PresenterFailure) -> Running {
        switch state {
        case .running(let running): return running
        case .failed(let failure): throw failure
        case .closed:
            throw PresenterFailure(presenterId: currentPresenter, hook: nil, reason: .couldNotStart(.closed))
        case .idle: break
        }
        // Started ahead by `run` (its registry load and command spawn went on
        // meanwhile), else now.
        // Its exec is waited for where a reply first is (``confirmExec()``):
        // what is sent meanwhile waits in the channel.
        let launched = configuration.launch?.take(for: configuration) ?? PresenterProcessLaunch.fork(configuration)
        let started: PresenterProcessLaunch.Forked
        switch launched {
        case .success(let value): started = value
        case .failure(let failure): throw stop(in: nil, .couldNotStart(.launch(failure.reason)))
        }
        let pid = started.beginning.pid
        let printed = PrintedLines(presenterId: currentPresenter, output: output)
        let pump = OutputPump(fd: started.log) { printed.append($0) }
        let running = Running(
            pid: pid, channel: PresenterChannel(started.channel), pump: pump, printed: printed,
            violations: started.violations)
        state = .running(running)
        unconfirmedExec = started.beginning
        dismissal.withLock { dismissal in
            dismissal.pid = pid
            if dismissal.dismissed { ProcessExit.kill(pid) }
        }
        replyWait.started()
        lastAnswer = Self.now()
        sequence &+= 1
        let body = PresenterMessage.encode(
            .configure(options: self.options, geometry: geometry), sequence: sequence,
            clock: pinsClock ? max(1, clock.now()) : 0)
        pending.append(
            Pending(
                sequence: sequence, hook: .start, budget: configuration.startTimeout, sentAt: lastAnswer,
                isAttach: false))
        try send(MessageCoding.frame(body), to: running, hook: .start)
        return running
    }

    /// Reads what is there without waiting; with nothing in flight, any
    /// message is out of turn, and the end of the channel means the process
    /// ended between hooks.
    func receiveAvailable(_ running: Running) throws(PresenterFailure) {
        if try next(running, until: nil, hook: nil) != nil {
            throw stop(in: nil, .protocolViolation(.spokeUnasked))
        }
    }

    /// Sends `bytes` (``PresenterChannel/send(_:passing:within:)``) within
    /// the hook budget: a process that stopped reading while busy with its
    /// oldest request is blamed for that one.
    func send(
        _ bytes: [UInt8], to running: Running, hook: Hook?, passing images: [FileDescriptor] = []
    ) throws(PresenterFailure) {
        do throws(PresenterChannel.Failure) {
            try running.channel.send(bytes, passing: images, within: configuration.hookTimeout)
        } catch {
            switch error {
            case .timedOut: throw stop(in: pending.first?.hook ?? hook, hang(in: pending.first?.hook ?? hook))
            case .ended, .malformed: throw reapEnded(in: hook)
            }
        }
    }

    static func now() -> Double { MonotonicTime.seconds() }
}
