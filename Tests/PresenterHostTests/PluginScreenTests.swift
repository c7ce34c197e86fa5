import Foundation
import PresenterHost
import Testing

// Exact-screen tests: the real plugin libraries run in the real runtime on a
// manual clock, drawing on a TestBackend (40 × 5 cells unless said). Each
// test asserts the lines of the view in every state of the presenter, with
// the presenter in this process and in a presenter process (the built
// binary): the picture is the same either way.

/// Where a screen test runs its presenter.
enum Isolation: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inProcess = "in process", presenterProcess = "in a presenter process"
    var testDescription: String { rawValue }

    var runtime: PresenterRuntime.Isolation {
        switch self {
        case .inProcess: return .inProcess
        case .presenterProcess:
            // A generous budget: these tests are about pictures, and a loaded CI machine is slow.
            return .presenterProcess(PresenterProcess.Configuration(executable: TestPaths.binary.path, hookTimeout: 10))
        }
    }
}

/// A screen for these tests: its presenter, its messages, and Add Bookmark's
/// two elements, which it draws on its first row when they are visible.
private final class ScreenView: ScreenletView, @unchecked Sendable {
    let presenter: String

    init(_ presenter: String, elements: [String: ViewElement] = [:]) {
        self.presenter = presenter
        super.init(
            progressMessages: [
                "add-bookmark": [
                    .working: "Saving bookmark...", .success: "Bookmark saved!",
                    .failure: "Could not save the bookmark",
                ],
                "get-title": [.working: NoProgressMessage, .failure: "An error occurred retrieving the title"],
                "sync": [.working: "Syncing\nThis may take a moment"],
                "upload": [.working: "Uploading", .success: "Uploaded"],
                "quiet": [.working: NoProgressMessage],
            ], elements: elements)
    }

    override func createProgressPresenter() -> String { presenter }

    override func draw(in canvas: inout Canvas, at now: UInt64, flags: ViewFlags) -> UInt64? {
        if elements["get-title-button"]?.isVisible == true {
            canvas.drawText("[Get title]", col: 0, row: 0, maxColumns: 11)
        }
        if elements["activity-indicator"]?.isVisible == true {
            canvas.drawText("(busy)", col: 0, row: 0, maxColumns: 6)
        }
        return nil
    }
}

/// A runtime over the built plugins with one view attached.
private struct Screen {
    let runtime: PresenterRuntime
    let backend: TestBackend
    let screenlet: Screenlet

    /// `folder` holds the plugin libraries to load (by default the build's products).
    init(
        _ presenter: String, _ isolation: Isolation, flags: ViewFlags = [.unicode, .animated],
        options: [String: String] = [:],
        elements: [String: ViewElement] = [:], folder: URL = TestPaths.products
    ) throws {
        let registry = RegistryPipeline().load([SearchPathEntry(path: folder.path, origin: .flag)])
        backend = TestBackend(cols: 40, rows: 5, flags: flags)
        runtime = PresenterRuntime(
            registry: registry, backend: backend, options: options, clock: ManualClock(),
            isolation: isolation.runtime)
        screenlet = try runtime.attach(ScreenView(presenter, elements: elements))
    }

    /// The screen once everything asked so far was handled.
    var lines: [String] { runtime.sync { backend.lines } }

    func perform(_ action: String, _ type: String = "AddBookmarkInteractor") -> InteractorHandle {
        screenlet.perform(action: action, interactorType: type)
    }

    /// Nothing left on the screen and nothing animating, once the frames
    /// already asked for (one-shot, at most 80 ms ahead) have come.
    func isSettled() -> Bool {
        runtime.advance(by: 0.1)
        return runtime.waitUntilSettled(timeout: 2) && lines.allSatisfy(\.isEmpty)
    }
}

@Suite struct PluginScreenTests {
    private static let blank = ["", "", "", "", ""]

    @Test(arguments: Isolation.allCases)
    func mbhudWorkingThenSuccess(_ isolation: Isolation) throws {
        let screen = try Screen("mbhud", isolation)
        defer { screen.runtime.shutdown() }
        let action = screen.perform("add-bookmark")
        #expect(
            screen.lines == [
                "",
                "        ╭──────────────────────╮",
                "        │ ⠋ Saving bookmark... │",
                "        ╰──────────────────────╯",
                "",
            ])
        screen.runtime.advance(by: 0.08)
        #expect(screen.lines[2] == "        │ ⠙ Saving bookmark... │")
        screen.runtime.advance(by: 0.42)  // past the minimum show time
        action.succeed()
        #expect(
            screen.lines == [
                "",
                "         ╭───────────────────╮",
                "         │ ✔ Bookmark saved! │",
                "         ╰───────────────────╯",
                "",
            ])
        screen.runtime.advance(by: 1.649)
        #expect(screen.lines[2] == "         │ ✔ Bookmark saved! │")
        screen.runtime.advance(by: 0.001)
        #expect(screen.isSettled())
    }

    @Test(arguments: Isolation.allCases)
    func mbhudFailureWithTheErrorTextHeldForFailureHoldTime(_ isolation: Isolation) throws {
        let screen = try Screen("mbhud", isolation)
        defer { screen.runtime.shutdown() }
        let action = screen.perform("add-bookmark")
        screen.runtime.advance(by: 0.5)
        action.fail(InteractorError(code: 1, domain: "http", message: "HTTP 500"))
        #expect(
            screen.lines == [
                "   ╭───────────────────────────────╮",
                "   │ ✖ Could not save the bookmark │",
                "   │           HTTP 500            │",
                "   ╰───────────────────────────────╯",
                "",
            ])
        screen.runtime.advance(by: 2.999)
        #expect(screen.lines[1] == "   │ ✖ Could not save the bookmark │")
        screen.runtime.advance(by: 0.001)
        #expect(screen.isSettled())
    }

    @Test(arguments: Isolation.allCases)
    func mbhudFailureWaitsForAKeyInAnInteractiveView(_ isolation: Isolation) throws {
        let screen = try Screen("mbhud", isolation, flags: [.unicode, .animated, .interactive])
        defer { screen.runtime.shutdown() }
        let action = screen.perform("add-bookmark")
        screen.runtime.advance(by: 0.5)
        action.fail(.validation("URL cannot be empty"))  // its own text replaces the failure message
        screen.runtime.advance(by: 60)
        #expect(
            screen.lines == [
                "",
                "       ╭───────────────────────╮",
                "       │ ✖ URL cannot be empty │",
                "       ╰───────────────────────╯",
                "",
            ])
        screen.runtime.key(13)
        #expect(screen.isSettled())
    }

    @Test(arguments: Isolation.allCases)
    func mbhudDetailsLineEmptyMessageAndAscii(_ isolation: Isolation) throws {
        let screen = try Screen("mbhud", isolation)
        defer { screen.runtime.shutdown() }
        let sync = screen.perform("sync")
        #expect(
            screen.lines == [
                "       ╭────────────────────────╮",
                "       │       ⠋ Syncing        │",
                "       │ This may take a moment │",
                "       ╰────────────────────────╯",
                "",
            ])
        screen.runtime.advance(by: 0.5)
        sync.succeed()
        #expect(screen.isSettled())  // no success message: hides at once

        let ascii = try Screen("mbhud", isolation, flags: [.animated])
        defer { ascii.runtime.shutdown() }
        _ = ascii.perform("quiet")
        ascii.runtime.advance(by: 0.08)
        #expect(ascii.lines == ["", "                 +---+", "                 | \\ |", "                 +---+", ""])
    }

    @Test(arguments: Isolation.allCases)
    func mbhudDeterminateProgressAndConcurrentCount(_ isolation: Isolation) throws {
        let screen = try Screen("mbhud", isolation)
        defer { screen.runtime.shutdown() }
        let upload = screen.perform("upload")
        upload.reportProgress(0.5)
        screen.runtime.advance(by: 0.05)
        #expect(
            screen.lines[1...3] == [
                "     ╭───────────────────────────╮",
                "     │ █████░░░░░  50% Uploading │",
                "     ╰───────────────────────────╯",
            ])
        let save = screen.perform("add-bookmark")
        #expect(screen.lines[2] == "   │ ⠋ Saving bookmark... (+1 more) │")
        save.succeed()
        #expect(screen.lines[2] == "     │ █████░░░░░  50% Uploading │")
        screen.runtime.advance(by: 0.5)  // past the minimum show time
        upload.succeed()
        #expect(screen.lines[2] == "             │ ✔ Uploaded │")
    }

    @Test(arguments: Isolation.allCases)
    func mbhudGraceTimeHidesFastActionsEntirely(_ isolation: Isolation) throws {
        let screen = try Screen("mbhud", isolation, options: ["grace-ms": "300"])
        defer { screen.runtime.shutdown() }
        let action = screen.perform("add-bookmark")
        #expect(screen.lines == Self.blank)
        screen.runtime.advance(by: 0.2)
        action.succeed()
        #expect(screen.lines == Self.blank)
        screen.runtime.advance(by: 0.1)  // the grace time passes
        #expect(screen.lines == Self.blank)
        #expect(screen.isSettled())
    }

    @Test(arguments: Isolation.allCases)
    func netActivityIndicatorAtTopRightWhileAnyActionRuns(_ isolation: Isolation) throws {
        // A private copy: the plugin's counter is shared by every instance in the process.
        let folder = TestPaths.temporaryDirectory("netactivity")
        try FileManager.default.copyItem(
            at: TestPaths.library("NetActivity"),
            to: folder.appendingPathComponent("libNetActivity.so"))
        let screen = try Screen("netactivity", isolation, folder: folder)
        defer { screen.runtime.shutdown() }
        let first = screen.perform("add-bookmark")
        let second = screen.perform("get-title", "GetWebTitleInteractor")
        #expect(screen.lines == [String(repeating: " ", count: 39) + "⠹", "", "", "", ""])
        screen.runtime.advance(by: 0.05)  // the next frame, at the runtime's 20 fps cap
        #expect(screen.lines[0].hasSuffix("⠸"))
        first.succeed()
        #expect(screen.lines[0].hasSuffix("⠸"))
        second.succeed()
        #expect(screen.isSettled())
    }

    @Test(arguments: Isolation.allCases)
    func addBookmarkSwapsTheButtonForTheIndicatorAndInheritsTheHUD(_ isolation: Isolation) throws {
        let elements = [
            "get-title-button": ViewElement(),
            "activity-indicator": ViewElement(hidesWhenStopped: true),
        ]
        let screen = try Screen("addbookmark", isolation, elements: elements)
        defer { screen.runtime.shutdown() }
        #expect(screen.lines == ["[Get title]", "", "", "", ""])
        let title = screen.perform("get-title", "GetWebTitleInteractor")
        #expect(screen.lines == ["(busy)", "", "", "", ""])  // no HUD for the title
        title.succeed()
        #expect(screen.lines == ["[Get title]", "", "", "", ""])

        let save = screen.perform("add-bookmark")
        #expect(
            screen.lines == [
                "[Get title]",
                "        ╭──────────────────────╮",
                "        │ ⠋ Saving bookmark... │",
                "        ╰──────────────────────╯",
                "",
            ])
        screen.runtime.advance(by: 0.5)
        save.succeed()
        #expect(screen.lines[2] == "         │ ✔ Bookmark saved! │")
        screen.runtime.advance(by: 1.65)
        #expect(screen.lines == ["[Get title]", "", "", "", ""])
    }

    @Test(arguments: Isolation.allCases)
    func addBookmarkConcurrentTitleFetchesNeverHideEachOther(_ isolation: Isolation) throws {
        let elements = [
            "get-title-button": ViewElement(),
            "activity-indicator": ViewElement(hidesWhenStopped: true),
        ]
        let screen = try Screen("addbookmark", isolation, elements: elements)
        defer { screen.runtime.shutdown() }
        let first = screen.perform("get-title", "GetWebTitleInteractor")
        let second = screen.perform("get-title", "GetWebTitleInteractor")
        #expect(screen.lines[0] == "(busy)")
        first.succeed()
        #expect(screen.lines[0] == "(busy)")  // the second is still in flight
        second.fail(InteractorError(code: 1, domain: "http", message: "HTTP 404"))
        #expect(screen.lines[0] == "[Get title]")
    }

    @Test(arguments: Isolation.allCases)
    func swiftExampleStatusLineOnTheBottomRow(_ isolation: Isolation) throws {
        let screen = try Screen("swift-example", isolation)
        defer { screen.runtime.shutdown() }
        let action = screen.perform("add-bookmark")
        #expect(screen.lines == ["", "", "", "", "⠋ Saving bookmark..."])
        action.fail(InteractorError(code: 1, domain: "http", message: "HTTP 500"))
        #expect(screen.lines == ["", "", "", "", "✖ Could not save the bookmark: HTTP 500"])
        screen.runtime.advance(by: 2)
        #expect(screen.isSettled())
    }
}
