import HostEngine
import HostText

extension PresenterRuntime {
    /// The outcome that stays when the runtime shuts down with
    /// `keepingOutcome` (presenter thread): for each view whose last action
    /// ended with a success message or a failure
    /// (``Screenlet/outcomeToKeep``), its presenter's final look (its render
    /// with `PRESENTER_VIEW_FINAL`), or, when that drew nothing (an older
    /// presenter, which is not asked, one that failed or left it blank), the
    /// host's ``OutcomeLine``. Drawn from the top of a canvas of the
    /// presenters' view, one column at least (a one-column terminal's view
    /// has none: the rows kept are lines, not a region, and may use the
    /// last column). `nil` when nothing stays, and on a backend that draws
    /// no frames: plain lines printed the outcome as it came.
    ///
    /// A presenter that fails in that render takes the region off as any
    /// failure does, and the plain lines that take over print the outcome.
    func finalLook() -> Canvas? {
        guard backend.flags.contains(.animated) else { return nil }
        let keeping = state.value.screenlets.compactMap { screenlet in screenlet.outcomeToKeep.map { (screenlet, $0) } }
        guard !keeping.isEmpty else { return nil }
        let drawing = state.value.backend
        let now = clock.now()
        // The presenters know the terminal's size as it is now.
        updateGeometry()
        let (backend, area) = state.with { ($0.backend, $0.presenterArea) }
        let (cols, rows) = (max(1, backend.size.cols), area.count)
        let geometry = ViewGeometry(cols: cols, rows: rows, flags: backend.flags.abiValue)
        if geometry != composer.value.geometry && liveEngine != nil {
            callEngine(default: ()) { engine throws(PresenterFailure) in try engine.setGeometry(geometry) }
        }
        let unicode = backend.flags.contains(.unicode)
        var look = Canvas(cols: cols, rows: rows)
        for (screenlet, ending) in keeping {
            let drawn = screenlet.renderFinalLook(at: now, cols: cols, rows: rows)
            let current = state.value.backend
            guard current === drawing else {
                // It failed: the plain lines now in place say how each ended.
                for (_, ending) in keeping { current.event(ending) }
                return nil
            }
            var own = Canvas(cols: cols, rows: rows)
            for operation in drawn { operation.draw(on: &own, unicode: unicode, at: now) }
            if own.isBlank {
                guard case .finished(_, let message, let error) = ending,
                    let line = OutcomeLine(message: message, error: error)
                else { continue }
                line.draw(on: &look, unicode: unicode)
            } else {
                for operation in drawn { operation.draw(on: &look, unicode: unicode, at: now) }
            }
        }
        return look
    }
}
