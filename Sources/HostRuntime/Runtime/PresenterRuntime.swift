import Dispatch
import Glibc
import HostEngine
import HostPlugins
import HostSystem
import HostText

/// The host's runtime: attaches screenlet views to presenter plugins, tells
/// the presenters about their views' interactors on one presenter thread,
/// schedules frames and hands them to a render backend.
///
/// ```swift
/// let runtime = PresenterRuntime(registry: registry, backend: BackendFactory.make(), isolation: .inProcess)
/// let screenlet = try runtime.attach(view)            // creates the presenter chain
/// let interactor = screenlet.perform(action: "add-bookmark", interactorType: "AddBookmarkInteractor")
/// // ... on any thread:
/// interactor.succeed()                                 // or .fail(error), .reportProgress(0.5)
/// _ = runtime.waitUntilSettled(timeout: 10)           // HUD gone, nothing animating
/// runtime.shutdown()                                   // destroys instances, restores the terminal
/// ```
///
/// Where plugins run (``Isolation``, a choice the caller must make): in
/// this process, trusted, or in a presenter process, where a crash, an exit or a hang of
/// a plugin ends only that process: the runtime then takes the presenter off
/// its views and goes on without it (``PresenterFailure``).
///
/// Frames: the runtime renders at once after every show, hide and key (and
/// after attach, resize and ``Screenlet/setNeedsDisplay()``); progress
/// reports and `request_frame` get a frame at the time asked, but never
/// closer than `1/maxFramesPerSecond` to the previous frame. A presenter's
/// progress hook runs at that frame, with the latest fraction and message
/// (reports in between are merged: a command that reports 1,000 times a
/// second costs a hook call per frame). Without a
/// request nothing ticks. A frame clears the canvas and, for each view in
/// attach order (every view covers the whole backend area), lets the view
/// draw its content and paints its presenter's picture over it, then
/// presents it; a frame that only turns a `draw_cycle` may instead be one
/// made before (``FrameComposer``). A presenter's render hook runs only after one of its hooks
/// (show, hide, progress, key), when the view's size changed, or at a time
/// it asked for: never before any of these; the frames in between reuse
/// what it drew last.
///
/// On a clock that does not move on its own (a ``ManualClock``) nothing
/// renders on a timer: `PresenterHostTesting`'s `advance(by:)` moves the
/// clock and renders the frames that fall due on the way, before returning.
public final class PresenterRuntime: Sendable {
    /// Where the presenters' hooks run.
    public enum Isolation: Sendable {
        /// In this process, on the presenter thread, which loads a chain's
        /// files when it attaches it. The plugins are trusted: a crash in a
        /// hook is a crash of this process, a hook that never returns stops
        /// every view's drawing.
        case inProcess
        /// In a presenter process (a `presenter-host` binary in an internal
        /// mode): a plugin that crashes, exits, hangs or breaks the protocol
        /// ends that process only, and its sandbox contains what they may do.
        case presenterProcess(PresenterProcessConfiguration)
    }

    /// Where the presenters come from.
    public let registry: PresenterRegistry
    /// Options for plugins (`option` host service): "<presenterId>.<key>" is
    /// looked up first, then "<key>".
    public let options: [String: String]
    /// The clock of `now_ns` and of frames.
    public let clock: HostClock
    /// The frame-rate cap.
    public let maxFramesPerSecond: Int
    /// Rows at the bottom of the backend's area that presenters are not
    /// given: their views end above them, and the views draw there alone
    /// (`run --output tail` shows the command's last lines there).
    public let reservedRows: Int

    let thread: PresenterThread
    /// The log sink, called under its lock: one entry at a time, from any thread.
    let logSink: LockedValue<((PresenterLogEntry) -> Void)?>
    /// The engine's ``PresenterEngine/hurry``, for any thread.
    let hurryEngine: @Sendable () -> Void
    /// The engine's ``PresenterEngine/dismiss``, for any thread; nil when
    /// its presenters cannot be let go (they run in this process).
    let dismissEngine: (@Sendable () -> Void)?
    /// Whether the caller dismissed the presenters (``dismissPresenters()``):
    /// their failure from then on is the end it chose.
    let dismissed = LockedValue(false)
    /// Whether the presenters' runs are over, and whether the runtime is shut down.
    let settling = RuntimeSettling()

    /// The presenter thread's alone, checked on every access.
    let state: PresenterBound<RuntimeState>
    /// The frame's layout and canvas, the presenter thread's alone: a box of
    /// their own, as the views draw (and may call the runtime) while it composes.
    let composer: PresenterBound<FrameComposer>
    /// Whether frames may be drawn now (presenter thread only).
    var isDrawing: Bool { !state.value.suspended && !isShutDown }
    /// The backend, copied out of the state (presenter thread only): a call
    /// to it is a call out (a library's backend may reach the runtime,
    /// which may replace it), so it is never made inside the state's access.
    var backend: RenderBackend { state.value.backend }

    /// A runtime drawing on `backend`.
    ///
    /// - Parameters:
    ///   - options: plugin options (see ``options``).
    ///   - clock: ``MonotonicClock`` in real use, ``ManualClock`` in `check` and tests.
    ///   - maxFramesPerSecond: the cap for requested frames.
    ///   - reservedRows: rows at the bottom kept from the presenters (see ``reservedRows``).
    ///   - presenterRows: the rows the presenters' view covers, for a
    ///     backend of so many rows (clamped to them; at least one row);
    ///     `nil`: from the top row, `reservedRows` kept. What a presenter
    ///     draws is moved there and clipped to them. A view that lays itself
    ///     out around its presenter (the Add Bookmark screen puts the HUD in
    ///     the rows below its buttons) gives its own.
    ///   - isolation: where the plugins' hooks run (no default: running them here is a choice).
    ///   - log: receives plugin log lines, hook failures and presenter
    ///     failures, one call at a time, on the presenter thread (or, for
    ///     what a presenter process printed, on a thread of its own); call
    ///     ``printAbove(_:)`` from it to show them above a terminal region;
    ///     `nil` drops them.
    ///   - onPresenterFailure: when a presenter fails for good (its process
    ///     crashed, exited, hung or broke the protocol, or its create failed),
    ///     called on the presenter thread with the failure and the current
    ///     backend; returns the backend to go on with (the same one, or, for
    ///     `run`, plain lines once the terminal one is finished). Without it,
    ///     in-process, a failed create throws from ``attach(_:)``; after any
    ///     other failure (and, with a presenter process, after a failed
    ///     create, which the next call reports: attach does not wait for the
    ///     process) the views go on without their presenters on the same backend.
    public convenience init(
        registry: PresenterRegistry, backend: RenderBackend, options: [String: String] = [:],
        clock: HostClock = MonotonicClock(), maxFramesPerSecond: Int = 20, reservedRows: Int = 0,
        presenterRows: (@Sendable (Int) -> Range<Int>)? = nil,
        isolation: Isolation,
        log: sending ((PresenterLogEntry) -> Void)? = nil,
        onPresenterFailure: ((PresenterFailure, RenderBackend) -> RenderBackend)? = nil
    ) {
        self.init(
            registry: registry, backend: backend, options: options, clock: clock,
            maxFramesPerSecond: maxFramesPerSecond, reservedRows: reservedRows, presenterRows: presenterRows,
            isolation: isolation, tracing: EngineNote.tracingEnabled(), log: log,
            onPresenterFailure: onPresenterFailure)
    }

    /// A runtime whose in-process engine traces every hook call as
    /// `tracing` says: the command line's environment, passed down (a
    /// library caller's runtime reads this process's); and loads the
    /// chains it attaches through `loader` (nil: from their files, under
    /// the registry's policy; tests give presenters built in code).
    /// `isolation` nil: no presenter runs at all, for a backend that shows
    /// no frames (plain lines: the views' lines are the backend's own), so
    /// that no presenter process starts and no plugin is loaded for nothing;
    /// views attach without their presenters, as after a failure.
    package init(
        registry: PresenterRegistry, backend: RenderBackend, options: [String: String] = [:],
        clock: HostClock = MonotonicClock(), maxFramesPerSecond: Int = 20, reservedRows: Int = 0,
        presenterRows: (@Sendable (Int) -> Range<Int>)? = nil,
        isolation: Isolation?, tracing: Bool, loader: PresenterLoader? = nil,
        log: sending ((PresenterLogEntry) -> Void)? = nil,
        onPresenterFailure: ((PresenterFailure, RenderBackend) -> RenderBackend)? = nil
    ) {
        self.registry = registry
        self.options = options
        self.clock = clock
        self.maxFramesPerSecond = maxFramesPerSecond
        self.reservedRows = max(0, reservedRows)
        let thread = PresenterThread(name: "presenter")
        self.thread = thread
        let logSink = LockedValue(log)
        self.logSink = logSink
        let composer = FrameComposer(backend: backend, reservedRows: self.reservedRows, presenterRows: presenterRows)
        let engine: PresenterEngine?
        switch isolation {
        case nil:
            engine = nil
        case .inProcess:
            engine = LocalPresenterEngine(
                options: options, clock: clock, geometry: composer.geometry, tracing: tracing,
                loader: loader ?? .files(policy: registry.policy), isEngineThread: { [thread] in thread.isCurrent })
        case .presenterProcess(let configuration):
            engine = PresenterProcess(
                configuration: configuration, options: options, clock: clock,
                geometry: composer.geometry, output: { entry in logSink.withLock { $0?(entry) } })
        }
        hurryEngine = engine?.hurry ?? { @Sendable in }
        dismissEngine = engine?.dismiss
        state = PresenterBound(
            RuntimeState(
                backend: backend, onPresenterFailure: onPresenterFailure, engine: engine,
                presenterArea: composer.presenterArea,
                scheduler: FrameScheduler(maxFramesPerSecond: maxFramesPerSecond)),
            to: thread)
        self.composer = PresenterBound(composer, to: thread)
        // The engine's delegate is weak: the runtime itself, which owns the engine.
        engine?.delegate = self
        // The thread's handlers first: a resize's job must find them (a batch
        // without them renders nothing and leaves the runtime unsettled).
        thread.handle(afterJobs: { [weak self] in self?.afterJobs() }, onWake: { [weak self] in self?.timerFired() })
        backend.watchResize { [weak self] in self?.resize() }
    }

    // MARK: - Views

    /// Attaches `view`: creates its presenter's instance chain on the
    /// presenter thread, bases first (each base gets its own context).
    ///
    /// - Parameter presenter: the chain the caller resolved for the view
    ///   (``PresenterRegistry/resolve(_:)``, where it read the user's
    ///   choice); nil resolves the id the view names
    ///   (``ScreenletView/createProgressPresenter()``) in the registry.
    ///
    /// - Throws: ``RuntimeError/unknownPresenter(id:)`` when no presenter
    ///   has the id the view chose; ``RuntimeError/createFailed(presenterId:status:message:)``
    ///   when, in process, a create hook failed and the runtime has no
    ///   `onPresenterFailure` (the instances created so far are destroyed
    ///   again; with one, the view is attached without its presenter; with a
    ///   presenter process, attach does not wait for the creates, and a
    ///   failed one is reported by the next call); ``RuntimeError/shutDown``.
    ///   A presenter that cannot start (its file no longer loads, or no
    ///   longer holds it where it was resolved: ``StartFailure``) is not
    ///   thrown: in process as in a presenter process, it is a failure of
    ///   the presenters (``PresenterFailure``), given to `onPresenterFailure`
    ///   or else the log, and the view is attached without its presenter.
    public func attach(_ view: ScreenletView, presenter: PresenterChain? = nil) throws(RuntimeError) -> Screenlet {
        let chain: PresenterChain
        if let presenter {
            chain = presenter
        } else {
            let id = view.createProgressPresenter()
            guard let found = registry.chain(for: id).flatMap(PresenterChain.init) else {
                throw .unknownPresenter(id: id)
            }
            chain = found
        }
        let id = chain.id
        let result: Result<Screenlet, RuntimeError> = countedSync {
            guard !isShutDown else { return .failure(.shutDown) }
            let viewID = state.with { state in
                defer { state.nextViewID += 1 }
                return state.nextViewID
            }
            let screenlet = Screenlet(view: view, presenterId: id, viewID: viewID, runtime: self)
            if let engine = liveEngine {
                do throws(PresenterFailure) {
                    try engine.attach(screenlet.viewID, chain: chain, elements: Array(view.elements.keys))
                    screenlet.presenterCreated(chain: chain.plugins)
                } catch {
                    if case .createFailed(let status, let message) = error.reason,
                        state.value.onPresenterFailure == nil
                    {
                        return .failure(.createFailed(presenterId: error.presenterId, status: status, message: message))
                    }
                    state.value.screenlets.append(screenlet)
                    presenterFailed(error)
                    return .success(screenlet)
                }
            }
            state.with { state in
                state.screenlets.append(screenlet)
                state.needsRender = true
            }
            return .success(screenlet)
        }
        return try result.get()
    }

    // MARK: - Input and output from any thread

    /// Gives a key to the views, the last attached first; the first that
    /// uses it stops it. Then renders.
    ///
    /// A view's presenter is offered the key before its view only while it
    /// shows the outcome of a failure that a key may dismiss: after the hide
    /// of the view's last shown interactor, when that one failed, once a
    /// render after it drew something, until a render draws nothing or
    /// another interactor is shown; one key (used or not), never Esc, and
    /// only on a backend whose flags have ``ViewFlags/interactive``. At any
    /// other time keys are the view's alone: a presenter cannot keep the
    /// user in a screen or read what is typed into it.
    public func key(_ code: UInt32) {
        enqueue { [self] in
            let (interactive, screenlets) = state.with { ($0.backend.flags.contains(.interactive), $0.screenlets) }
            for screenlet in screenlets.reversed() where screenlet.key(code, interactive: interactive) { break }
            state.value.needsRender = true
        }
    }

    /// Re-reads the backend's size and redraws everything (after SIGWINCH).
    public func resize() {
        enqueue { [self] in
            backend.refresh()
            state.value.needsRender = true
        }
    }

    /// Takes the view off the screen and gives the terminal back (job
    /// control: before the process stops on Ctrl-Z). Presenters keep their
    /// state; nothing is drawn until ``resume()``. Returns once the screen is
    /// clean. Any thread but the presenter thread.
    ///
    /// Also during a shutdown: the caller stops the process next, and one
    /// stopped while the shutdown had not yet finished the backend keeps its
    /// region on the screen, the cursor hidden and echo off (and a job then
    /// continued with `bg` ends in the background, where it may not set them
    /// back). So it waits its turn behind the shutdown's job (or runs once the
    /// presenter thread has ended), and the backend, finished by then, has
    /// nothing left to take off.
    public func suspend() {
        thread.sync {
            let backend = state.with { state in
                state.frameInputsChanged = true
                state.suspended = true
                return state.backend
            }
            backend.suspend()
        }
    }

    /// Draws the view again after ``suspend()`` (on SIGCONT), re-reading the
    /// terminal's size, which may have changed meanwhile.
    public func resume() {
        enqueue { [self] in
            state.value.suspended = false
            backend.refresh()
            state.value.needsRender = true
        }
    }

    /// Shows `text` (e.g. a command's output) above the view, in order with
    /// frames. Returns false, and prints nothing, once the runtime is shut down.
    @discardableResult
    public func printAbove(_ text: String) -> Bool {
        enqueue { [self] in backend.printAbove(text) }
    }

    /// Runs `body` on the presenter thread once everything asked before it
    /// was handled, including the frame that follows it, and returns its
    /// result: a stable moment to read a test backend or a view's elements.
    public func sync<T>(_ body: () throws -> T) rethrows -> T {
        try thread.sync {
            if state.value.needsRender && isDrawing { renderFrame() }
            // `body` may change a view (the Add Bookmark screen's do).
            state.value.frameInputsChanged = true
            return try body()
        }
    }

    // MARK: - Presenter thread internals

    /// The presenters cannot run any more: takes them off every view, ends
    /// the engine, logs why, and lets `onPresenterFailure` choose the backend
    /// to go on with (it reports the failure; without it the log gets it).
    /// Interactors already shown are announced again to a new backend (plain
    /// lines then show what is still running).
    func presenterFailed(_ failure: PresenterFailure) {
        guard let engine = liveEngine else { return }
        let (screenlets, onPresenterFailure, previous) = state.with { state in
            state.engine = nil
            state.frameInputsChanged = true
            return (state.screenlets, state.onPresenterFailure, state.backend)
        }
        engine.close()
        for screenlet in screenlets { screenlet.presenterGone() }
        // The kill of a dismissal: the end the caller chose, which nothing
        // reports. Any other failure (a create refused, an exec that failed)
        // is the presenter's, reported as ever.
        if failure.reason == .crashed(signal: SIGKILL) && dismissed.withLock({ $0 }) { return }
        if let onPresenterFailure {
            let next = onPresenterFailure(failure, previous)
            state.value.backend = next
            if next !== previous {
                for screenlet in screenlets { screenlet.announceShown() }
            }
        } else {
            log(PresenterLogEntry(level: .error, presenterId: failure.presenterId, message: failure.description))
        }
        state.value.needsRender = true
    }

    /// Runs `body` on the presenter thread, counted as a pending job like
    /// ``enqueue(_:)`` so that no one sees the runtime settled before the
    /// frame that follows it.
    private func countedSync<T>(_ body: () -> T) -> T {
        let counted = settling.admitNow()
        return thread.sync {
            defer { if counted { settling.jobDone() } }
            state.value.frameInputsChanged = true
            return body()
        }
    }

    /// The screenlet of `view`, on the presenter thread.
    func screenlet(_ view: ViewID) -> Screenlet? {
        state.value.screenlets.first { $0.viewID == view }
    }
}
