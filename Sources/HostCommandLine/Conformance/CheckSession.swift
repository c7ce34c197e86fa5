import HostEngine
import HostPlugins
import HostSystem

/// One check's presenter process: a sandboxed ``PresenterProcess`` on a
/// manual clock, tracing on, with every hook call timed and everything the
/// process logged or printed kept for the checks that read it.
final class CheckSession: PresenterEngineDelegate {
    let engine: PresenterProcess
    let clock = ManualClock()
    let chain: PresenterChain
    /// The longest each hook took, in seconds, across this session.
    private(set) var slowest: [String: Double] = [:]
    /// The presenter's log lines, and the engine's notes (traces, ignored
    /// service calls, clipped drawing).
    private(set) var log: [PresenterLogEntry] = []
    /// Lines the process printed; they come on the output pump's thread.
    private let printed = LockedValue<[PresenterLogEntry]>([])
    private var nextInteractor: UInt64 = 1
    /// The view every check uses.
    let view: ViewID = 1
    /// The elements the test view has.
    static let elements = ["activity-indicator", "get-title-button"]

    init(chain: [PresenterPlugin], configuration: PresenterProcessConfiguration, geometry: ViewGeometry) {
        self.chain = PresenterChain(chain[0], bases: Array(chain.dropFirst()))
        var configuration = configuration
        configuration.environment[EngineNote.debugVariable] = "1"
        let printed = self.printed
        engine = PresenterProcess(
            configuration: configuration, options: [:], clock: clock, geometry: geometry,
            output: { entry in printed.withLock { $0.append(entry) } })
        engine.delegate = self
    }

    /// Attaches a view and waits until the process has started, loaded the
    /// files and created the instances (not timed: loading is not a hook).
    func attach(_ view: ViewID? = nil, geometry: ViewGeometry) throws(PresenterFailure) {
        try engine.attach(view ?? self.view, chain: chain, elements: Self.elements)
        try engine.setGeometry(geometry)
    }

    /// Ends the process and collects what it printed last.
    func close() -> (log: [PresenterLogEntry], printed: [PresenterLogEntry]) {
        engine.close()
        return (log, printed.withLock { $0 })
    }

    // MARK: - Timed hook calls

    func interactor(progress: Double = -1) -> InteractorSnapshot {
        defer { nextInteractor += 1 }
        // Started now, on the check's clock (ABI 1.4 never gives 0); no counts or rate.
        return InteractorSnapshot(
            id: nextInteractor, type: "CheckInteractor", action: "check", progress: progress,
            timing: InteractorTiming(startedAt: clock.now(), done: -1, total: -1, rate: -1, secondsLeft: -1))
    }

    func show(_ message: String, _ interactor: InteractorSnapshot, view: ViewID? = nil) throws(PresenterFailure)
        -> HookOutcome
    {
        try timed("show") { () throws(PresenterFailure) in
            try engine.show(view ?? self.view, message: message, interactor: interactor)
        }
    }

    func hide(
        _ message: String?, _ interactor: InteractorSnapshot, failure: InteractorError? = nil,
        view: ViewID? = nil
    ) throws(PresenterFailure) -> HookOutcome {
        try timed("hide") { () throws(PresenterFailure) in
            try engine.hide(view ?? self.view, message: message, interactor: interactor, failure: failure)
        }
    }

    func progress(_ interactor: InteractorSnapshot) throws(PresenterFailure) -> HookOutcome {
        try timed("progress") { () throws(PresenterFailure) in try engine.progress(view, interactor: interactor) }
    }

    @discardableResult
    func render(after nanoseconds: UInt64 = 0, view: ViewID? = nil) throws(PresenterFailure) -> [DrawOperation] {
        clock.set(clock.now() + nanoseconds)
        return try timed("render") { () throws(PresenterFailure) in
            try engine.render(view ?? self.view, at: clock.now())
        }
    }

    func key(_ code: UInt32) throws(PresenterFailure) -> Bool {
        try timed("key") { () throws(PresenterFailure) in try engine.key(view, code: code) }
    }

    func detach(_ view: ViewID? = nil) throws(PresenterFailure) {
        try timed("destroy") { () throws(PresenterFailure) in try engine.detach(view ?? self.view) }
    }

    private func timed<T>(_ hook: String, _ body: () throws(PresenterFailure) -> T) throws(PresenterFailure) -> T {
        let start = MonotonicTime.nanoseconds()
        defer { slowest[hook] = max(slowest[hook] ?? 0, Double(MonotonicTime.nanoseconds() - start) / 1e9) }
        return try body()
    }

    // MARK: - PresenterEngineDelegate

    func engine(view: ViewID, element: String, operation: Int32) {}

    func engine(log entry: PresenterLogEntry) { log.append(entry) }
}
