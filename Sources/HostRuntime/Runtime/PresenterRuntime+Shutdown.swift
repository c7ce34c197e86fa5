import HostEngine
import HostSystem

/// Settling and shutting down: the end of the presenters' work, waited for
/// from any thread but the presenter thread.
extension PresenterRuntime {
    /// The work the presenters show is over (the command ended, or was
    /// interrupted): a presenter process still starting or loading gets at
    /// most one hook budget from now, so it cannot hold the end of the run.
    /// ``shutdown()`` does it too. Any thread.
    public func hurryPresenters() {
        hurryEngine()
    }

    /// Nothing the presenters would still draw will be seen: the work is
    /// over, no outcome of it stays (a success without a message), and the
    /// caller shuts the runtime down right after. A presenter process is
    /// let go at once instead of waited for: its hide and destroy, and,
    /// when the work ended before the process was ready, its start and
    /// loading (some 10 ms that would hold the prompt for nothing: the
    /// region goes either way). Its death by that kill is taken as this
    /// end: nothing reports it and no plain lines follow (a failure of its
    /// own, a create refused, is reported as ever). Presenters in this
    /// process (`--in-process`) run to the end as before. Any thread but
    /// the presenter thread.
    package func dismissPresenters() {
        guard let dismissEngine else { return }
        dismissed.withLock { $0 = true }
        dismissEngine()
    }

    /// Waits until no interactor is in flight, nothing is queued, and the
    /// last frame had no presenter draw anything and no one ask for another
    /// frame (the HUD is gone and nothing animates). `timeout` in seconds;
    /// `nil` waits for ever. Returns whether it settled. Never call it on
    /// the presenter thread. With a ``ManualClock``, pending frames come only
    /// through `advance(by:)` (PresenterHostTesting), so it cannot settle while one is asked for.
    public func waitUntilSettled(timeout: Double?) -> Bool {
        settling.wait(timeout: timeout)
    }

    /// True once ``shutdown()`` began.
    public var isShutDown: Bool { settling.isShutDown }

    /// Ends interactors still in flight (their presenters get the hide they
    /// are owed: no message, a "cancelled" failure), destroys every instance
    /// (each view's presenter first, then its bases), ends the presenter
    /// process, calls the backend's `finish(keeping:)` and stops the
    /// presenter thread. Later calls do nothing; later performs and ends are
    /// ignored.
    ///
    /// With `keepingOutcome`, a view whose last action ended with a message
    /// or a failure leaves that outcome on the screen (``finalLook()``): its
    /// presenter first renders once more with `PRESENTER_VIEW_FINAL`, and
    /// the backend's `finish(keeping:)` keeps what it drew (or the host's
    /// ``OutcomeLine``). `run` and `drive` end so: at once, the outcome
    /// staying, as a line a program prints stays.
    public func shutdown(keepingOutcome: Bool = false) {
        guard settling.beginShutdown() else { return }
        hurryPresenters()
        thread.sync {
            // Not while stopped (Ctrl-Z): the screen is not ours then.
            let look = keepingOutcome && !state.value.suspended ? finalLook() : nil
            for screenlet in state.value.screenlets.reversed() {
                screenlet.cancelAll()
                if screenlet.state.value.hasPresenter {
                    callEngine(default: ()) { engine throws(PresenterFailure) in try engine.detach(screenlet.viewID) }
                }
            }
            let (engine, backend) = state.with { state in
                state.screenlets.removeAll()
                return (state.engine, state.backend)
            }
            engine?.close()
            backend.finish(keeping: look)
        }
        thread.stop()
        settling.endShutdown()
    }
}
