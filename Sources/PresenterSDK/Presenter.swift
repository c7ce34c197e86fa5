import PresenterABI

/// A presenter written in Swift: one instance per view that uses it.
///
/// Conform a class, describe it in ``info``, implement the hooks it lists in
/// ``PresenterInfo/hooks`` and export it with ``PresenterExport``:
///
/// ```swift
/// final class Hello: Presenter {
///     static let info = PresenterInfo(id: "hello", name: "Hello", version: "1.0.0",
///                                     hooks: [.show, .hide, .render])
///     let host: Host
///     init(host: Host) { self.host = host }
///     func show(view: View, message: String, interactor: InteractorInfo) throws { ... }
///     ...
/// }
///
/// @c public func presenter_plugin_descriptor(_ index: UInt32) -> UnsafePointer<presenter_descriptor>? {
///     PresenterExport.descriptor(at: index, of: [Hello.self])
/// }
/// ```
///
/// The host calls every method on one thread, one at a time. A hook must not
/// block, and must not keep a ``View`` past the call. Errors thrown from a hook
/// become a status code and an error message for the host; nothing is thrown
/// across the C boundary.
///
/// Every hook has a default that calls the base presenter (the one named by
/// ``PresenterInfo/extends``), so a hook left out of ``PresenterInfo/hooks``
/// and a hook that keeps its default behave the same.
///
/// The type itself (not its instances) may be used from any thread: the
/// export table keeps it behind a lock, hence `SendableMetatype`.
public protocol Presenter: AnyObject, SendableMetatype {
    /// What the descriptor declares: id, name, capabilities, implemented hooks.
    static var info: PresenterInfo { get }

    /// The host services of this instance; valid until the instance is freed.
    var host: Host { get }

    /// Creates the instance for one view (the `create` hook). Read options
    /// here; throw to refuse (for example a malformed option).
    init(host: Host) throws

    /// An interactor started; `message` is its working message ("" means the
    /// indicator without text). Called at most once per interactor.
    func show(view: View, message: String, interactor: InteractorInfo) throws

    /// An interactor ended: once for each interactor that was shown. `message`
    /// is the success or failure message, or `nil` to hide at once; `failure`
    /// is `nil` on success.
    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws

    /// A shown interactor reported a new ``InteractorInfo/progress``.
    func progress(view: View, interactor: InteractorInfo) throws

    /// Paints the current state; the host cleared the view's overlay first, so
    /// draw everything that shows. `now` is the frame time in nanoseconds on the
    /// clock of ``Host/now``. Ask for the next frame with ``Host/requestFrame(at:)``.
    /// When `view.flags.contains(.final)` it is the view's last render and
    /// what it draws stays: draw the outcome of the last hide as it should
    /// stay, in few rows from the top (see ``View/Flags/final``).
    func render(view: View, now: UInt64)

    /// A key was pressed while a failure the presenter shows may wait for
    /// one (the host offers one key a failure in an interactive view, never
    /// Escape: see the key hook in presenter_abi.h): a Unicode code point,
    /// 13 for Enter. Return `true` when the presenter used it.
    func key(_ key: UInt32, view: View) -> Bool
}

extension Presenter {
    /// Calls the base presenter's show (see ``Host/baseShow(view:message:interactor:)``).
    public func show(view: View, message: String, interactor: InteractorInfo) throws {
        try host.baseShow(view: view, message: message, interactor: interactor)
    }

    /// Calls the base presenter's hide (see ``Host/baseHide(view:message:interactor:failure:)``).
    public func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        try host.baseHide(view: view, message: message, interactor: interactor, failure: failure)
    }

    /// Calls the base presenter's progress (see ``Host/baseProgress(view:interactor:)``).
    public func progress(view: View, interactor: InteractorInfo) throws {
        try host.baseProgress(view: view, interactor: interactor)
    }

    /// Calls the base presenter's render (see ``Host/baseRender(view:now:)``).
    public func render(view: View, now: UInt64) {
        host.baseRender(view: view, now: now)
    }

    /// Calls the base presenter's key (see ``Host/baseKey(_:view:)``).
    public func key(_ key: UInt32, view: View) -> Bool {
        host.baseKey(key, view: view)
    }
}
