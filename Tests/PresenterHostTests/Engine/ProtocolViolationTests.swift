@testable import HostEngine
import Testing

/// ``ProtocolViolation``: what a presenter process broke is a value; its
/// words, the same as when they were built where it was found, come from
/// `description` alone (and reach the user after "broke the presenter
/// protocol in HOOK: ").
@Suite("protocol violations as data, and their words")
struct ProtocolViolationTests {
    @Test(arguments: [
        (ProtocolViolation.malformedMessage("an unknown message"), "an unknown message"),
        (.noHelloFirst, "did not say hello first"),
        (.otherProtocolVersion(99, host: 3), "speaks presenter protocol 99, this host 3"),
        (.noSandboxReport, "did not say which sandbox it is under"),
        (.helloTwice, "said hello twice"),
        (.tooManyNotices(limit: 2), "sent more than 2 log lines and element changes in one hook"),
        (.loggedAsAnotherPresenter, "logged as a presenter it was not given"),
        (.elementOutsideHook(view: 9), "changed an element of view 9 outside a hook of that view"),
        (.replyOutOfTurn(sent: 5, due: 4), "sent reply 5 when 4 was due"),
        (.replyOutOfTurn(sent: 1, due: nil), "sent reply 1 when none was due"),
        (.frameForUnknownView(9), "asked for a frame for view 9, which it does not have"),
        (.wrongAnswer(to: .render, expected: .drawing), "answered render with something else than a drawing"),
        (.wrongAnswer(to: .key, expected: .yesOrNo), "answered key with something else than yes or no"),
        (.wrongAnswer(to: .show, expected: .status), "answered show with something else than a status"),
        (.wrongAnswer(to: nil, expected: .done), "answered with something else than done"),
        (.wrongAnswer(to: .load, expected: .handles), "answered load with something else than the handles asked for"),
        (.tooManyDrawOperations(count: 5000, limit: 4096), "drew 5000 things, more than 4096"),
        (.textTooLong(bytes: 70000, limit: 65536), "drew a text of 70000 bytes, more than 65536"),
        (.unknownPresenter, "named a presenter it was not given"),
        (.unaskedOutcome, "answered for a hook or presenter it was not asked about"),
        (.spokeUnasked, "spoke when nothing was asked"),
        (.closedConnection, "closed its connection to the host"),
    ])
    func words(violation: ProtocolViolation, words: String) {
        #expect(violation.description == words)
    }

    @Test func theFailureSaysThemAfterThePresenterAndTheHook() {
        let failure = PresenterFailure(
            presenterId: "tp-bar", hook: .render,
            reason: .protocolViolation(.tooManyDrawOperations(count: 5000, limit: 4096)))
        #expect(
            failure.description
                == "presenter 'tp-bar' broke the presenter protocol in render: drew 5000 things, more than 4096")
    }
}
