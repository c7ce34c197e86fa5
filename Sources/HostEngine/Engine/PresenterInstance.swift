import Glibc
import HostPlugins
import HostSystem
import HostText
import PresenterABI

/// One plugin instance: the host object behind a `presenter_context *`.
///
/// A presenter that extends another has its own instance and, under it, an
/// instance of its base (and so on): the chain. Hook calls resolve a NULL
/// hook to the nearest base that has one, called on that base's own
/// instance; `base_*` services start the same search one level down.
/// The engine's thread only.
final class PresenterInstance {
    /// What it is.
    let plugin: PresenterPlugin
    /// Its hooks and descriptor, loaded in this process.
    let loaded: LoadedPresenter
    /// The instance of the presenter this one extends.
    let base: PresenterInstance?
    unowned let engine: LocalPresenterEngine
    /// The plugin's state, as its create set it.
    private(set) var state: UnsafeMutableRawPointer?
    /// The message of the last set_error since the current hook began.
    var lastError: String?
    /// The earliest frame this instance asked for and has not had yet.
    var frameRequest: UInt64? {
        didSet { if frameRequest != oldValue { engine.frameRequestsChanged() } }
    }
    /// Option values handed out, kept (as C strings) until destroy.
    private var optionValues: [String: UnsafeMutablePointer<CChar>] = [:]
    private var alive = false

    init(_ loaded: LoadedPresenter, base: PresenterInstance?, engine: LocalPresenterEngine) {
        self.plugin = loaded.plugin
        self.loaded = loaded
        self.base = base
        self.engine = engine
        LiveHandles.add(context, .init(presenterId: plugin.id, scope: engine.scope, misuses: engine.misuses))
    }

    deinit { LiveHandles.remove(context) }

    /// The `presenter_context *` plugins get for this instance.
    var context: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The instance behind a context pointer a plugin passed back.
    static func from(_ context: OpaquePointer?) -> PresenterInstance? {
        context.map { Unmanaged<PresenterInstance>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }

    /// This instance and its bases, top first.
    var chain: [PresenterInstance] {
        var result = [self]
        while let next = result.last!.base { result.append(next) }
        return result
    }

    // MARK: - Lifecycle

    /// Runs the plugin's create (a presenter without one keeps no state).
    func create() throws(PresenterFailure) {
        lastError = nil
        if let create = loaded.hooks.create {
            var newState: UnsafeMutableRawPointer?
            let status = traced(.create, "") {
                create(loaded.descriptor?.pointer, HostServices.table, context, &newState)
            }
            guard status == PRESENTER_OK else {
                releaseOptions()
                throw PresenterFailure(
                    presenterId: plugin.id, hook: .create,
                    reason: .createFailed(status: status, message: lastError))
            }
            state = newState
        }
        alive = true
    }

    /// Runs the plugin's destroy, once, and frees what was handed out.
    func destroy() {
        guard alive else { return }
        alive = false
        if let destroy = loaded.hooks.destroy { traced(.destroy, "") { destroy(state) } }
        state = nil
        releaseOptions()
    }

    // MARK: - Options

    /// The value of `key` for this presenter: "<id>.<key>" first, then "<key>".
    func option(_ key: String) -> UnsafePointer<CChar>? {
        if let kept = optionValues[key] { return UnsafePointer(kept) }
        guard let value = engine.options["\(plugin.id).\(key)"] ?? engine.options[key],
            let copy = strdup(value)
        else { return nil }
        optionValues[key] = copy
        return UnsafePointer(copy)
    }

    private func releaseOptions() {
        for value in optionValues.values { free(value) }
        optionValues.removeAll()
    }

    // MARK: - Hooks, with NULL resolved to the nearest base

    /// The nearest instance, from this one down, whose plugin has the hook.
    /// (A closure, not a key path: projecting a key path costs more than
    /// the hook call it finds, at every frame.)
    private func resolve<Function>(_ hook: (LoadedPresenter.Hooks) -> Function?) -> (PresenterInstance, Function)? {
        var current: PresenterInstance? = self
        while let instance = current {
            if let function = hook(instance.loaded.hooks) { return (instance, function) }
            current = instance.base
        }
        return nil
    }

    func show(
        _ view: OpaquePointer, _ message: UnsafePointer<CChar>?, _ interactor: UnsafePointer<presenter_interactor>
    ) -> HookOutcome {
        guard let (instance, hook) = resolve({ $0.show }) else { return .ok }
        return instance.call(.show, "\(EngineNote.quoted(message)), \(Self.describe(interactor))") {
            hook(instance.state, view, message, interactor)
        }
    }

    func hide(
        _ view: OpaquePointer, _ message: UnsafePointer<CChar>?, _ interactor: UnsafePointer<presenter_interactor>,
        _ failure: UnsafePointer<presenter_failure>?
    ) -> HookOutcome {
        guard let (instance, hook) = resolve({ $0.hide }) else { return .ok }
        return instance.call(
            .hide, "\(EngineNote.quoted(message)), \(Self.describe(interactor)), \(Self.describe(failure))"
        ) {
            hook(instance.state, view, message, interactor, failure)
        }
    }

    func progress(_ view: OpaquePointer, _ interactor: UnsafePointer<presenter_interactor>) -> HookOutcome {
        guard let (instance, hook) = resolve({ $0.progress }) else { return .ok }
        // ABI 1.0 promised a fraction in [0, 1]: a presenter built for it
        // is not told that the fraction became unknown (nor of a new
        // message, which it cannot read).
        if instance.plugin.abiVersion.minor == 0 && interactor.pointee.progress < 0 { return .ok }
        return instance.call(.progress, Self.describe(interactor)) { hook(instance.state, view, interactor) }
    }

    func render(_ view: OpaquePointer, _ now: UInt64) {
        guard let (instance, hook) = resolve({ $0.render }) else { return }
        instance.traced(.render, "now \(now), view \(engine.geometry.cols)x\(engine.geometry.rows)") {
            hook(instance.state, view, now)
        }
    }

    func key(_ view: OpaquePointer, _ code: UInt32) -> Int32 {
        guard let (instance, hook) = resolve({ $0.key }) else { return 0 }
        return instance.traced(.key, "key \(code)", { "\($0)" }) { hook(instance.state, view, code) }
    }

    private func call(_ name: Hook, _ arguments: @autoclosure () -> String, _ body: () -> presenter_status)
        -> HookOutcome
    {
        lastError = nil
        let status = traced(name, arguments(), body)
        return HookOutcome(
            status: status, hook: name, presenterId: plugin.id, message: status == PRESENTER_OK ? nil : lastError)
    }

    // MARK: - Tracing

    /// Runs a hook; when the engine traces, logs it with its arguments, its
    /// result and how long it took.
    private func traced<T>(
        _ hook: Hook, _ arguments: @autoclosure () -> String,
        _ result: (T) -> String = { _ in "done" }, _ body: () -> T
    ) -> T {
        guard engine.tracing else { return engine.inHook(body) }
        let start = MonotonicTime.nanoseconds()
        let value = engine.inHook(body)
        let milliseconds = Double(MonotonicTime.nanoseconds() - start) / 1e6
        engine.note(
            .debug, presenterId: plugin.id,
            EngineNote.traceTag
                + "\(plugin.id).\(hook.rawValue)(\(arguments())) -> \(result(value)) in \(CFormat.string("%.3f", milliseconds)) ms"
        )
        return value
    }

    private func traced(_ hook: Hook, _ arguments: @autoclosure () -> String, _ body: () -> presenter_status)
        -> presenter_status
    {
        traced(
            hook, arguments(),
            { [self] status in
                let name = Self.statusNames[status] ?? "status \(status)"
                guard status != PRESENTER_OK, let message = lastError else { return name }
                return name + " " + EngineNote.quoted(message)
            }, body)
    }

    private static let statusNames: [presenter_status: String] = [
        PRESENTER_OK: "OK", PRESENTER_ERR_FAILED: "ERR_FAILED", PRESENTER_ERR_INVALID: "ERR_INVALID",
        PRESENTER_ERR_NOT_FOUND: "ERR_NOT_FOUND", PRESENTER_ERR_NO_MEMORY: "ERR_NO_MEMORY",
        PRESENTER_ERR_UNSUPPORTED: "ERR_UNSUPPORTED",
    ]

    private static func describe(_ interactor: UnsafePointer<presenter_interactor>) -> String {
        let value = interactor.pointee
        return "interactor #\(value.id) \(EngineNote.quoted(value.action)) progress \(value.progress)"
    }

    private static func describe(_ failure: UnsafePointer<presenter_failure>?) -> String {
        guard let value = failure?.pointee else { return "success" }
        return "failure \(EngineNote.quoted(value.domain)) code \(value.code) \(EngineNote.quoted(value.message))"
    }
}
