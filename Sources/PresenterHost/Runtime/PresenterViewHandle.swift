/// The host object behind a `presenter_view *`: one per screenlet, reused
/// for every hook call on it, with the kind of call in progress. Drawing is
/// refused outside render and every view service outside a hook, so a
/// plugin that kept the pointer (which the ABI forbids) reaches memory that
/// is still valid and is told no rather than corrupting a frame.
/// Presenter thread only.
final class PresenterViewHandle {
    /// What the call in progress allows.
    enum Phase { case outside, hook, render }

    unowned let screenlet: Screenlet
    private(set) var phase = Phase.outside

    init(screenlet: Screenlet) { self.screenlet = screenlet }

    /// The `presenter_view *` plugins get.
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The handle behind a view pointer a plugin passed back.
    static func from(_ pointer: OpaquePointer?) -> PresenterViewHandle? {
        pointer.map { Unmanaged<PresenterViewHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }

    /// Runs `body` (a hook call) with the handle in `phase`. Nested calls
    /// (a base_* call from a hook) keep the outer phase.
    func during<T>(_ phase: Phase, _ body: (OpaquePointer) -> T) -> T {
        let outer = self.phase
        if outer == .outside { self.phase = phase }
        defer { self.phase = outer }
        return body(pointer)
    }
}
