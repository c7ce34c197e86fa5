import Testing
@testable import HostEngine
@testable import HostPlugins
@testable import HostSandbox

/// The wait for a presenter process's reply as a state machine
/// (`ReplyWait`): each message gives an action, and the state moves, with
/// no process, channel or clock. What the process then does is tested
/// through real processes in SandboxRuntimeTests.
@Suite struct ReplyWaitTests {
    static let report = ConfinementReport(
        entries: ConfinementReport.Layer.allCases.map { .init(layer: $0, state: .on, detail: "") })
    static let show = PresenterProcess.Pending(sequence: 4, hook: .show, budget: 0.25, sentAt: 0, isAttach: false)

    /// A wait whose process said hello, so that what follows is not its start.
    static func running(maxNotices: Int = 8) -> ReplyWait {
        var wait = ReplyWait(maxNotices: maxNotices)
        wait.started()
        _ = wait.receive(
            .notice(.hello(version: PresenterMessage.version, sandbox: report.encoded)), head: nil,
            isPastDeadline: { false }, isKnown: { _ in true }, hasView: { _ in true })
        return wait
    }

    static func log(_ presenterId: String?) -> PresenterMessage.Incoming {
        .notice(.log(PresenterLogEntry(level: .info, presenterId: presenterId, message: "hi")))
    }

    static func reply(_ sequence: UInt32, frames: [ViewID: UInt64] = [:]) -> PresenterMessage.Incoming {
        .reply(.init(sequence: sequence, result: .done, frameRequests: frames))
    }

    @Test func theHelloComesFirstSpeaksThisProtocolAndSaysItsSandbox() {
        let cases: [(PresenterMessage.Incoming, ReplyWait.Action)] = [
            (Self.log(nil), .violation(in: .start, .noHelloFirst)),
            (
                .notice(.hello(version: 99, sandbox: Self.report.encoded)),
                .violation(in: .start, .otherProtocolVersion(99, host: PresenterMessage.version))
            ),
            (
                .notice(.hello(version: PresenterMessage.version, sandbox: "nothing")),
                .violation(in: .start, .noSandboxReport)
            ),
            (.notice(.hello(version: PresenterMessage.version, sandbox: Self.report.encoded)), .hello(Self.report)),
        ]
        for (message, expected) in cases {
            var wait = ReplyWait(maxNotices: 8)
            wait.started()
            #expect(wait.blamed(Self.show) == .start)
            let action = wait.receive(
                message, head: Self.show, isPastDeadline: { false }, isKnown: { _ in true }, hasView: { _ in true })
            #expect(action == expected)
            #expect(wait.awaitingHello == (expected != .hello(Self.report)))
        }
        var wait = Self.running()
        #expect(wait.blamed(Self.show) == .show)
        let twice = wait.receive(
            .notice(.hello(version: PresenterMessage.version, sandbox: Self.report.encoded)), head: Self.show,
            isPastDeadline: { false }, isKnown: { _ in true }, hasView: { _ in true })
        #expect(twice == .violation(in: .show, .helloTwice))
    }

    /// Notices count until the next reply: one too many is a violation; one
    /// past the request's budget, a hang.
    @Test func noticesAreBoundedInNumberAndTimeAndAReplyResetsTheCount() {
        var wait = Self.running(maxNotices: 2)
        for _ in 0..<2 {
            let action = wait.receive(
                Self.log("p"), head: Self.show, isPastDeadline: { false }, isKnown: { _ in true },
                hasView: { _ in true })
            #expect(action == .log(PresenterLogEntry(level: .info, presenterId: "p", message: "hi")))
        }
        #expect(wait.notices == 2)
        let reply = wait.receive(
            Self.reply(4), head: Self.show, isPastDeadline: { true }, isKnown: { _ in true }, hasView: { _ in true })
        #expect(reply == .reply(.init(sequence: 4, result: .done, frameRequests: [:]), of: Self.show))
        #expect(wait.notices == 0)
        for _ in 0..<2 {
            _ = wait.receive(
                Self.log(nil), head: Self.show, isPastDeadline: { false }, isKnown: { _ in true },
                hasView: { _ in true })
        }
        let third = wait.receive(
            Self.log(nil), head: Self.show, isPastDeadline: { false }, isKnown: { _ in true }, hasView: { _ in true })
        #expect(third == .violation(in: .show, .tooManyNotices(limit: 2)))

        var late = Self.running()
        let action = late.receive(
            Self.log(nil), head: Self.show, isPastDeadline: { true }, isKnown: { _ in true }, hasView: { _ in true })
        #expect(action == .hung(in: .show))
    }

    /// What a message names (a presenter, a view, a reply's number) must be
    /// one the process was given or is due.
    @Test func aMessageNamesOnlyWhatTheProcessWasGiven() {
        let cases: [(PresenterMessage.Incoming, PresenterProcess.Pending?, ReplyWait.Action)] = [
            (Self.log("other"), Self.show, .violation(in: .show, .loggedAsAnotherPresenter)),
            (
                .notice(.element(view: 9, name: "e", operation: 1)), Self.show,
                .violation(in: .show, .elementOutsideHook(view: 9))
            ),
            (
                .notice(.element(view: 1, name: "e", operation: 1)), nil,
                .violation(in: nil, .elementOutsideHook(view: 1))
            ),
            (
                .notice(.element(view: 1, name: "e", operation: 1)), Self.show,
                .element(view: 1, name: "e", operation: 1)
            ),
            (Self.reply(5), Self.show, .violation(in: .show, .replyOutOfTurn(sent: 5, due: 4))),
            (Self.reply(1), nil, .violation(in: nil, .replyOutOfTurn(sent: 1, due: nil))),
            (
                Self.reply(4, frames: [9: 100]), Self.show,
                .violation(in: .show, .frameForUnknownView(9))
            ),
            (
                Self.reply(4, frames: [1: 100]), Self.show,
                .reply(.init(sequence: 4, result: .done, frameRequests: [1: 100]), of: Self.show)
            ),
        ]
        for (message, head, expected) in cases {
            var wait = Self.running()
            let action = wait.receive(
                message, head: head, isPastDeadline: { false }, isKnown: { $0 == "p" }, hasView: { $0 == 1 })
            #expect(action == expected)
        }
    }
}
