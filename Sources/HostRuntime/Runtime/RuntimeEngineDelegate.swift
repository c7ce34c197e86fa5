import HostEngine

/// What presenters do during engine calls: the runtime is its engine's
/// delegate (package only, out of its public face).
extension PresenterRuntime: PresenterEngineDelegate {
    package func engine(view: ViewID, element: String, operation: Int32) {
        guard let screenlet = screenlet(view), screenlet.view.elements[element]?.apply(operation) == true else {
            return
        }
        state.with { state in
            state.needsRender = true
            state.frameInputsChanged = true
        }
    }

    package func engine(log entry: PresenterLogEntry) {
        log(entry)
    }
}
