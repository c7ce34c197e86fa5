import Foundation
import PresenterHost
import PresenterHostTesting
import Testing

/// `hide`'s message and `failure->message`: when the message already is the
/// failure's text (a validation error), the presenter gets the failure's
/// text as "", so a presenter that shows both says it once. A real C
/// presenter that draws "MESSAGE - FAILURE" (Fixtures/plugins/both_messages.c),
/// in this process and in a presenter process.
@Suite("hide: a failure's text that the message already says is not repeated")
struct HideMessageTests {
    /// The fixture, built once for the suite's process.
    static let folder: Result<URL, any Error> = Result {
        let folder = TestPaths.temporaryDirectory("both-messages")
        try FixtureBuilder.compile(
            FixtureBuilder.sources.appendingPathComponent("both_messages.c"),
            to: folder.appendingPathComponent("libboth_messages.so"))
        return folder
    }

    /// The first row of the screen once `error` ended an "add-bookmark" action.
    private func shown(after error: InteractorError, message: String? = nil, _ isolation: Isolation) throws -> String {
        let registry = RegistryPipeline().load([SearchPathEntry(path: try Self.folder.get().path, origin: .flag)])
        let backend = TestBackend(cols: 60, rows: 3)
        let runtime = PresenterRuntime(
            registry: registry, backend: backend, clock: ManualClock(), isolation: isolation.runtime)
        defer { runtime.shutdown() }
        let screenlet = try runtime.attach(
            TestView(
                presenter: "fixture.both-messages",
                messages: ["add-bookmark": [.working: "Saving bookmark...", .failure: "Could not save the bookmark"]]))
        let handle = screenlet.perform(action: "add-bookmark", interactorType: "AddBookmarkInteractor")
        if let message { handle.fail(error, message: message) } else { handle.fail(error) }
        return runtime.sync { backend.lines[0] }
    }

    @Test(arguments: Isolation.allCases)
    func aValidationFailureIsShownOnce(isolation: Isolation) throws {
        #expect(try shown(after: .validation("URL cannot be empty"), isolation) == "URL cannot be empty")
    }

    @Test(arguments: Isolation.allCases)
    func aFailureWhoseTextAddsToTheMessageKeepsIt(isolation: Isolation) throws {
        let error = InteractorError(code: 7, domain: "http", message: "HTTP 500")
        #expect(try shown(after: error, isolation) == "Could not save the bookmark - HTTP 500")
    }

    @Test(arguments: Isolation.allCases)
    func aReplacementMessageThatIsTheFailuresTextIsShownOnce(isolation: Isolation) throws {
        // drive's {"fail": id, "message": M, "reason": M}, say.
        let error = InteractorError(code: 1, domain: "driver", message: "disk full")
        #expect(try shown(after: error, message: "disk full", isolation) == "disk full")
    }
}
