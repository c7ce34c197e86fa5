import HostEngine

extension PresenterRuntime {
    // MARK: - A clock that does not move on its own

    /// Renders each frame that falls due up to `time` (ns) at its own time,
    /// calling `move` to set the clock to it first, then moves the clock to
    /// `time`; returns once done. For a clock that does not move on its own
    /// (`PresenterHostTesting`'s `advance(by:)`).
    package func renderFrames(through time: UInt64, moving move: (UInt64) -> Void) {
        // Not ``sync(_:)``: its body may change a view, and these frames only
        // follow the clock (``frameInputsChanged``).
        thread.sync {
            if state.value.needsRender && isDrawing { renderFrame() }
            while isDrawing, let due = dueTime(), due <= time {
                move(due)
                renderFrame()
            }
            move(time)
        }
        updateSettled()
    }

    // MARK: - The frame loop (presenter thread)

    func afterJobs() {
        guard isDrawing else { return }
        if state.value.needsRender { renderFrame() }
        rescheduleAndSettle()
    }

    func timerFired() {
        guard isDrawing else { return }
        if let due = state.value.armedDue, due <= clock.now() { renderFrame() }
        rescheduleAndSettle()
    }

    /// Renders one frame now: the presenters that are due render, then each
    /// view draws and its presenter's last picture goes over it.
    func renderFrame() {
        let now = clock.now()
        updateGeometry()
        let screenlets = state.with { state in
            if let request = state.progressFrameRequest, request <= now { state.progressFrameRequest = nil }
            return state.screenlets
        }
        // Presenters run here: outside the state's access, as they may call the runtime.
        var changed = false
        for screenlet in screenlets where screenlet.deliverProgress() { changed = true }
        // Asked after the progress hooks, which may ask for this frame.
        let requests = liveEngine?.frameRequests ?? [:]
        for screenlet in screenlets
        where screenlet.renderPresenter(at: now, asked: requests[screenlet.viewID].map { $0 <= now } ?? false) {
            changed = true
        }
        let (backend, reusing) = state.with { ($0.backend, !($0.frameInputsChanged || changed)) }
        let canvas = composer.with { $0.compose(screenlets, at: now, for: backend, reusing: reusing) }
        state.with { state in
            state.frameInputsChanged = false
            state.drewInLastFrame = state.screenlets.contains { !$0.state.value.overlay.isEmpty }
            state.needsRender = false
            state.scheduler.rendered(at: now)
        }
        backend.present(canvas)
    }

    /// Tells the engine when the backend's size or flags changed; every
    /// presenter then renders again for the new size.
    func updateGeometry() {
        let (changed, running) = state.with { state in
            let (changed, area) = composer.with { [backend = state.backend] in ($0.follow(backend), $0.presenterArea) }
            state.presenterArea = area
            if changed != nil { state.frameInputsChanged = true }
            return (changed, state.engine != nil)
        }
        guard let current = changed, running else { return }
        callEngine(default: ()) { engine throws(PresenterFailure) in try engine.setGeometry(current) }
        for screenlet in state.value.screenlets { screenlet.geometryChanged() }
    }

    func dueTime() -> UInt64? {
        state.with { $0.scheduler.due(for: $0.earliestRequest()) }
    }

    /// Arms the thread's timer for the next due frame (or disarms it), and
    /// tells whoever waits whether the runtime settled: both from one look
    /// at the frames asked for.
    func rescheduleAndSettle() {
        let (due, quiet) = state.with { state in
            let earliest = state.earliestRequest()
            state.armedDue = state.scheduler.due(for: earliest)
            return (state.armedDue, state.isQuiet(earliestRequest: earliest))
        }
        reschedule(due: due)
        settling.update(quiet: quiet)
    }

    /// Arms the thread's timer for `due`, or disarms it.
    func reschedule(due: UInt64?) {
        guard clock.movesOnItsOwn, let due else {
            thread.setWakeup(nil)
            return
        }
        let now = clock.now()
        // Saturating: a plugin may ask for a frame at UINT64_MAX ("never, really").
        let (wakeup, overflow) = MonotonicClock().now().addingReportingOverflow(due > now ? due - now : 0)
        thread.setWakeup(overflow ? .max : wakeup)
    }

    func updateSettled() {
        let quiet = thread.sync { state.with { $0.isQuiet(earliestRequest: $0.earliestRequest()) } }
        settling.update(quiet: quiet)
    }
}
