import HostEngine
import HostSystem

extension PresenterRuntime {
    // MARK: - For screenlets (presenter thread)

    /// Runs `body` with the engine, unless no presenter runs any more; a
    /// failure of the engine takes the presenters off (``presenterFailed(_:)``)
    /// and gives `fallback`.
    func callEngine<T>(default fallback: T, _ body: (PresenterEngine) throws(PresenterFailure) -> T) -> T {
        guard let engine = liveEngine else { return fallback }
        do throws(PresenterFailure) {
            return try body(engine)
        } catch {
            presenterFailed(error)
            return fallback
        }
    }

    /// The engine while presenters run (presenter thread): called out of
    /// the state's access, as presenters may call the runtime back.
    var liveEngine: PresenterEngine? {
        state.value.engine
    }

    /// Queues `job` for the presenter thread; false (job dropped) after shutdown.
    /// Accepting and queueing happen under one lock with shutdown's flag, so
    /// every accepted job runs before shutdown destroys the instances.
    @discardableResult
    func enqueue(_ job: @escaping @Sendable () -> Void) -> Bool {
        settling.admit {
            thread.async { [self] in
                // A job may change anything a frame shows.
                state.value.frameInputsChanged = true
                job()
                settling.jobDone()
            }
        }
    }

    /// An interactor started: the runtime is not settled until it ends.
    func interactorStarted() {
        state.value.inFlight += 1
    }

    /// An interactor ended (or was cancelled).
    func interactorEnded() {
        state.value.inFlight -= 1
    }

    /// Renders at the next frame: a view or its presenter changed.
    func setNeedsRender() {
        state.value.needsRender = true
    }

    /// Tells the backend of an interactor's progress (its plain lines).
    func announce(_ event: ProgressEvent) {
        backend.event(event)
    }

    /// Asks for a frame now, subject to the cap (progress reports).
    func requestCappedFrame() {
        let now = clock.now()
        state.with { $0.progressFrameRequest = min($0.progressFrameRequest ?? now, now) }
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
