import HostEngine

/// What happened to an action, for backends that print lines instead of
/// drawing frames (``PlainBackend``). The runtime sends one `started` and one
/// `finished` for every interactor, on the presenter thread, in order.
public enum ProgressEvent: Equatable, Sendable {
    /// An interactor was shown; `message` is its working message. An
    /// interactor whose action has no working message is never shown, and
    /// gives neither event.
    case started(action: String, message: String)
    /// A shown interactor reported a new working message (one event per
    /// change; reports that come faster than the presenter thread may merge).
    case working(action: String, message: String)
    /// A shown interactor's fraction changed: 0...1, `nil` when unknown again.
    case progressed(action: String, fraction: Double?)
    /// A shown interactor ended; `message` is what hide received (the success or
    /// failure message, or a validation error's text), `nil` when none.
    /// `error` is `nil` on success.
    case finished(action: String, message: String?, error: InteractorError?)
}
