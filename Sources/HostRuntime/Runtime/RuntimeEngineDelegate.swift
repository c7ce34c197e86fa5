import HostEngine

/// A weak reference to a runtime that any thread may read.
final class WeakRuntime: Sendable {
    weak let value: PresenterRuntime?
    init(_ value: PresenterRuntime) { self.value = value }
}

/// Receives what presenters do during engine calls, for the runtime (which
/// keeps its engine-facing methods out of its public face).
final class EngineDelegate: PresenterEngineDelegate {
    unowned let runtime: PresenterRuntime

    init(runtime: PresenterRuntime) { self.runtime = runtime }

    func engine(view: ViewID, element: String, operation: Int32) {
        guard let screenlet = runtime.screenlet(view), screenlet.view.elements[element]?.apply(operation) == true else {
            return
        }
        runtime.needsRender = true
        runtime.frameInputsChanged = true
    }

    func engine(log entry: PresenterLogEntry) {
        runtime.log(entry)
    }
}
