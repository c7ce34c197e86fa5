import Foundation
@testable import HostText
@testable import HostPlugins
@testable import HostEngine
@testable import HostRuntime
@testable import HostCommandLine
import PresenterHostTesting
import Synchronization
import Testing

/// The Add Bookmark screen's view with its real presenter (addbookmark,
/// over mbhud), in this process and in a presenter process, on a backend
/// that keeps every frame: where the HUD goes, and that the status line
/// and the HUD say the same thing in every frame.
@Suite("Add Bookmark view: the HUD below the buttons, the status line in step with it")
struct AddBookmarkViewTests {
    /// A terminal-sized backend that keeps every frame presented.
    final class Frames: RenderBackend, Sendable {
        private let kept = Mutex<[[String]]>([])
        let size: (cols: Int, rows: Int)
        init(cols: Int, rows: Int) { size = (cols, rows) }
        var flags: ViewFlags { [.unicode, .animated, .interactive] }
        func present(_ canvas: Canvas) { kept.withLock { $0.append(canvas.lines()) } }
        func event(_ event: ProgressEvent) {}
        func printAbove(_ text: String) {}
        func finish() {}
        var all: [[String]] { kept.withLock { $0 } }
    }

    struct Screen {
        let runtime: PresenterRuntime
        let frames: Frames
        let screenlet: Screenlet
        let view: AddBookmarkView

        /// The screen as AddBookmarkScreen runs it: its presenter options
        /// (from add-bookmark's, with its 0.5 s minimum show) and rows.
        init(_ isolation: Isolation, cols: Int = 80, rows: Int = 24) throws {
            let registry = RegistryPipeline().load([SearchPathEntry(path: TestPaths.products.path, origin: .flag)])
            frames = Frames(cols: cols, rows: rows)
            runtime = PresenterRuntime(
                registry: registry, backend: frames,
                options: AddBookmarkScreen.presenterOptions([
                    "failure-hold-ms": "3000", "outcome-limit-ms": "5000", "min-show-ms": "500",
                ]),
                clock: ManualClock(), presenterRows: { AddBookmarkView.presenterRows(forRows: $0) },
                isolation: isolation.runtime)
            view = AddBookmarkView(form: BookmarkForm(url: "example.com", title: "Example"), layout: .form)
            screenlet = try runtime.attach(view)
        }

        var lines: [String] { runtime.sync { frames.all.last ?? [] } }
    }

    /// The rows of the ADD BOOKMARK button: its label row, and the border under it.
    private func button(in lines: [String]) -> (label: Int, bottom: String)? {
        guard let label = lines.firstIndex(where: { $0.contains("ADD BOOKMARK") }), label + 1 < lines.count else {
            return nil
        }
        return (label, lines[label + 1])
    }

    @Test(arguments: Isolation.allCases)
    func theHUDIsDrawnBelowTheButtonAndNeverOverIt(isolation: Isolation) throws {
        let screen = try Screen(isolation)
        defer { screen.runtime.shutdown() }
        let save = screen.screenlet.perform(action: AddBookmarkView.addAction, interactorType: "AddBookmarkInteractor")
        let lines = screen.lines
        let (label, bottom) = try #require(button(in: lines))
        #expect(bottom == "  ╰" + String(repeating: "─", count: 74) + "╯", "the button was drawn over: \(lines)")
        let box = try #require(lines.firstIndex { $0.contains("Saving bookmark... │") })
        #expect(box == label + 3, "the HUD is not in the rows below the button: \(lines)")
        #expect(AddBookmarkView.presenterRows(forRows: 24) == label + 2..<label + 6)
        save.succeed()
        screen.runtime.advance(by: 0.01)
        #expect(screen.lines.contains { $0.contains("✔ Bookmark saved! │") })
    }

    @Test(arguments: Isolation.allCases)
    func theStatusLineSaysWhatTheHUDSaysInEveryFrame(isolation: Isolation) throws {
        let screen = try Screen(isolation)
        defer { screen.runtime.shutdown() }
        let save = screen.screenlet.perform(action: AddBookmarkView.addAction, interactorType: "AddBookmarkInteractor")
        screen.runtime.advance(by: 0.2)
        save.succeed()
        screen.runtime.advance(by: 0.1)
        screen.runtime.advance(by: 2)  // the outcome's time is over
        let frames = screen.runtime.sync { screen.frames.all }
        let status = { (lines: [String]) in lines.first { $0.hasPrefix("  ✔") || $0.hasPrefix("  Saving") } }
        var saw = (working: false, saved: false)
        for lines in frames {
            if lines.contains(where: { $0.contains("│ ⠋ Saving bookmark... │") || $0.contains("Saving bookmark... │") })
            {
                saw.working = true
                #expect(status(lines) == "  Saving bookmark...", "\(lines)")
            }
            if lines.contains(where: { $0.contains("│ ✔ Bookmark saved! │") }) {
                saw.saved = true
                #expect(status(lines) == "  ✔ Bookmark saved!", "\(lines)")
            }
            if status(lines) == "  ✔ Bookmark saved!" {
                #expect(
                    !lines.contains { $0.contains("Saving bookmark... │") }, "saved, and the box says saving: \(lines)")
            }
        }
        #expect(saw.working && saw.saved, "\(frames.count) frames")
    }

    @Test(arguments: Isolation.allCases)
    func aLongFailureReasonIsShownWholeOnTheStatusLines(isolation: Isolation) throws {
        let screen = try Screen(isolation)
        defer { screen.runtime.shutdown() }
        let reason =
            "cannot write /home/someone/.local/share/presenter-host/bookmarks.json: the disk is full "
            + "(No space left on device); free some space and press ADD BOOKMARK again"
        let save = screen.screenlet.perform(action: AddBookmarkView.addAction, interactorType: "AddBookmarkInteractor")
        save.fail(InteractorError(domain: "bookmark-store", message: reason))
        let lines = screen.lines
        // The box: the failure message, the reason cut to the box.
        #expect(
            lines.contains { $0.contains("│") && $0.contains("✖ An error occurred saving the bookmark") }, "\(lines)")
        // The status lines: the message and the whole reason, wrapped at words.
        let first = try #require(lines.firstIndex { $0.hasPrefix("  ✖ An error occurred saving the bookmark: ") })
        let wrapped = lines[first...].prefix { !$0.isEmpty }.map { $0.dropFirst(2) }.joined(separator: " ")
        #expect(wrapped == "✖ An error occurred saving the bookmark: " + reason, "\(lines)")
        #expect(first > (button(in: lines)?.label ?? 99) + 5, "the status is not below the HUD: \(lines)")
    }

    @Test func theHUDsRowsLeaveTheStatusAndTheHelpTheirs() {
        #expect(AddBookmarkView.presenterRows(forRows: 18) == 14..<15)
        #expect(AddBookmarkView.presenterRows(forRows: 21) == 14..<18)
        #expect(AddBookmarkView.presenterRows(forRows: 50) == 14..<18)
    }

    @Test func wrappingBreaksAtSpacesAndCutsWordsWiderThanALine() {
        #expect(DisplayWidth.wrap("one two three", toColumns: 7) == ["one two", "three"])
        #expect(DisplayWidth.wrap("abcdefghij", toColumns: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrap("漢字漢字", toColumns: 5) == ["漢字", "漢字"])
        #expect(DisplayWidth.wrap("", toColumns: 5) == [""])
    }
}
