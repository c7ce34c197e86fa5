import HostPlugins

/// The host object behind a `presenter_view *`: one per attached view,
/// reused for every hook call on it, with the kind of call in progress.
/// Drawing is refused outside render and every view service outside a hook,
/// so a plugin that kept the pointer (which the ABI forbids) reaches memory
/// that is still valid and is told no rather than corrupting a frame.
/// The engine's thread only.
final class EngineView {
    /// What the call in progress allows.
    enum Phase { case outside, hook, render }

    let id: ViewID
    unowned let engine: LocalPresenterEngine
    /// The names of the view's elements (the `element` service checks them).
    let elements: Set<String>
    /// The top instance of the view's chain (set right after the chain is made).
    var top: PresenterInstance!
    private(set) var phase = Phase.outside

    init(id: ViewID, engine: LocalPresenterEngine, elements: Set<String>) {
        self.id = id
        self.engine = engine
        self.elements = elements
    }

    deinit { LiveHandles.remove(pointer) }

    /// Gives plugins the view: from now on services accept its pointer
    /// (inside its hooks). Called once `top` is set.
    func open() {
        LiveHandles.add(pointer, .init(presenterId: top.plugin.id, scope: engine.scope, misuses: engine.misuses))
    }

    /// The `presenter_view *` plugins get.
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The view behind a pointer a plugin passed back.
    static func from(_ pointer: OpaquePointer?) -> EngineView? {
        pointer.map { Unmanaged<EngineView>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }

    /// Runs `body` (a hook call) with the view in `phase`. Nested calls
    /// (a base_* call from a hook) keep the outer phase.
    func during<T>(_ phase: Phase, _ body: (OpaquePointer) -> T) -> T {
        let outer = self.phase
        if outer == .outside { self.phase = phase }
        defer { self.phase = outer }
        return body(pointer)
    }
}
