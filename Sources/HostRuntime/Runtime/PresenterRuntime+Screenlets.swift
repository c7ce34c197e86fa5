import HostEngine
import HostSystem

extension PresenterRuntime {
    // MARK: - For screenlets (presenter thread)

    /// Runs `body` with the engine, unless no presenter runs any more; a
    /// failure of the engine takes the presenters off (``presenterFailed(_:)``)
    /// and gives `fallback`.
    func callEngine<T>(default fallback: T, _ body: (PresenterEngine) throws(PresenterFailure) -> T) -> T {
        guard engineAlive.value else { return fallback }
        do throws(PresenterFailure) {
            return try body(engine.value)
        } catch {
            presenterFailed(error)
            return fallback
        }
    }

    /// Queues `job` for the presenter thread; false (job dropped) after shutdown.
    /// Accepting and queueing happen under one lock with shutdown's flag, so
    /// every accepted job runs before shutdown destroys the instances.
    @discardableResult
    func enqueue(_ job: @escaping () -> Void) -> Bool {
        settling.admit {
            thread.async { [self] in
                // A job may change anything a frame shows.
                frameInputsChanged.value = true
                job()
                settling.jobDone()
            }
        }
    }

    /// An interactor started: the runtime is not settled until it ends.
    func interactorStarted() {
        inFlight.value += 1
    }

    /// An interactor ended (or was cancelled).
    func interactorEnded() {
        inFlight.value -= 1
    }

    /// Renders at the next frame: a view or its presenter changed.
    func setNeedsRender() {
        needsRender.value = true
    }

    /// Tells the backend of an interactor's progress (its plain lines).
    func announce(_ event: ProgressEvent) {
        backend.value.event(event)
    }

    /// Asks for a frame now, subject to the cap (progress reports).
    func requestCappedFrame() {
        let now = clock.now()
        progressFrameRequest.value = min(progressFrameRequest.value ?? now, now)
    }

    /// Logs a failed hook.
    func report(_ outcome: HookOutcome) {
        guard outcome.failed else { return }
        log(
            PresenterLogEntry(
                level: .error, presenterId: outcome.presenterId,
                message: "\(outcome.hook?.rawValue ?? "a hook") failed (status \(outcome.status))"
                    + (outcome.message.map { ": \($0)" } ?? "")))
    }

    /// Gives `entry` to the log sink, one entry at a time. Any thread.
    func log(_ entry: PresenterLogEntry) {
        logSink.withLock { $0?(entry) }
    }
}
