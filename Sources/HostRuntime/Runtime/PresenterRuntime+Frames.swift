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
            if needsRender.value && isDrawing { renderFrame() }
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
        if needsRender.value { renderFrame() }
        reschedule()
        updateSettled()
    }

    func timerFired() {
        guard isDrawing else { return }
        if let due = dueTime(), due <= clock.now() { renderFrame() }
        reschedule()
        updateSettled()
    }

    /// Renders one frame now: the presenters that are due render, then each
    /// view draws and its presenter's last picture goes over it.
    func renderFrame() {
        let now = clock.now()
        updateGeometry()
        if let request = progressFrameRequest.value, request <= now { progressFrameRequest.value = nil }
        for screenlet in screenlets.value where screenlet.deliverProgress() { frameInputsChanged.value = true }
        let requests = engineAlive.value ? engine.value.frameRequests : [:]
        for screenlet in screenlets.value
        where screenlet.renderPresenter(at: now, asked: requests[screenlet.viewID].map { $0 <= now } ?? false) {
            frameInputsChanged.value = true
        }
        let canvas = composer.value.compose(
            screenlets.value, at: now, for: backend.value, reusing: !frameInputsChanged.value)
        frameInputsChanged.value = false
        drewInLastFrame.value = screenlets.value.contains { !$0.overlay.value.isEmpty }
        needsRender.value = false
        scheduler.value.rendered(at: now)
        backend.value.present(canvas)
    }

    /// Tells the engine when the backend's size or flags changed; every
    /// presenter then renders again for the new size.
    func updateGeometry() {
        let changed = composer.value.follow(backend.value)
        presenterArea.value = composer.value.presenterArea
        if changed != nil { frameInputsChanged.value = true }
        guard let current = changed, engineAlive.value else { return }
        callEngine(default: ()) { engine throws(PresenterFailure) in try engine.setGeometry(current) }
        for screenlet in screenlets.value { screenlet.geometryChanged() }
    }

    /// The earliest frame anyone asked for.
    func earliestRequest() -> UInt64? {
        var earliest = progressFrameRequest.value
        func consider(_ request: UInt64?) {
            if let request { earliest = min(earliest ?? request, request) }
        }
        if engineAlive.value { engine.value.frameRequests.values.forEach(consider) }
        for screenlet in screenlets.value {
            consider(screenlet.viewFrameRequest.value)
            consider(screenlet.overlayFrameRequest.value)
        }
        return earliest
    }

    func dueTime() -> UInt64? { scheduler.value.due(for: earliestRequest()) }

    /// Arms the thread's timer for the next due frame, or disarms it.
    func reschedule() {
        guard clock.movesOnItsOwn, let due = dueTime() else {
            thread.setWakeup(nil)
            return
        }
        let now = clock.now()
        // Saturating: a plugin may ask for a frame at UINT64_MAX ("never, really").
        let (wakeup, overflow) = MonotonicClock().now().addingReportingOverflow(due > now ? due - now : 0)
        thread.setWakeup(overflow ? .max : wakeup)
    }

    func updateSettled() {
        let quiet = thread.sync {
            inFlight.value == 0 && !needsRender.value && !drewInLastFrame.value && earliestRequest() == nil
        }
        settling.update(quiet: quiet)
    }
}
