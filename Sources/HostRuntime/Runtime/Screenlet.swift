import HostEngine
import HostPlugins
import HostText
import PresenterABI

/// A view attached to a ``PresenterRuntime`` with its presenter instance
/// chain: where actions are performed. Created by
/// ``PresenterRuntime/attach(_:)``.
///
/// The message rules are the original's:
/// - an action uses its own messages, else the default action's
///   (``ScreenletView/defaultAction``): the fallback is for the whole table,
///   never per kind;
/// - no working message: show is not called (nor, so, hide); an empty one
///   (``NoProgressMessage``): show with "", the indicator without text;
/// - at the end, hide gets the success or failure message (NULL when the
///   table has none); a validation error's own text replaces the failure
///   message.
///
/// Unlike the original, every interactor is paired on its own: exactly one
/// hide for each show, none without, all on the presenter thread in the
/// order the interactors reported, so concurrent actions never end each
/// other's progress.
public final class Screenlet: Sendable {
    /// The view.
    public let view: ScreenletView
    /// The id of its presenter (what the view's `createProgressPresenter` chose).
    public let presenterId: String
    let runtime: PresenterRuntime
    /// The view's name in the runtime's engine.
    let viewID: ViewID

    /// The screenlet's presenter-thread state, as one value: a frame checks
    /// the thread once a function, not once a field (``PresenterBound``).
    struct State {
        /// The presenter's instances exist (false once the presenter failed,
        /// or when the view was attached without it).
        var hasPresenter = false
        /// What the presenter drew at its last render, painted over the view at every frame.
        var overlay: [DrawOperation] = []
        /// One of the presenter's hooks ran since its last render.
        fileprivate var presenterDue = false
        /// Interactors started and not yet ended, in start order.
        fileprivate var active: [InteractorHandle] = []
        /// Shown interactors whose progress the presenter has not heard yet:
        /// its progress hook runs at the next frame, so reports that come
        /// faster than frames (a command writing 1,000 lines a second) cost
        /// a hook call per frame at most.
        fileprivate var progressDue: [InteractorHandle] = []
        /// When the view asked for its next frame (``ScreenletView/draw(in:at:flags:)``).
        var viewFrameRequest: UInt64?
        /// When the presenter's picture changes by itself next (a
        /// `draw_cycle`'s next text), on a screen that shows frames: the host
        /// draws that frame without calling the presenter.
        var overlayFrameRequest: UInt64?
        /// Whether the presenter shows the outcome of a failure that a key
        /// may dismiss (``Screenlet/key(_:interactive:)``): `told` from the
        /// hide of the last shown interactor with a failure, `shown` once a
        /// render after it drew something, until a key, new work, or a
        /// render that draws nothing.
        fileprivate var failureTurn = FailureTurn.none
        /// The log said once that a render drew more than the host paints.
        fileprivate var saidOverBudget = false
        /// The presenter and every presenter it extends know
        /// `PRESENTER_VIEW_FINAL` (ABI 1.3 or later): its last render draws
        /// the outcome that stays.
        fileprivate var drawsFinalLook = false
        /// How the view's last shown interactor ended, while none is shown:
        /// the outcome that stays when the view goes (``Screenlet/outcomeToKeep``).
        fileprivate var lastEnding: ProgressEvent?
    }

    fileprivate enum FailureTurn { case none, told, shown }

    /// The presenter thread's alone, checked on every access.
    let state: PresenterBound<State>

    /// The first ABI that has `PRESENTER_VIEW_FINAL`.
    static let finalLookABI = ABIVersion(major: 1, minor: 3)

    init(view: ScreenletView, presenterId: String, viewID: ViewID, runtime: PresenterRuntime) {
        self.view = view
        self.presenterId = presenterId
        self.viewID = viewID
        self.runtime = runtime
        state = PresenterBound(State(), to: runtime.thread)
    }

    /// Starts an interactor of `interactorType` performing `action` (any
    /// thread): the view's messages are read now, the presenter is told on
    /// its thread. End the returned handle when the work is done.
    public func perform(action: String, interactorType: String) -> InteractorHandle {
        let table = view.progressMessages
        return perform(
            action: action, interactorType: interactorType,
            messages: table[action] ?? table[ScreenletView.defaultAction] ?? [:])
    }

    /// Starts an interactor with its own `messages` instead of the view's
    /// table for `action` (a driver line that names its messages).
    public func perform(action: String, interactorType: String, messages: ProgressMessages) -> InteractorHandle {
        let handle = InteractorHandle(
            action: action, interactorType: interactorType, messages: messages, screenlet: self)
        if !runtime.enqueue({ [self] in started(handle) }) {
            _ = handle.markEnded()
            handle.announced()
        }
        return handle
    }

    /// Asks for a frame soon (any thread): the view's own content changed.
    public func setNeedsDisplay() {
        runtime.enqueue { [self] in runtime.setNeedsRender() }
    }

    // MARK: - Presenter thread

    private func started(_ handle: InteractorHandle) {
        state.value.active.append(handle)
        runtime.interactorStarted()
        view.actionStarted(handle.action, message: handle.messages[.working])
        // No working message: neither show nor hide, and no plain lines either.
        guard let working = handle.messages[.working] else { return handle.announced() }
        runtime.announce(.started(action: handle.action, message: working))
        handle.announced()
        handle.told.with { told in
            told.shown = true
            told.message = working
        }
        state.value.failureTurn = .none
        state.value.lastEnding = nil
        hook { engine throws(PresenterFailure) in try engine.show(viewID, message: working, interactor: handle.snapshot)
        }
        runtime.setNeedsRender()
    }

    /// A report is waiting (presenter thread): it is taken at the next
    /// frame, so reports that come faster than frames wake this thread once
    /// a frame, not once a report.
    func progressed(_ handle: InteractorHandle) {
        guard handle.told.value.shown, state.value.active.contains(where: { $0 === handle }) else {
            _ = handle.progressDelivered()
            return
        }
        if !state.value.progressDue.contains(where: { $0 === handle }) { state.value.progressDue.append(handle) }
        runtime.requestCappedFrame()
    }

    /// Before a frame renders: takes the latest report of each interactor
    /// that reported since the last frame, tells the backend of its new
    /// messages and fraction, and the presenter (its progress hook).
    /// True when there was some.
    @discardableResult
    func deliverProgress() -> Bool {
        let (due, active) = state.with { state in
            defer { state.progressDue = [] }
            return (state.progressDue, state.active)
        }
        guard !due.isEmpty else { return false }
        for handle in due where active.contains(where: { $0 === handle }) {
            let snapshot = announceProgress(of: handle)
            hook { engine throws(PresenterFailure) in try engine.progress(viewID, interactor: snapshot) }
        }
        return true
    }

    /// Takes `handle`'s waiting report and tells the backend of its new
    /// messages and fraction; returns what the presenter is to be told.
    private func announceProgress(of handle: InteractorHandle) -> InteractorSnapshot {
        let messages = handle.progressDelivered()
        let snapshot = handle.snapshot
        for message in messages where message != handle.told.value.message {
            handle.told.value.message = message
            runtime.announce(.working(action: handle.action, message: message))
        }
        if snapshot.progress != handle.told.value.fraction {
            handle.told.value.fraction = snapshot.progress
            runtime.announce(
                .progressed(action: handle.action, fraction: snapshot.progress < 0 ? nil : snapshot.progress))
        }
        return snapshot
    }

    /// `replacement`: the message the work gave in place of the table's.
    func ended(_ handle: InteractorHandle, error: InteractorError?, message replacement: String? = nil) {
        guard let index = state.value.active.firstIndex(where: { $0 === handle }) else { return }
        state.value.active.remove(at: index)
        if state.value.progressDue.contains(where: { $0 === handle }) {
            // Its last report's lines come before its end; hide carries the fraction.
            state.value.progressDue.removeAll { $0 === handle }
            if handle.told.value.shown { _ = announceProgress(of: handle) }
        }
        runtime.interactorEnded()
        let message =
            replacement ?? error.flatMap { $0.isValidation ? $0.message : nil }
            ?? handle.messages[error == nil ? .success : .failure]
        view.actionEnded(handle.action, message: message, error: error)
        guard handle.told.value.shown else { return }
        // The last shown interactor failed: what the presenter shows of it may wait for a key.
        let failureTurn: FailureTurn =
            error != nil && !state.value.active.contains { $0.told.value.shown } ? .told : .none
        state.value.failureTurn = failureTurn
        // The failure's text, when hide's message already is it (a
        // validation error), reaches the presenter as "": a presenter that
        // shows both says it once. Backends and events get it whole.
        let told = error.map { error in
            error.message == message
                ? InteractorError(
                    code: error.code, domain: error.domain, message: "", isValidation: error.isValidation) : error
        }
        hook { engine throws(PresenterFailure) in
            try engine.hide(viewID, message: message, interactor: handle.snapshot, failure: told)
        }
        runtime.setNeedsRender()
        let finished = ProgressEvent.finished(action: handle.action, message: message, error: error)
        let lastEnding = state.value.active.contains { $0.told.value.shown } ? nil : finished
        state.value.lastEnding = lastEnding
        runtime.announce(finished)
    }

    /// Runs a status-returning hook of the presenter, if it still runs, logs
    /// a failing status, and has the presenter render at the next frame.
    private func hook(_ body: (PresenterEngine) throws(PresenterFailure) -> HookOutcome) {
        guard state.value.hasPresenter else { return }
        runtime.report(runtime.callEngine(default: .ok, body))
        state.with { $0.presenterDue = $0.hasPresenter }
    }

    /// The presenter's instances were created for the view, from `chain`
    /// (the presenter, then its bases).
    func presenterCreated(chain: [PresenterPlugin]) {
        state.value.hasPresenter = true
        state.value.drawsFinalLook = chain.allSatisfy { $0.abiVersion >= Self.finalLookABI }
    }

    /// How the view's last action ended, when the view goes with an outcome
    /// that stays: its last shown interactor ended, with a success message
    /// or a failure, and none is shown since. `nil` otherwise.
    var outcomeToKeep: ProgressEvent? {
        guard case .finished(_, let message, let error)? = state.value.lastEnding,
            OutcomeLine(message: message, error: error) != nil
        else { return nil }
        return state.value.lastEnding
    }

    /// The presenter's final look of ``outcomeToKeep``: what its render
    /// with `PRESENTER_VIEW_FINAL` at `now` drew, bounded as any render's.
    /// Empty when it drew nothing, failed, or does not know the flag (an
    /// older presenter, which is not asked): the host draws its own line then.
    func renderFinalLook(at now: UInt64, cols: Int, rows: Int) -> [DrawOperation] {
        guard state.value.hasPresenter && state.value.drawsFinalLook else { return [] }
        let drawn = runtime.callEngine(default: []) { engine throws(PresenterFailure) in
            try engine.render(viewID, at: now, final: true)
        }
        return DrawOperation.withinPaintBudget(drawn, cols: cols, rows: rows).kept
    }

    /// The view's geometry changed: the presenter renders at the next frame.
    func geometryChanged() {
        state.value.presenterDue = true
    }

    /// At the start of the frame at `now`: the view's request for it is
    /// met, and the presenter renders when a hook ran since its last
    /// render or it `asked` for this frame. True when the frame may show
    /// more than a cycle's turn: the presenter rendered, or the view's own
    /// frame came (it draws again then).
    @discardableResult
    func renderPresenter(at now: UInt64, asked: Bool) -> Bool {
        let (changed, renders) = state.with { state in
            var changed = false
            if let request = state.viewFrameRequest, request <= now {
                state.viewFrameRequest = nil
                changed = true
            }
            guard state.hasPresenter && (state.presenterDue || asked) else { return (changed, false) }
            state.presenterDue = false
            return (changed, true)
        }
        guard renders else { return changed }
        let drawn = runtime.callEngine(default: []) { engine throws(PresenterFailure) in
            try engine.render(viewID, at: now)
        }
        // What the host paints for it is bounded, whatever it drew.
        let (cols, rows) = runtime.state.with { ($0.backend.size.cols, $0.presenterArea.count) }
        let (kept, dropped) = DrawOperation.withinPaintBudget(drawn, cols: cols, rows: rows)
        let firstOverBudget = state.with { state in
            state.overlay = kept
            if state.failureTurn != .none { state.failureTurn = kept.isEmpty ? .none : .shown }
            guard dropped > 0 && !state.saidOverBudget else { return false }
            state.saidOverBudget = true
            return true
        }
        if firstOverBudget {
            runtime.log(
                PresenterLogEntry(
                    level: .warning, presenterId: presenterId,
                    message: DrawOperation.overBudgetNote(cols: cols, rows: rows, dropped: dropped, of: drawn.count)))
        }
        return true
    }

    /// Draws the view, then its presenter's picture over it, in `area`
    /// (the backend's rows the presenters' view covers).
    func draw(on canvas: inout Canvas, at now: UInt64, flags: ViewFlags, area: Range<Int>) {
        // The view draws outside the state's access: it may call the runtime.
        let next = view.draw(in: &canvas, at: now, flags: flags)
        let unicode = flags.contains(.unicode)
        state.with { state in
            if let next { state.viewFrameRequest = min(state.viewFrameRequest ?? next, next) }
            for operation in state.overlay { operation.draw(on: &canvas, unicode: unicode, in: area, at: now) }
            Self.followPicture(of: &state, at: now, flags: flags)
        }
    }

    /// Asks for the frame at which the presenter's picture changes next by
    /// itself (its cycles), after the frame at `now`, drawn or reused.
    func followPicture(at now: UInt64, flags: ViewFlags) {
        state.with { Self.followPicture(of: &$0, at: now, flags: flags) }
    }

    private static func followPicture(of state: inout State, at now: UInt64, flags: ViewFlags) {
        state.overlayFrameRequest = nil
        // Plain lines show no drawing: nothing to turn there.
        guard flags.contains(.animated) else { return }
        for operation in state.overlay {
            if let next = operation.nextChange(after: now) {
                state.overlayFrameRequest = min(state.overlayFrameRequest ?? next, next)
            }
        }
    }

    /// Appends which text each cycle of the presenter's picture shows at
    /// `now`: while nothing else changes, a frame is a function of them
    /// (``FrameComposer``'s frames already made).
    func appendShownTexts(at now: UInt64, to key: inout [Int]) {
        state.with { state in
            for operation in state.overlay {
                if let shown = operation.shownText(at: now) { key.append(shown) }
            }
        }
    }

    /// Gives a key to the view, first offering it to the presenter when it
    /// shows the outcome of a failure that a key may dismiss (drawn on the
    /// screen already), the key is not Esc and the view takes keys
    /// (`interactive`). One key a failure: the presenter's turn ends with
    /// it, used or not. True when one used it.
    func key(_ code: UInt32, interactive: Bool) -> Bool {
        if state.value.failureTurn == .shown && state.value.hasPresenter && interactive && code != PRESENTER_KEY_ESCAPE
        {
            state.value.failureTurn = .none
            let used = runtime.callEngine(default: false) { engine throws(PresenterFailure) in
                try engine.key(viewID, code: code)
            }
            state.with { $0.presenterDue = $0.hasPresenter }
            if used { return true }
        }
        return view.handleKey(code)
    }

    /// The presenter failed: nothing of it is drawn or called any more.
    func presenterGone() {
        state.value.hasPresenter = false
        state.value.presenterDue = false
        state.value.failureTurn = .none
        state.value.overlay = []
        state.value.overlayFrameRequest = nil
    }

    /// Tells the backend again about every interactor shown and still
    /// running (after the runtime moved to another backend).
    func announceShown() {
        for handle in state.value.active where handle.told.value.shown {
            guard let working = handle.told.value.message ?? handle.messages[.working] else { continue }
            runtime.announce(.started(action: handle.action, message: working))
        }
    }

    /// Ends every interactor still running (shutdown): shown ones get their
    /// hide with no message and a "cancelled" failure; nothing more is printed.
    func cancelAll() {
        let cancelled = InteractorError(code: 0, domain: "cancelled", message: "cancelled")
        for handle in state.value.active {
            _ = handle.markEnded()
            runtime.interactorEnded()
            if handle.told.value.shown {
                hook { engine throws(PresenterFailure) in
                    try engine.hide(viewID, message: nil, interactor: handle.snapshot, failure: cancelled)
                }
            }
        }
        state.value.active.removeAll()
    }
}
