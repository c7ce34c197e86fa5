/// Why the runtime refused to attach a view.
public enum RuntimeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No loaded presenter has this id (or its extension chain is broken).
    case unknownPresenter(id: String)
    /// A presenter's create hook failed; `message` is what it passed to
    /// set_error, if anything. `presenterId` is the one that failed, which
    /// may be a base of the presenter asked for.
    case createFailed(presenterId: String, status: Int32, message: String?)
    /// The runtime was shut down.
    case shutDown

    /// One line for the user.
    public var description: String {
        switch self {
        case .unknownPresenter(let id):
            return "no presenter '\(id)' is installed; `presenter-host --list` shows the installed ones"
        case .createFailed(let id, let status, let message):
            let reason = message.map { $0.isEmpty ? "status \(status)" : $0 } ?? "create returned status \(status)"
            return "presenter '\(id)' could not start: \(reason)"
        case .shutDown:
            return "the presenter runtime was shut down"
        }
    }
}
