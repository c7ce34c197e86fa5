import Foundation
import PresenterABI

/// The host's runtime: attaches screenlet views to presenter plugins, runs
/// every hook on one presenter thread, schedules frames and hands them to a
/// render backend.
///
/// ```swift
/// let runtime = PresenterRuntime(registry: registry, backend: BackendFactory.make())
/// let screenlet = try runtime.attach(view)            // creates the presenter chain
/// let interactor = screenlet.perform(action: "add-bookmark", interactorType: "AddBookmarkInteractor")
/// // ... on any thread:
/// interactor.succeed()                                 // or .fail(error), .reportProgress(0.5)
/// _ = runtime.waitUntilSettled(timeout: 10)           // HUD gone, nothing animating
/// runtime.shutdown()                                   // destroys instances, restores the terminal
/// ```
///
/// Frames: the runtime renders at once after every show, hide and key (and
/// after attach, resize and ``Screenlet/setNeedsDisplay()``); progress
/// reports and `request_frame` get a frame at the time asked, but never
/// closer than `1/maxFramesPerSecond` to the previous frame. Without a
/// request nothing ticks. A frame clears the canvas, lets each view draw its
/// content and its presenter paint over it (in attach order; every view
/// covers the whole backend area), then presents it.
///
/// Tests use a ``ManualClock``: then nothing renders on a timer, and
/// ``advance(by:)`` / ``advance(to:)`` move the clock and render the frames
/// that fall due on the way, before returning.
public final class PresenterRuntime: @unchecked Sendable {
    /// Where the presenters come from.
    public let registry: PresenterRegistry
    /// Where frames go. Called on the presenter thread only.
    public let backend: RenderBackend
    /// Options for plugins (`option` host service): "<presenterId>.<key>" is
    /// looked up first, then "<key>".
    public let options: [String: String]
    /// The clock of `now_ns` and of frames.
    public let clock: HostClock
    /// The frame-rate cap.
    public let maxFramesPerSecond: Int

    let thread: PresenterThread
    private let logSink: ((PresenterLogEntry) -> Void)?

    // Presenter thread only.
    var canvas: Canvas
    var screenlets: [Screenlet] = []
    var inFlight = 0
    var needsRender = false
    /// Between ``suspend()`` and ``resume()``: nothing is drawn.
    private var suspended = false
    /// Whether frames may be drawn now (presenter thread only).
    private var isDrawing: Bool { !suspended && !isShutDown }
    /// Draw calls by presenters in the frame being rendered.
    var drawCount = 0
    private var drewInLastFrame = false
    /// A capped frame asked for by a progress report.
    private var progressFrameRequest: UInt64?
    private var scheduler: FrameScheduler

    // Any thread, under `settledCondition`.
    private let settledCondition = NSCondition()
    private var pendingJobs = 0
    private var settled = true
    private var shutDown = false

    /// A runtime drawing on `backend`.
    ///
    /// - Parameters:
    ///   - options: plugin options (see ``options``).
    ///   - clock: ``MonotonicClock`` in real use, ``ManualClock`` in tests.
    ///   - maxFramesPerSecond: the cap for requested frames.
    ///   - log: receives plugin log lines and hook failures, on the presenter
    ///     thread (call ``printAbove(_:)`` from it to show them above a
    ///     terminal region); `nil` drops them.
    public init(registry: PresenterRegistry, backend: RenderBackend, options: [String: String] = [:],
                clock: HostClock = MonotonicClock(), maxFramesPerSecond: Int = 20,
                log: ((PresenterLogEntry) -> Void)? = nil) {
        self.registry = registry
        self.backend = backend
        self.options = options
        self.clock = clock
        self.maxFramesPerSecond = maxFramesPerSecond
        logSink = log
        scheduler = FrameScheduler(maxFramesPerSecond: maxFramesPerSecond)
        canvas = Canvas(cols: backend.size.cols, rows: backend.size.rows)
        weak var weakSelf: PresenterRuntime?
        thread = PresenterThread(name: "presenter",
                                 afterJobs: { weakSelf?.afterJobs() },
                                 onWake: { weakSelf?.timerFired() })
        weakSelf = self
        backend.watchResize { [weak self] in self?.resize() }
    }

    // MARK: - Views

    /// Attaches `view`: creates its presenter's instance chain on the
    /// presenter thread, bases first (each base gets its own context).
    ///
    /// - Throws: ``RuntimeError/unknownPresenter(id:)`` when no presenter
    ///   has the id the view chose; ``RuntimeError/createFailed(presenterId:status:message:)``
    ///   when a create hook failed (the instances created so far are
    ///   destroyed again); ``RuntimeError/shutDown``.
    public func attach(_ view: ScreenletView) throws(RuntimeError) -> Screenlet {
        let id = view.createProgressPresenter()
        guard let chain = registry.chain(for: id) else { throw .unknownPresenter(id: id) }
        let screenlet = Screenlet(view: view, presenterId: id, runtime: self)
        let result: Result<Screenlet, RuntimeError> = countedSync {
            guard !isShutDown else { return .failure(.shutDown) }
            var created: [PresenterInstance] = []
            for plugin in chain.reversed() {
                let instance = PresenterInstance(plugin: plugin, base: created.last, runtime: self)
                do throws(RuntimeError) {
                    try instance.create()
                } catch {
                    for made in created.reversed() { made.destroy() }
                    return .failure(error)
                }
                created.append(instance)
            }
            screenlet.top = created.last
            screenlets.append(screenlet)
            needsRender = true
            return .success(screenlet)
        }
        return try result.get()
    }

    // MARK: - Input and output from any thread

    /// Offers a key to the views' presenters, then views, the last attached
    /// first; the first that uses it stops it. Then renders.
    public func key(_ code: UInt32) {
        enqueue { [self] in
            for screenlet in screenlets.reversed() where screenlet.key(code) { break }
            needsRender = true
        }
    }

    /// Re-reads the backend's size and redraws everything (after SIGWINCH).
    public func resize() {
        enqueue { [self] in
            backend.refresh()
            needsRender = true
        }
    }

    /// Shows `text` (e.g. a command's output) above the view, in order with frames.
    /// Takes the view off the screen and gives the terminal back (job
    /// control: before the process stops on Ctrl-Z). Presenters keep their
    /// state; nothing is drawn until ``resume()``. Returns once the screen is
    /// clean. Any thread but the presenter thread.
    public func suspend() {
        guard !isShutDown else { return }
        thread.sync {
            suspended = true
            backend.suspend()
        }
    }

    /// Draws the view again after ``suspend()`` (on SIGCONT), re-reading the
    /// terminal's size, which may have changed meanwhile.
    public func resume() {
        enqueue { [self] in
            suspended = false
            backend.refresh()
            needsRender = true
        }
    }

    public func printAbove(_ text: String) {
        enqueue { [self] in backend.printAbove(text) }
    }

    /// Runs `body` on the presenter thread once everything asked before it
    /// was handled, including the frame that follows it, and returns its
    /// result: a stable moment to read a ``TestBackend`` or a view's elements.
    public func sync<T>(_ body: () throws -> T) rethrows -> T {
        try thread.sync {
            if needsRender && isDrawing { renderFrame() }
            return try body()
        }
    }

    // MARK: - Settling and shutting down

    /// Waits until no interactor is in flight, nothing is queued, and the
    /// last frame had no presenter draw anything and no one ask for another
    /// frame (the HUD is gone and nothing animates). `timeout` in seconds;
    /// `nil` waits for ever. Returns whether it settled. Never call it on
    /// the presenter thread. With a ``ManualClock``, pending frames come only
    /// through ``advance(by:)``, so it cannot settle while one is asked for.
    public func waitUntilSettled(timeout: Double?) -> Bool {
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        settledCondition.lock()
        defer { settledCondition.unlock() }
        while !settled {
            if let deadline {
                if !settledCondition.wait(until: deadline) { return settled }
            } else {
                settledCondition.wait()
            }
        }
        return true
    }

    /// True once ``shutdown()`` began.
    public var isShutDown: Bool { settledCondition.withLock { shutDown } }

    /// Ends interactors still in flight (their presenters get the hide they
    /// are owed: no message, a "cancelled" failure), destroys every instance
    /// (each view's presenter first, then its bases), calls the backend's
    /// `finish()` and stops the presenter thread. Later calls do nothing;
    /// later performs and ends are ignored.
    public func shutdown() {
        let first: Bool = settledCondition.withLock {
            defer { shutDown = true }
            return !shutDown
        }
        guard first else { return }
        thread.sync {
            for screenlet in screenlets.reversed() {
                screenlet.cancelAll()
                screenlet.destroy()
            }
            screenlets.removeAll()
            backend.finish()
        }
        thread.stop()
        settledCondition.withLock {
            settled = true
            settledCondition.broadcast()
        }
    }

    // MARK: - Manual time (tests)

    /// Moves the ``ManualClock`` forward by `seconds`, rendering each frame
    /// that falls due on the way at its own time, and returns once done.
    public func advance(by seconds: Double) {
        advance(to: clock.now() + UInt64(max(0, seconds) * 1e9))
    }

    /// Moves the ``ManualClock`` to `time` (ns), rendering each frame that
    /// falls due on the way at its own time, and returns once done.
    public func advance(to time: UInt64) {
        guard let manual = clock as? ManualClock else {
            preconditionFailure("advance(to:) needs a runtime made with a ManualClock")
        }
        sync {
            while isDrawing, let due = dueTime(), due <= time {
                manual.set(due)
                renderFrame()
            }
            manual.set(time)
        }
        updateSettled()
    }

    // MARK: - Presenter thread internals

    /// Queues `job` for the presenter thread; false (job dropped) after shutdown.
    /// Accepting and queueing happen under one lock with shutdown's flag, so
    /// every accepted job runs before shutdown destroys the instances.
    @discardableResult
    func enqueue(_ job: @escaping () -> Void) -> Bool {
        settledCondition.withLock {
            guard !shutDown else { return false }
            pendingJobs += 1
            settled = false
            return thread.async { [self] in
                job()
                settledCondition.withLock { pendingJobs -= 1 }
            }
        }
    }

    /// Asks for a frame now, subject to the cap (progress reports).
    func requestCappedFrame() {
        let now = clock.now()
        progressFrameRequest = min(progressFrameRequest ?? now, now)
    }

    /// Logs a failed hook.
    func report(_ outcome: PresenterInstance.Outcome) {
        guard outcome.failed else { return }
        log(PresenterLogEntry(level: .error, presenterId: outcome.presenterId,
                              message: "\(outcome.hook) failed (status \(outcome.status))"
                                + (outcome.message.map { ": \($0)" } ?? "")))
    }

    func log(_ entry: PresenterLogEntry) { logSink?(entry) }

    /// Runs `body` on the presenter thread, counted as a pending job like
    /// ``enqueue(_:)`` so that no one sees the runtime settled before the
    /// frame that follows it.
    private func countedSync<T>(_ body: () -> T) -> T {
        let counted: Bool = settledCondition.withLock {
            guard !shutDown else { return false }
            pendingJobs += 1
            settled = false
            return true
        }
        return thread.sync {
            defer { if counted { settledCondition.withLock { pendingJobs -= 1 } } }
            return body()
        }
    }

    private func afterJobs() {
        guard isDrawing else { return }
        if needsRender { renderFrame() }
        reschedule()
        updateSettled()
    }

    private func timerFired() {
        guard isDrawing else { return }
        if let due = dueTime(), due <= clock.now() { renderFrame() }
        reschedule()
        updateSettled()
    }

    /// Renders one frame now.
    private func renderFrame() {
        let now = clock.now()
        let size = backend.size
        if canvas.cols != size.cols || canvas.rows != size.rows {
            canvas = Canvas(cols: size.cols, rows: size.rows)
        } else {
            canvas.clear()
        }
        // Requests up to now are served by this frame; those made while
        // rendering are for the next.
        if let request = progressFrameRequest, request <= now { progressFrameRequest = nil }
        for screenlet in screenlets {
            if let request = screenlet.viewFrameRequest, request <= now { screenlet.viewFrameRequest = nil }
            for instance in screenlet.top.chain {
                if let request = instance.frameRequest, request <= now { instance.frameRequest = nil }
            }
        }
        drawCount = 0
        let flags = backend.flags
        for screenlet in screenlets { screenlet.render(at: now, flags: flags) }
        drewInLastFrame = drawCount > 0
        needsRender = false
        scheduler.rendered(at: now)
        backend.present(canvas)
    }

    /// The earliest frame anyone asked for.
    private func earliestRequest() -> UInt64? {
        var earliest = progressFrameRequest
        for screenlet in screenlets {
            for request in [screenlet.viewFrameRequest] + screenlet.top.chain.map(\.frameRequest) {
                if let request { earliest = min(earliest ?? request, request) }
            }
        }
        return earliest
    }

    private func dueTime() -> UInt64? { scheduler.due(for: earliestRequest()) }

    /// Arms the thread's timer for the next due frame, or disarms it.
    private func reschedule() {
        guard !(clock is ManualClock), let due = dueTime() else {
            thread.setWakeup(nil)
            return
        }
        let now = clock.now()
        // Saturating: a plugin may ask for a frame at UINT64_MAX ("never, really").
        let (wakeup, overflow) = MonotonicClock().now().addingReportingOverflow(due > now ? due - now : 0)
        thread.setWakeup(overflow ? .max : wakeup)
    }

    private func updateSettled() {
        let quiet = thread.sync { inFlight == 0 && !needsRender && !drewInLastFrame && earliestRequest() == nil }
        settledCondition.withLock {
            settled = quiet && pendingJobs == 0
            if settled { settledCondition.broadcast() }
        }
    }
}
