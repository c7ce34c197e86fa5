import Foundation
import HostRuntime
import PresenterHost
import PresenterHostTesting
import Testing

/// What stays of an outcome when the runtime shuts down keeping it (`run`,
/// `drive`): the presenter's last render, with `PRESENTER_VIEW_FINAL`, or
/// the host's own line. Real C presenters (Fixtures/plugins/final_look.c),
/// in this process and in a presenter process.
@Suite("the final look: what stays of an outcome")
struct FinalLookTests {
    /// The fixture, built once for the suite's process.
    static let folder: Result<URL, any Error> = Result {
        let folder = TestPaths.temporaryDirectory("final-look")
        try FixtureBuilder.compile(
            FixtureBuilder.sources.appendingPathComponent("final_look.c"),
            to: folder.appendingPathComponent("libfinal_look.so"))
        return folder
    }

    /// How the work ends.
    enum Ending {
        case success
        case failure(InteractorError)
    }

    /// What stays once an action of `presenter` with `messages` ended as
    /// `ending` and the runtime shut down `keepingOutcome`, on a backend
    /// of `cols` columns; and the last frame before.
    private func kept(
        _ presenter: String = "fixture.final-look", messages: ProgressMessages, ending: Ending = .success,
        cols: Int = 40, keepingOutcome: Bool = true, _ isolation: Isolation
    ) throws -> (kept: [String], lastFrame: [String]) {
        let registry = RegistryPipeline().load([SearchPathEntry(path: try Self.folder.get().path, origin: .flag)])
        let backend = TestBackend(cols: cols, rows: 5)
        let runtime = PresenterRuntime(
            registry: registry, backend: backend, clock: ManualClock(), isolation: isolation.runtime)
        let screenlet = try runtime.attach(TestView(presenter: presenter, messages: ["build": messages]))
        let handle = screenlet.perform(action: "build", interactorType: "CommandInteractor")
        switch ending {
        case .success: handle.succeed()
        case .failure(let error): handle.fail(error)
        }
        let lastFrame = runtime.sync { backend.lines }
        runtime.shutdown(keepingOutcome: keepingOutcome)
        #expect(backend.isFinished)
        return (backend.keptLines, lastFrame)
    }

    private static let exitStatus2 = InteractorError(code: 2, domain: "process", message: "exit status 2")

    @Test(arguments: Isolation.allCases)
    func thePresentersLastRenderIsWhatStays(isolation: Isolation) throws {
        let (kept, lastFrame) = try kept(messages: [.working: "Building", .success: "Built"], isolation)
        // Its outcome's look while the program went on was another one.
        #expect(lastFrame.first == "OUTCOME Built")
        #expect(kept == ["FINAL Built"])
    }

    @Test(arguments: Isolation.allCases)
    func theRowsFromTheTopThroughTheLastOneDrawnOnStay(isolation: Isolation) throws {
        let (kept, _) = try kept(messages: [.working: "Building", .success: "rows"], isolation)
        #expect(kept == ["FINAL top", "", "FINAL third"])
    }

    @Test(arguments: Isolation.allCases)
    func aPresenterThatDrawsNothingLastGetsTheHostsLine(isolation: Isolation) throws {
        let success = try kept(messages: [.working: "Building", .success: "blank"], isolation)
        #expect(success.kept == ["✔ blank"])
        let failure = try kept(
            messages: [.working: "Building", .failure: "blank"], ending: .failure(Self.exitStatus2), isolation)
        #expect(failure.kept == ["✖ blank: exit status 2"])
    }

    /// ABI 1.2 has no `PRESENTER_VIEW_FINAL`: such a presenter is not asked
    /// (it would draw "FINAL Built"), and its outcome's look ("OUTCOME
    /// Built") is not what stays either: the host writes its own line.
    @Test(arguments: Isolation.allCases)
    func aPresenterBuiltForAnOlderABIGetsTheHostsLine(isolation: Isolation) throws {
        let (kept, lastFrame) = try kept(
            "fixture.final-look-1-2", messages: [.working: "Building", .success: "Built"], isolation)
        #expect(lastFrame.first == "OUTCOME Built")
        #expect(kept == ["✔ Built"])
    }

    @Test(arguments: Isolation.allCases)
    func aFailureWithoutAMessageStaysWithItsReason(isolation: Isolation) throws {
        let (kept, _) = try kept(
            "fixture.final-look-1-2", messages: [.working: "Building"], ending: .failure(Self.exitStatus2), isolation)
        #expect(kept == ["✖ exit status 2"])
    }

    @Test(arguments: Isolation.allCases)
    func nothingStaysOfASuccessWithoutAMessage(isolation: Isolation) throws {
        let (kept, lastFrame) = try kept(messages: [.working: "Building"], isolation)
        #expect(lastFrame.first == "OUTCOME")
        #expect(kept == [])
    }

    @Test func nothingStaysWhenTheShutdownKeepsNoOutcome() throws {
        let (kept, _) = try kept(
            messages: [.working: "Building", .success: "Built"], keepingOutcome: false, .inProcess)
        #expect(kept == [])
    }

    /// A view with no column (a terminal one column wide: nothing is ever
    /// written in its last one) still says how it ended: the final look's
    /// view has one column.
    @Test(arguments: Isolation.allCases)
    func aViewWithNoColumnKeepsTheMark(isolation: Isolation) throws {
        let (succeeded, _) = try kept(
            "fixture.final-look-1-2", messages: [.working: "Building", .success: "Built"], cols: 0, isolation)
        #expect(succeeded == ["✔"])
        let (failed, _) = try kept(
            "fixture.final-look-1-2", messages: [.working: "Building", .failure: "Broke"],
            ending: .failure(Self.exitStatus2), cols: 0, isolation)
        #expect(failed == ["✖"])
    }

    /// A presenter that dies in its last render is gone as in any other
    /// hook; what stays is the host's line.
    @Test func aPresenterThatFailsInItsLastRenderGetsTheHostsLine() throws {
        let (kept, _) = try kept(messages: [.working: "Building", .success: "crash"], .presenterProcess)
        #expect(kept == ["✔ crash"])
    }

    /// The host's line, in every case, and in ASCII.
    @Test func theHostsLine() {
        #expect(OutcomeLine(message: "Built", error: nil)?.line(unicode: true) == "✔ Built")
        #expect(OutcomeLine(message: nil, error: nil) == nil)
        #expect(OutcomeLine(message: "", error: nil) == nil)
        #expect(OutcomeLine(message: "Built\nall 3", error: nil)?.line(unicode: false) == "[OK] Built - all 3")
        #expect(
            OutcomeLine(message: "Failed", error: Self.exitStatus2)?.line(unicode: true) == "✖ Failed: exit status 2")
        #expect(OutcomeLine(message: nil, error: Self.exitStatus2)?.line(unicode: false) == "[FAILED] exit status 2")
        let empty = InteractorError(code: 1, domain: "process", message: "")
        #expect(OutcomeLine(message: nil, error: empty)?.line(unicode: true) == "✖ failed")
        #expect(
            OutcomeLine(message: "URL cannot be empty", error: .validation("URL cannot be empty"))?.text
                == "URL cannot be empty")
    }
}
