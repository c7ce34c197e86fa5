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
public final class Screenlet: @unchecked Sendable {
    /// The view.
    public let view: ScreenletView
    /// The id of its presenter (what the view's `createProgressPresenter` chose).
    public let presenterId: String
    let runtime: PresenterRuntime

    // Presenter thread only, from here on.
    /// The top instance of the chain (set by the runtime right after init).
    var top: PresenterInstance!
    lazy var viewHandle = PresenterViewHandle(screenlet: self)
    /// Interactors started and not yet ended, in start order.
    private var active: [InteractorHandle] = []
    /// When the view asked for its next frame (``ScreenletView/draw(in:at:flags:)``).
    var viewFrameRequest: UInt64?

    init(view: ScreenletView, presenterId: String, runtime: PresenterRuntime) {
        self.view = view
        self.presenterId = presenterId
        self.runtime = runtime
    }

    /// Starts an interactor of `interactorType` performing `action` (any
    /// thread): the view's messages are read now, the presenter is told on
    /// its thread. End the returned handle when the work is done.
    public func perform(action: String, interactorType: String) -> InteractorHandle {
        let table = view.progressMessages
        let messages = table[action] ?? table[ScreenletView.defaultAction] ?? [:]
        let handle = InteractorHandle(action: action, interactorType: interactorType, messages: messages, screenlet: self)
        if !runtime.enqueue({ [self] in started(handle) }) { _ = handle.markEnded() }
        return handle
    }

    /// Asks for a frame soon (any thread): the view's own content changed.
    public func setNeedsDisplay() {
        runtime.enqueue { [self] in runtime.needsRender = true }
    }

    // MARK: - Presenter thread

    private func started(_ handle: InteractorHandle) {
        active.append(handle)
        runtime.inFlight += 1
        // No working message: neither show nor hide, and no plain lines either.
        guard let working = handle.messages[.working] else { return }
        runtime.backend.event(.started(action: handle.action, message: working))
        handle.shown = true
        let outcome = viewHandle.during(.hook) { view in
            working.withCString { message in handle.withInteractor { top.show(view, message, $0) } }
        }
        runtime.report(outcome)
        runtime.needsRender = true
    }

    func progressed(_ handle: InteractorHandle) {
        handle.progressDelivered()
        guard handle.shown, active.contains(where: { $0 === handle }) else { return }
        let outcome = viewHandle.during(.hook) { view in handle.withInteractor { top.progress(view, $0) } }
        runtime.report(outcome)
        runtime.requestCappedFrame()
    }

    func ended(_ handle: InteractorHandle, error: InteractorError?) {
        guard let index = active.firstIndex(where: { $0 === handle }) else { return }
        active.remove(at: index)
        runtime.inFlight -= 1
        let message = error.flatMap { $0.isValidation ? $0.message : nil }
            ?? handle.messages[error == nil ? .success : .failure]
        guard handle.shown else { return }
        runtime.report(hide(handle, message: message, error: error))
        runtime.needsRender = true
        runtime.backend.event(.finished(action: handle.action, message: message, error: error))
    }

    private func hide(_ handle: InteractorHandle, message: String?, error: InteractorError?) -> PresenterInstance.Outcome {
        viewHandle.during(.hook) { view in
            withOptionalCString(message) { message in
                handle.withInteractor { interactor in
                    guard let error else { return top.hide(view, message, interactor, nil) }
                    return error.domain.withCString { domain in
                        error.message.withCString { text in
                            var failure = presenter_failure(struct_size: UInt32(MemoryLayout<presenter_failure>.size),
                                                            reserved: 0, code: error.code, domain: domain, message: text)
                            return top.hide(view, message, interactor, &failure)
                        }
                    }
                }
            }
        }
    }

    /// Paints the view, then its presenter over it.
    func render(at now: UInt64, flags: ViewFlags) {
        if let next = view.draw(in: &runtime.canvas, at: now, flags: flags) {
            viewFrameRequest = min(viewFrameRequest ?? next, next)
        }
        viewHandle.during(.render) { top.render($0, now) }
    }

    /// Offers a key to the presenter, then to the view; true when one used it.
    func key(_ code: UInt32) -> Bool {
        if viewHandle.during(.hook, { top.key($0, code) }) != 0 { return true }
        return view.handleKey(code)
    }

    /// Ends every interactor still running (shutdown): shown ones get their
    /// hide with no message and a "cancelled" failure; nothing more is printed.
    func cancelAll() {
        let cancelled = InteractorError(code: 0, domain: "cancelled", message: "cancelled")
        for handle in active {
            _ = handle.markEnded()
            runtime.inFlight -= 1
            if handle.shown { runtime.report(hide(handle, message: nil, error: cancelled)) }
        }
        active.removeAll()
    }

    /// Destroys the chain: this presenter's instance first, then its bases.
    func destroy() {
        for instance in top.chain { instance.destroy() }
    }
}

/// Calls `body` with `text` as a C string, or with NULL.
func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString(body)
}
