import Foundation
import HostEngine
import HostPlugins
import PresenterABI
import PresenterHost
import PresenterHostTesting
import HostSystem

/// Scripts the presenters of one test (``PresenterScript``) and records
/// every hook call they get; see ``TestPresenters``.
// Safe: every `var` is read and written only under `lock`; the rest is immutable.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _calls: [HookCall] = []
    private var _threads = Set<UInt>()
    private var _renderTimes: [UInt64] = []
    private var _renderers: [String] = []
    private var inHook = false
    private var _overlapped = false
    let scripts: [String: PresenterScript]
    let key = UUID().uuidString

    init(_ scripts: [String: PresenterScript]) {
        self.scripts = scripts
        Recorder.all.withLock { $0[key] = self }
    }

    /// Every call but render (see ``renderTimes``), in order.
    var calls: [HookCall] { lock.withLock { _calls } }
    var threads: Set<UInt> { lock.withLock { _threads } }
    /// The frame time of each render call, in order.
    var renderTimes: [UInt64] { lock.withLock { _renderTimes } }
    /// The presenter of each render call, in order.
    var renderers: [String] { lock.withLock { _renderers } }

    func record(_ call: HookCall, renderAt time: UInt64? = nil) {
        lock.withLock {
            _threads.insert(UInt(pthread_self()))
            if let time { _renderTimes.append(time); _renderers.append(call.presenter) } else { _calls.append(call) }
        }
    }

    /// Marks a hook entered/left, noting any overlap (hooks must be serial).
    func enter() {
        lock.withLock {
            if inHook { _overlapped = true }; inHook = true
        }
    }
    func leave() { lock.withLock { inHook = false } }
    /// Whether two hooks ever ran at once.
    var overlapped: Bool { lock.withLock { _overlapped } }

    /// Every recorder, by key: the presenters' C hooks find theirs here.
    static let all = LockedValue<[String: Recorder]>([:])
    static func find(_ key: String) -> Recorder? { all.withLock { $0[key] } }

    /// Every scripted presenter, built in code.
    var presenters: [LoadedPresenter] {
        scripts.keys.sorted().map { TestPresenters.plugin(id: $0, script: scripts[$0]!) }
    }

    /// The registry of every scripted presenter (their descriptions).
    var registry: PresenterRegistry { PresenterRegistry(plugins: presenters.map(\.plugin)) }

    /// What hands an in-process engine these presenters.
    var loader: PresenterLoader { .built(presenters) }

    /// A runtime over these presenters, with the recorder option set.
    func runtime(
        backend: RenderBackend = TestBackend(), options: [String: String] = [:],
        clock: HostClock = ManualClock(), maxFramesPerSecond: Int = 20,
        log: sending ((PresenterLogEntry) -> Void)? = nil
    ) -> PresenterRuntime {
        PresenterRuntime(
            registry: registry, backend: backend, options: options.merging(["recorder": key]) { a, _ in a },
            clock: clock, maxFramesPerSecond: maxFramesPerSecond, isolation: .inProcess,
            tracing: EngineNote.tracingEnabled(), loader: loader, log: log)
    }
}
