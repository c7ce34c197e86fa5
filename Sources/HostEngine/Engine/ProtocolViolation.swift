/// What a presenter process did that the presenter protocol does not allow,
/// as data (``PresenterFailure/Reason/protocolViolation(_:)``): a caller
/// tells one from another by its case, not by its words, which are
/// ``description``'s alone. Every value in it was counted or checked by the
/// host; nothing the process sent is carried as text.
public enum ProtocolViolation: Equatable, Sendable, CustomStringConvertible {
    /// A reply the host expects to a hook, named for what it says.
    public enum Answer: String, Equatable, Sendable {
        /// A start-up request's, or any hook's once it is not one that answers.
        case done
        /// render's.
        case drawing = "a drawing"
        /// key's.
        case yesOrNo = "yes or no"
        /// A hook's that returns a status (show, hide, progress, ...).
        case status = "a status"
        /// load's: a handle for each presenter asked for, as the host numbered them.
        case handles = "the handles asked for"
    }

    /// A message that could not be read (the host's words for what is
    /// wrong with it: its size, an unknown kind, bytes past its end).
    case malformedMessage(String)
    /// The first message was not the hello.
    case noHelloFirst
    /// The hello named another version of the protocol.
    case otherProtocolVersion(UInt32, host: UInt32)
    /// The hello did not carry a sandbox report the host could read.
    case noSandboxReport
    /// A second hello.
    case helloTwice
    /// More log lines and element changes in one hook than the budget.
    case tooManyNotices(limit: Int)
    /// A log line under a presenter id the process was not given.
    case loggedAsAnotherPresenter
    /// An element change of `view` outside a hook of that view.
    case elementOutsideHook(view: UInt32)
    /// A reply out of turn: `sent` when `due` was (nil: none was).
    case replyOutOfTurn(sent: UInt32, due: UInt32?)
    /// A frame asked for a view the process does not have.
    case frameForUnknownView(UInt32)
    /// A reply of another kind than the hook's (`hook` nil: any hook, `done` expected).
    case wrongAnswer(to: Hook?, expected: Answer)
    /// A drawing of more operations than the limit.
    case tooManyDrawOperations(count: Int, limit: Int)
    /// A drawn text longer than the limit, in bytes.
    case textTooLong(bytes: Int, limit: Int)
    /// A failed create named a presenter the process was not given.
    case unknownPresenter
    /// An outcome for a hook or presenter the process was not asked about.
    case unaskedOutcome
    /// A message when nothing was asked.
    case spokeUnasked
    /// The process closed its channel and did not end.
    case closedConnection

    /// The words after "broke the presenter protocol: ".
    public var description: String {
        switch self {
        case .malformedMessage(let detail): detail
        case .noHelloFirst: "did not say hello first"
        case .otherProtocolVersion(let version, let host): "speaks presenter protocol \(version), this host \(host)"
        case .noSandboxReport: "did not say which sandbox it is under"
        case .helloTwice: "said hello twice"
        case .tooManyNotices(let limit): "sent more than \(limit) log lines and element changes in one hook"
        case .loggedAsAnotherPresenter: "logged as a presenter it was not given"
        case .elementOutsideHook(let view): "changed an element of view \(view) outside a hook of that view"
        case .replyOutOfTurn(let sent, let due): "sent reply \(sent) when \(due.map(String.init) ?? "none") was due"
        case .frameForUnknownView(let view): "asked for a frame for view \(view), which it does not have"
        case .wrongAnswer(nil, .done): "answered with something else than done"
        case .wrongAnswer(let hook, let expected):
            "answered \(hook?.rawValue ?? "a hook") with something else than \(expected.rawValue)"
        case .tooManyDrawOperations(let count, let limit): "drew \(count) things, more than \(limit)"
        case .textTooLong(let bytes, let limit): "drew a text of \(bytes) bytes, more than \(limit)"
        case .unknownPresenter: "named a presenter it was not given"
        case .unaskedOutcome: "answered for a hook or presenter it was not asked about"
        case .spokeUnasked: "spoke when nothing was asked"
        case .closedConnection: "closed its connection to the host"
        }
    }
}
