import HostPlugins
import HostSandbox

/// What the host does with each message its presenter process sends while
/// it waits for a reply: a state machine, as swift-nio's
/// `NIOAsyncWriter.StateMachine`. It keeps what the wait knows from one
/// message to the next (whether the hello is still due, how many notices
/// the request in flight has sent) and answers each message with an
/// ``Action`` that ``PresenterProcess/awaitReply(_:)`` performs: the
/// reading, the clock, the log and the stopping of the process are the
/// caller's. With no I/O here, every transition has a unit test of its own.
struct ReplyWait {
    /// The most log lines and element changes one request may bring: a hook
    /// that logs in a loop must not keep the host reading past its budget.
    let maxNotices: Int
    /// The process was started and has not said hello yet.
    private(set) var awaitingHello = false
    /// Log lines and element changes since the last reply.
    private(set) var notices = 0

    init(maxNotices: Int) {
        self.maxNotices = maxNotices
    }

    /// What the caller does with a message.
    enum Action: Equatable {
        /// The hello came: the process is under `sandbox`; its start is answered.
        case hello(ConfinementReport)
        /// A log line to pass on (its presenter, when it names none, is the
        /// caller's to fill in).
        case log(PresenterLogEntry)
        /// An element change of one of the process's views.
        case element(view: ViewID, name: String, operation: Int32)
        /// The reply to `request`, the oldest in flight: take that off the
        /// queue and check the result.
        case reply(PresenterMessage.Reply, of: PresenterProcess.Pending)
        /// The process broke the protocol in `hook`: stop it.
        case violation(in: Hook?, ProtocolViolation)
        /// A notice came past the budget of `hook`: stop the process as hung.
        case hung(in: Hook?)
    }

    /// A process was started: its hello must come first.
    mutating func started() {
        awaitingHello = true
    }

    /// The hook a failure while waiting is blamed on: the start until the
    /// hello came, then the oldest request's.
    func blamed(_ head: PresenterProcess.Pending?) -> Hook? {
        awaitingHello ? .start : head?.hook
    }

    /// What to do with `message`, `head` being the oldest request in flight.
    /// `isPastDeadline` says whether that request's budget is spent;
    /// `isKnown`, whether the process was given a presenter id; `hasView`,
    /// whether a view is attached.
    mutating func receive(
        _ message: PresenterMessage.Incoming, head: PresenterProcess.Pending?, isPastDeadline: () -> Bool,
        isKnown: (String) -> Bool, hasView: (ViewID) -> Bool
    ) -> Action {
        let hook = blamed(head)
        if awaitingHello {
            guard case .notice(.hello(let version, let report)) = message else {
                return .violation(in: .start, .noHelloFirst)
            }
            guard version == PresenterMessage.version else {
                return .violation(in: .start, .otherProtocolVersion(version, host: PresenterMessage.version))
            }
            guard let report = ConfinementReport(encoded: report) else {
                return .violation(in: .start, .noSandboxReport)
            }
            awaitingHello = false
            return .hello(report)
        }
        if case .notice = message {
            notices += 1
            guard notices <= maxNotices else {
                return .violation(in: hook, .tooManyNotices(limit: maxNotices))
            }
            guard !isPastDeadline() else { return .hung(in: hook) }
        }
        switch message {
        case .notice(.log(let entry)):
            guard entry.presenterId.map(isKnown) ?? true else {
                return .violation(in: hook, .loggedAsAnotherPresenter)
            }
            return .log(entry)
        case .notice(.element(let view, let name, let operation)):
            guard head != nil, hasView(view) else {
                return .violation(in: hook, .elementOutsideHook(view: view))
            }
            return .element(view: view, name: name, operation: operation)
        case .notice(.hello):
            return .violation(in: hook, .helloTwice)
        case .reply(let reply):
            guard let head, reply.sequence == head.sequence else {
                return .violation(in: hook, .replyOutOfTurn(sent: reply.sequence, due: head?.sequence))
            }
            notices = 0
            if let view = reply.frameRequests.keys.first(where: { !hasView($0) }) {
                return .violation(in: hook, .frameForUnknownView(view))
            }
            return .reply(reply, of: head)
        }
    }
}
