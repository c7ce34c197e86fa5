import Foundation
import PresenterHost
import Testing
import PresenterHostTesting

// Exact-screen tests: the real plugin libraries run in the real runtime on a
// manual clock, drawing on a TestBackend (40 × 5 cells unless said). Each
// test asserts the lines of the view in every state of the presenter, with
// the presenter in this process and in a presenter process (the built
// binary): the picture is the same either way.

/// A screen for these tests: its presenter, its messages, and Add Bookmark's
/// two elements, which it draws on its first row when they are visible.
// Safe: only `let`s of its own; ScreenletView's contract (set up before attaching) covers the rest.
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
        _ presenter: String, _ isolation: Isolation, flags: ViewFlags, options: [String: String],
        elements: [String: ViewElement], folder: URL
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

    /// Nothing left on the screen and nothing animating, once the frames
    /// already asked for (one-shot, at most 80 ms ahead) have come.
    func isSettled() -> Bool {
        runtime.advance(by: 0.1)
        return runtime.waitUntilSettled(timeout: 2) && lines.allSatisfy(\.isEmpty)
    }
}

/// One thing a screen case does or checks. The checks carry the place in
/// the table they were written, where a failure is reported.
private enum Step: Sendable {
    /// Starts an action; the actions are numbered from 0 in the order they start.
    case perform(String, type: String)
    case advance(Double)
    case progress(action: Int, Double)
    case succeed(action: Int)
    case fail(action: Int, InteractorError)
    case key(UInt32)
    /// The whole screen is `lines`.
    case screen([String], SourceLocation)
    /// The screen's rows from `first` on are `lines`.
    case rows(from: Int, [String], SourceLocation)
    /// Row `row` ends with `suffix`.
    case rowEnds(Int, String, SourceLocation)
    /// Nothing left on the screen and nothing animating (see ``Screen/isSettled()``).
    case settled(SourceLocation)

    static func perform(_ action: String, _ type: String = "AddBookmarkInteractor") -> Step {
        .perform(action, type: type)
    }
    static func screen(_ lines: [String], at location: SourceLocation = #_sourceLocation) -> Step {
        .screen(lines, location)
    }
    static func row(_ row: Int, _ line: String, at location: SourceLocation = #_sourceLocation) -> Step {
        .rows(from: row, [line], location)
    }
    static func rows(from row: Int, _ lines: [String], at location: SourceLocation = #_sourceLocation) -> Step {
        .rows(from: row, lines, location)
    }
    static func rowEnds(_ row: Int, with suffix: String, at location: SourceLocation = #_sourceLocation) -> Step {
        .rowEnds(row, suffix, location)
    }
    static func settled(at location: SourceLocation = #_sourceLocation) -> Step { .settled(location) }
}

/// A presenter on a view of 40 × 5 and what happens there, step by step.
private struct ScreenCase: Sendable, CustomTestStringConvertible {
    var name: String
    var presenter: String
    var flags: ViewFlags = [.unicode, .animated]
    var options: [String: String] = [:]
    /// Add Bookmark's elements by name, with their `hidesWhenStopped`.
    var elements: [String: Bool] = [:]
    /// Load this library (e.g. "NetActivity") from a private copy, not the
    /// build's products: a plugin whose state is shared by every instance
    /// in the process.
    var privateCopy: String?
    var steps: [Step]

    var testDescription: String { "\(presenter): \(name)" }

    /// Runs the steps in a new runtime and checks each check.
    func run(_ isolation: Isolation) throws {
        var folder = TestPaths.products
        if let privateCopy {
            folder = TestPaths.temporaryDirectory(privateCopy)
            try FileManager.default.copyItem(
                at: TestPaths.library(privateCopy), to: folder.appendingPathComponent("lib\(privateCopy).so"))
        }
        let screen = try Screen(
            presenter, isolation, flags: flags, options: options,
            elements: elements.mapValues { ViewElement(hidesWhenStopped: $0) }, folder: folder)
        defer { screen.runtime.shutdown() }
        var actions: [InteractorHandle] = []
        for step in steps {
            switch step {
            case .perform(let action, let type):
                actions.append(screen.screenlet.perform(action: action, interactorType: type))
            case .advance(let seconds): screen.runtime.advance(by: seconds)
            case .progress(let action, let fraction): actions[action].reportProgress(fraction)
            case .succeed(let action): actions[action].succeed()
            case .fail(let action, let error): actions[action].fail(error)
            case .key(let key): screen.runtime.key(key)
            case .screen(let lines, let location):
                #expect(screen.lines == lines, sourceLocation: location)
            case .rows(let first, let lines, let location):
                let all = screen.lines
                #expect(Array(all[first..<first + lines.count]) == lines, "screen: \(all)", sourceLocation: location)
            case .rowEnds(let row, let suffix, let location):
                let line = screen.lines[row]
                #expect(line.hasSuffix(suffix), "row \(row): \(line)", sourceLocation: location)
            case .settled(let location):
                #expect(screen.isSettled(), "screen: \(screen.lines)", sourceLocation: location)
            }
        }
    }
}

private let blank = ["", "", "", "", ""]
private let http500 = InteractorError(code: 1, domain: "http", message: "HTTP 500")
/// Add Bookmark's button and activity indicator (which hides when stopped).
private let addBookmarkElements = ["get-title-button": false, "activity-indicator": true]

private let screenCases: [ScreenCase] = [
    ScreenCase(
        name: "working, then success", presenter: "mbhud",
        steps: [
            .perform("add-bookmark"),
            .screen([
                "",
                "        ╭──────────────────────╮",
                "        │ ⠋ Saving bookmark... │",
                "        ╰──────────────────────╯",
                "",
            ]),
            .advance(0.08),
            .row(2, "        │ ⠙ Saving bookmark... │"),
            .advance(0.42),  // past the minimum show time
            .succeed(action: 0),
            .screen([
                "",
                "         ╭───────────────────╮",
                "         │ ✔ Bookmark saved! │",
                "         ╰───────────────────╯",
                "",
            ]),
            .advance(1.649),
            .row(2, "         │ ✔ Bookmark saved! │"),
            .advance(0.001),
            .settled(),
        ]),
    ScreenCase(
        name: "a failure with the error text, held for failure-hold-ms", presenter: "mbhud",
        steps: [
            .perform("add-bookmark"),
            .advance(0.5),
            .fail(action: 0, http500),
            .screen([
                "   ╭───────────────────────────────╮",
                "   │ ✖ Could not save the bookmark │",
                "   │           HTTP 500            │",
                "   ╰───────────────────────────────╯",
                "",
            ]),
            .advance(2.999),
            .row(1, "   │ ✖ Could not save the bookmark │"),
            .advance(0.001),
            .settled(),
        ]),
    ScreenCase(
        name: "a failure waits for a key in an interactive view, Esc not being one it gets", presenter: "mbhud",
        flags: [.unicode, .animated, .interactive],
        steps: [
            .perform("add-bookmark"),
            .advance(0.5),
            .fail(action: 0, .validation("URL cannot be empty")),  // its own text replaces the failure message
            .advance(60),
            .screen([
                "",
                "       ╭───────────────────────╮",
                "       │ ✖ URL cannot be empty │",
                "       ╰───────────────────────╯",
                "",
            ]),
            .key(27),  // the view's: a screen leaves on it
            .advance(0.1),
            .row(2, "       │ ✖ URL cannot be empty │"),
            .key(13),
            .settled(),
        ]),
    ScreenCase(
        name: "a details line; no success message hides at once", presenter: "mbhud",
        steps: [
            .perform("sync"),
            .screen([
                "       ╭────────────────────────╮",
                "       │       ⠋ Syncing        │",
                "       │ This may take a moment │",
                "       ╰────────────────────────╯",
                "",
            ]),
            .advance(0.5),
            .succeed(action: 0),
            .settled(),
        ]),
    ScreenCase(
        name: "an empty message in ASCII", presenter: "mbhud", flags: [.animated],
        steps: [
            .perform("quiet"),
            .advance(0.08),
            .screen(["", "                 +---+", "                 | \\ |", "                 +---+", ""]),
        ]),
    ScreenCase(
        name: "determinate progress and a count of concurrent actions", presenter: "mbhud",
        steps: [
            .perform("upload"),
            .progress(action: 0, 0.5),
            .advance(0.05),
            .rows(
                from: 1,
                [
                    "     ╭───────────────────────────╮",
                    "     │ █████░░░░░  50% Uploading │",
                    "     ╰───────────────────────────╯",
                ]),
            .perform("add-bookmark"),
            .row(2, "   │ ⠋ Saving bookmark... (+1 more) │"),
            .succeed(action: 1),
            // Its outcome, while the upload goes on, for 1.5 s + 10 ms a character.
            .row(2, "    │ ✔ Bookmark saved! (+1 more) │"),
            .advance(1.65),
            .row(2, "     │ █████░░░░░  50% Uploading │"),
            .succeed(action: 0),
            .row(2, "             │ ✔ Uploaded │"),
        ]),
    ScreenCase(
        name: "grace-ms hides fast actions entirely", presenter: "mbhud", options: ["grace-ms": "300"],
        steps: [
            .perform("add-bookmark"),
            .screen(blank),
            .advance(0.2),
            .succeed(action: 0),
            .screen(blank),
            .advance(0.1),  // the grace time passes
            .screen(blank),
            .settled(),
        ]),
    ScreenCase(
        name: "the indicator at the top right while any action runs", presenter: "netactivity",
        // The plugin's counter is shared by every instance in the process.
        privateCopy: "NetActivity",
        steps: [
            .perform("add-bookmark"),
            .perform("get-title", "GetWebTitleInteractor"),
            .screen([String(repeating: " ", count: 39) + "⠹", "", "", "", ""]),
            .advance(0.05),  // the next frame, at the runtime's 20 fps cap
            .rowEnds(0, with: "⠸"),
            .succeed(action: 0),
            .rowEnds(0, with: "⠸"),
            .succeed(action: 1),
            .settled(),
        ]),
    ScreenCase(
        name: "the button swaps for the indicator; the HUD is inherited", presenter: "addbookmark",
        elements: addBookmarkElements,
        steps: [
            .screen(["[Get title]", "", "", "", ""]),
            .perform("get-title", "GetWebTitleInteractor"),
            .screen(["(busy)", "", "", "", ""]),  // no HUD for the title
            .succeed(action: 0),
            .screen(["[Get title]", "", "", "", ""]),
            .perform("add-bookmark"),
            .screen([
                "[Get title]",
                "        ╭──────────────────────╮",
                "        │ ⠋ Saving bookmark... │",
                "        ╰──────────────────────╯",
                "",
            ]),
            .advance(0.5),
            .succeed(action: 1),
            .row(2, "         │ ✔ Bookmark saved! │"),
            .advance(1.65),
            .screen(["[Get title]", "", "", "", ""]),
        ]),
    ScreenCase(
        name: "concurrent title fetches never hide each other", presenter: "addbookmark",
        elements: addBookmarkElements,
        steps: [
            .perform("get-title", "GetWebTitleInteractor"),
            .perform("get-title", "GetWebTitleInteractor"),
            .row(0, "(busy)"),
            .succeed(action: 0),
            .row(0, "(busy)"),  // the second is still in flight
            .fail(action: 1, InteractorError(code: 1, domain: "http", message: "HTTP 404")),
            .row(0, "[Get title]"),
        ]),
    ScreenCase(
        name: "a status line on the bottom row", presenter: "swift-example",
        steps: [
            .perform("add-bookmark"),
            .screen(["", "", "", "", "⠋ Saving bookmark..."]),
            .fail(action: 0, http500),
            .screen(["", "", "", "", "✖ Could not save the bookmark: HTTP 500"]),
            .advance(2),
            .settled(),
        ]),
]

@Suite struct PluginScreenTests {
    @Test(arguments: screenCases, Isolation.allCases)
    fileprivate func screen(_ screenCase: ScreenCase, _ isolation: Isolation) throws {
        try screenCase.run(isolation)
    }
}
