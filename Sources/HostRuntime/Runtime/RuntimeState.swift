import HostEngine

/// What a ``PresenterRuntime`` keeps on its presenter thread, as one value in
/// one ``PresenterBound`` (``PresenterRuntime/state``): a function of the
/// frame path checks the thread once and reads every field inside
/// (``PresenterBound/with(_:)``). The frame's layout and canvas are the
/// composer's, in a box of their own (the views draw while it composes).
struct RuntimeState {
    /// Where frames go: the backend given to init until a presenter fails
    /// and `onPresenterFailure` replaces it.
    var backend: RenderBackend
    let onPresenterFailure: ((PresenterFailure, RenderBackend) -> RenderBackend)?
    /// Where the presenters run; nil when none runs: none was to run (plain
    /// lines, which show no frames), or the engine failed.
    var engine: PresenterEngine?
    /// The backend's rows the presenters' view covers now: the composer's,
    /// kept here too, for the screenlets (``Screenlet/renderPresenter(at:asked:)``).
    var presenterArea: Range<Int>
    var screenlets: [Screenlet] = []
    var nextViewID: ViewID = 1
    var inFlight = 0
    var needsRender = false
    /// Between ``PresenterRuntime/suspend()`` and ``PresenterRuntime/resume()``: nothing is drawn.
    var suspended = false
    var drewInLastFrame = false
    /// Something a frame shows may have changed since the last frame
    /// besides the time: a job ran (``PresenterRuntime/enqueue(_:)``,
    /// ``PresenterRuntime/sync(_:)``, an attach), a presenter rendered,
    /// changed an element or failed, the geometry moved. The composer may
    /// not reuse a frame it made before. (The frames of
    /// ``PresenterRuntime/renderFrames(through:moving:)``, a clock's turn,
    /// are not such a change.)
    var frameInputsChanged = true
    /// A capped frame asked for by a progress report.
    var progressFrameRequest: UInt64?
    var scheduler: FrameScheduler
    /// The frame the thread's timer was last armed for
    /// (``PresenterRuntime/rescheduleAndSettle()``). What asks for frames
    /// changes only in jobs and frames, each followed by a reschedule, so a
    /// wake-up renders it without asking everyone again.
    var armedDue: UInt64?

    /// The earliest frame anyone asked for. Reads the screenlets' own state
    /// and the engine's requests; calls no presenter.
    func earliestRequest() -> UInt64? {
        var earliest = progressFrameRequest
        func consider(_ request: UInt64?) {
            if let request { earliest = min(earliest ?? request, request) }
        }
        engine?.frameRequests.values.forEach(consider)
        for screenlet in screenlets {
            screenlet.state.with {
                consider($0.viewFrameRequest); consider($0.overlayFrameRequest)
            }
        }
        return earliest
    }

    /// Nothing is going on: no interactor in flight, no frame to render
    /// or asked for, nothing drawn in the last one.
    func isQuiet(earliestRequest: UInt64?) -> Bool {
        inFlight == 0 && !needsRender && !drewInLastFrame && earliestRequest == nil
    }
}
