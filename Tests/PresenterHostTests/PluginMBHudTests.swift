import Foundation
import PresenterABI
import Testing

/// MBHud, loaded from the built libMBHud.so and driven hook by hook with a fake host.
@Suite struct PluginMBHudTests {
    let plugin: LoadedPlugin
    init() throws { plugin = try LoadedPlugin.load("MBHud") }

    private func hud(
        _ options: [String: String] = [:], flags: UInt32 = PRESENTER_VIEW_UNICODE | PRESENTER_VIEW_ANIMATED,
        cols: Int = 40
    ) throws -> (PluginInstance, FakeView) {
        let host = FakeHost()
        host.options = options
        return (try PluginInstance(plugin.descriptor, host: host), FakeView(cols: cols, flags: flags))
    }

    private static let ms = FakeHost.ms
    private let t0: UInt64 = 1_000_000_000  // the fake clock's start

    @Test func descriptorDeclaresTheHUD() {
        let d = plugin.descriptor.pointee
        #expect(plugin.descriptors.count == 1)
        #expect(String(cString: d.id) == "mbhud")
        #expect(String(cString: d.name) == "MB HUD")
        #expect(!String(cString: d.version).isEmpty)
        #expect(d.extends == nil)
        #expect(d.capabilities == UInt64(PRESENTER_CAP_MESSAGES | PRESENTER_CAP_DETERMINATE))
        #expect(d.create != nil && d.destroy != nil && d.show != nil && d.hide != nil)
        #expect(d.progress != nil && d.render != nil && d.key != nil)
    }

    /// A view too small for the box gets the line alone, inside the view.
    @Test(arguments: [(30, 2, "     ⠋ Saving bookmark...     "), (6, 1, "⠋ Sav…"), (1, 1, "⠋")])
    func aViewTooSmallForTheBoxGetsTheLineAlone(cols: Int, rows: Int, line: String) throws {
        let host = FakeHost()
        let hud = try PluginInstance(plugin.descriptor, host: host)
        let view = FakeView(cols: cols, rows: rows)
        hud.show(view, "Saving bookmark...", id: 1)
        hud.render(view)
        #expect(view.lines[rows / 2] == line)
        #expect(view.visibleLines.count == 1)
    }

    @Test func boxIsCentredWithSpinnerAndMessage() throws {
        let (hud, view) = try hud()
        #expect(hud.show(view, "Saving bookmark...", id: 1) == PRESENTER_OK)
        hud.render(view)
        #expect(
            view.lines[3...5] == [
                "        ┌──────────────────────┐        ",
                "        │ ⠋ Saving bookmark... │        ",
                "        └──────────────────────┘        ",
            ])
        #expect(view.visibleLines.count == 3)
        #expect(hud.host.takeFrameRequests() == [t0 + Self.ms(80)])
    }

    @Test func spinnerFollowsTheClockAndAsksOnlyForTheNextChange() throws {
        let (hud, view) = try hud()
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(250)  // a late frame skips to frame 3
        hud.render(view)
        #expect(view.visibleLines[1] == "              │ ⠸ Saving │")
        #expect(hud.host.takeFrameRequests() == [t0 + Self.ms(320)])
    }

    @Test func asciiViewGetsAsciiSpinnerAndBox() throws {
        let (hud, view) = try hud(flags: PRESENTER_VIEW_ANIMATED)
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(80)
        hud.render(view)
        #expect(
            view.visibleLines == [
                "              +----------+", "              | \\ Saving |", "              +----------+",
            ])
    }

    @Test func secondLineOfTheMessageIsADimDetailsLine() throws {
        let (hud, view) = try hud()
        hud.show(view, "Saving bookmark...\nThis may take a moment", id: 1)
        hud.render(view)
        #expect(
            view.lines[3...6] == [
                "       ┌────────────────────────┐       ",
                "       │  ⠋ Saving bookmark...  │       ",
                "       │ This may take a moment │       ",
                "       └────────────────────────┘       ",
            ])
        #expect(view.texts.contains { $0 == ("This may take a moment", PRESENTER_STYLE_DIM) })
    }

    @Test func emptyMessageShowsTheSpinnerAlone() throws {
        let (hud, view) = try hud()
        hud.show(view, "", id: 1)
        hud.render(view)
        #expect(view.visibleLines == ["                 ┌───┐", "                 │ ⠋ │", "                 └───┘"])
    }

    @Test func longMessageIsCutToTheView() throws {
        let (hud, view) = try hud(cols: 20)
        hud.show(view, "Saving a very long bookmark title", id: 1)
        hud.render(view)
        #expect(view.visibleLines == ["┌──────────────────┐", "│ ⠋ Saving a very… │", "└──────────────────┘"])
    }

    @Test func successShowsCheckMarkThenHidesAfterReadingTime() throws {
        let (hud, view) = try hud()
        hud.show(view, "Saving bookmark...", id: 1)
        hud.host.now = t0 + Self.ms(1000)
        hud.hide(view, "Bookmark saved!", id: 1)
        hud.render(view)
        #expect(
            view.visibleLines == [
                "         ┌───────────────────┐",
                "         │ ✔ Bookmark saved! │",
                "         └───────────────────┘",
            ])
        #expect(view.texts.contains { $0 == ("✔", PRESENTER_COLOR_GREEN) })
        // 1.5 s + 10 ms for each of the 15 characters.
        let end = t0 + Self.ms(1000 + 1500 + 150)
        #expect(hud.host.takeFrameRequests() == [end])
        hud.host.now = end - 1
        hud.render(view)
        #expect(view.visibleLines[1].contains("Bookmark saved!"))
        hud.host.now = end
        _ = hud.host.takeFrameRequests()
        hud.render(view)
        #expect(view.isBlank)
        #expect(hud.host.takeFrameRequests() == [])
    }

    @Test func newActionReplacesASuccessMessage() throws {
        let (hud, view) = try hud()
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(1000)
        hud.hide(view, "Saved", id: 1)
        hud.show(view, "Loading", id: 2)
        hud.render(view)
        #expect(view.visibleLines[1] == "             │ ⠹ Loading │")
    }

    @Test func failureWaitsForAKeyInAnInteractiveView() throws {
        let (hud, view) = try hud(flags: PRESENTER_VIEW_UNICODE | PRESENTER_VIEW_INTERACTIVE)
        hud.show(view, "Saving", id: 1)
        #expect(hud.key(view, 13) == 0)  // nothing to dismiss while working
        hud.host.now = t0 + Self.ms(1000)
        hud.hide(view, "Could not save", id: 1, failure: (1, "http", "HTTP 500"))
        hud.host.now += Self.ms(60_000)
        _ = hud.host.takeFrameRequests()
        hud.render(view)
        #expect(
            view.lines[3...6] == [
                "          ┌──────────────────┐          ",
                "          │ ✖ Could not save │          ",
                "          │     HTTP 500     │          ",
                "          └──────────────────┘          ",
            ])
        #expect(view.texts.contains { $0 == ("✖", PRESENTER_COLOR_RED) })
        #expect(hud.host.takeFrameRequests() == [])
        #expect(hud.key(view, 13) == 1)
        hud.render(view)
        #expect(view.isBlank)
        #expect(hud.key(view, 13) == 0)
    }

    @Test(arguments: [(nil, 3000), ("1000", 1000)] as [(String?, UInt64)])
    func failureHoldsForFailureHoldTimeWithoutKeys(option: String?, holdMs: UInt64) throws {
        let (hud, view) = try hud(option.map { ["failure-hold-ms": $0] } ?? [:])
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(1000)
        hud.hide(view, "Could not save", id: 1, failure: (1, "http", "HTTP 500"))
        let end = hud.host.now + Self.ms(holdMs)
        hud.render(view)
        #expect(hud.host.takeFrameRequests() == [end])
        hud.host.now = end - 1
        hud.render(view)
        #expect(view.visibleLines[1].contains("✖ Could not save"))
        hud.host.now = end
        hud.render(view)
        #expect(view.isBlank)
    }

    @Test func failureTextSameAsMessageIsNotRepeated() throws {
        let (hud, view) = try hud()
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(1000)
        hud.hide(view, "URL cannot be empty", id: 1, failure: (1, "validation", "URL cannot be empty"))
        hud.render(view)
        #expect(view.visibleLines.count == 3)
    }

    @Test func hideWithoutMessageHidesAtOnce() throws {
        let (hud, view) = try hud()
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(1000)
        hud.hide(view, nil, id: 1)
        hud.render(view)
        #expect(view.isBlank)
        #expect(hud.host.takeFrameRequests() == [])
    }

    @Test func earlyHideWaitsForTheMinimumShowTime() throws {
        let (hud, view) = try hud()
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(100)
        hud.hide(view, "Saved", id: 1)
        hud.render(view)
        #expect(view.visibleLines[1] == "              │ ⠙ Saving │")
        #expect(hud.host.takeFrameRequests() == [t0 + Self.ms(160)])  // the spinner's next frame comes first
        hud.host.now = t0 + Self.ms(499)
        hud.render(view)
        #expect(view.visibleLines[1].contains("Saving"))
        #expect(hud.host.takeFrameRequests() == [t0 + Self.ms(500)])
        hud.host.now = t0 + Self.ms(500)
        hud.render(view)
        #expect(view.visibleLines[1].contains("✔ Saved"))
        #expect(hud.host.takeFrameRequests() == [t0 + Self.ms(500 + 1500 + 50)])
    }

    @Test(arguments: [(nil, 500), ("0", 0), ("200", 200)] as [(String?, UInt64)])
    func minimumShowTimeIsConfigurable(option: String?, minShowMs: UInt64) throws {
        let (hud, view) = try hud(option.map { ["min-show-ms": $0] } ?? [:])
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(10)
        hud.hide(view, nil, id: 1)
        if minShowMs > 10 {
            hud.host.now = t0 + Self.ms(minShowMs) - 1
            hud.render(view)
            #expect(view.visibleLines[1].contains("Saving"))
        }
        hud.host.now = max(t0 + Self.ms(minShowMs), t0 + Self.ms(10))
        hud.render(view)
        #expect(view.isBlank)
    }

    @Test func actionEndingWithinGraceNeverDraws() throws {
        let (hud, view) = try hud(["grace-ms": "300"])
        hud.show(view, "Saving", id: 1)
        hud.render(view)
        #expect(view.isBlank)
        #expect(hud.host.takeFrameRequests() == [t0 + Self.ms(300)])
        hud.host.now = t0 + Self.ms(200)
        hud.hide(view, "Saved", id: 1)
        for time in [200, 300, 2000] as [UInt64] {
            hud.host.now = t0 + Self.ms(time)
            hud.render(view)
            #expect(view.isBlank)
        }
        #expect(hud.host.takeFrameRequests() == [])
    }

    @Test func actionOutlastingGraceShowsAndMinimumShowCountsFromThen() throws {
        let (hud, view) = try hud(["grace-ms": "300"])
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(300)
        hud.render(view)
        #expect(view.visibleLines[1].contains("Saving"))
        hud.host.now = t0 + Self.ms(400)
        hud.hide(view, nil, id: 1)
        hud.host.now = t0 + Self.ms(799)
        hud.render(view)
        #expect(!view.isBlank)
        hud.host.now = t0 + Self.ms(800)
        hud.render(view)
        #expect(view.isBlank)
    }

    @Test func determinateProgressShowsABarInsteadOfTheSpinner() throws {
        let (hud, view) = try hud(flags: PRESENTER_VIEW_ANIMATED)
        hud.show(view, "Uploading", id: 1, progress: 0.5)
        hud.render(view)
        #expect(
            view.visibleLines == [
                "    +-----------------------------+",
                "    | [#####-----]  50% Uploading |",
                "    +-----------------------------+",
            ])
        #expect(hud.host.takeFrameRequests() == [])  // nothing moves
        #expect(hud.progress(view, id: 1, 0.8) == PRESENTER_OK)
        hud.render(view)
        #expect(view.visibleLines[1] == "    | [########--]  80% Uploading |")
        view.flags |= PRESENTER_VIEW_UNICODE
        hud.progress(view, id: 1, 1)
        hud.render(view)
        #expect(view.visibleLines[1] == "     │ ██████████ 100% Uploading │")
    }

    @Test func progressStartingLaterReplacesTheSpinner() throws {
        let (hud, view) = try hud()
        hud.show(view, "Uploading", id: 1)
        hud.progress(view, id: 1, 0.05)
        hud.progress(view, id: 99, 0.5)  // unknown id: ignored
        hud.render(view)
        #expect(view.visibleLines[1] == "     │ ░░░░░░░░░░   5% Uploading │")
    }

    @Test func concurrentActionsShareOneHUDWithACount() throws {
        let (hud, view) = try hud()
        hud.show(view, "Uploading", id: 1)
        hud.show(view, "Saving bookmark...", id: 2)
        hud.show(view, "", id: 3)
        hud.render(view)
        #expect(view.visibleLines[1] == "   │ ⠋ Saving bookmark... (+2 more) │")
        hud.host.now = t0 + Self.ms(1000)
        hud.hide(view, "Bookmark saved!", id: 2)  // not the last: no check mark yet
        #expect(hud.hide(view, "Unknown", id: 999) == PRESENTER_OK)
        hud.render(view)
        #expect(view.visibleLines[1].contains("Uploading (+1 more)"))
        hud.hide(view, nil, id: 1)
        hud.render(view)
        #expect(view.visibleLines[1] == "                 │ ⠹ │")
        hud.hide(view, "Done", id: 3)
        hud.render(view)
        #expect(view.visibleLines[1].contains("✔ Done"))
        hud.hide(view, "Again", id: 3)  // a second hide of the same id changes nothing
        hud.render(view)
        #expect(view.visibleLines[1].contains("✔ Done"))
    }

    @Test func malformedOptionIsLoggedAndTheDefaultUsed() throws {
        let (hud, view) = try hud(["min-show-ms": "soon"])
        #expect(hud.host.logs.contains { $0.level == 2 && $0.message.contains("min-show-ms") })
        hud.show(view, "Saving", id: 1)
        hud.host.now = t0 + Self.ms(499)
        hud.hide(view, nil, id: 1)
        hud.render(view)
        #expect(!view.isBlank)
    }

    /// The longest duration the plugin accepts, in ns (HUDSession.longest).
    private static let longest: UInt64 = 1 << 60

    @Test func hugeOptionsAreCappedInsteadOfOverflowing() throws {
        // Int.max milliseconds overflowed UInt64 nanoseconds and trapped in create.
        let (hud, view) = try hud([
            "min-show-ms": String(Int.max), "grace-ms": "100000000000",
            "failure-hold-ms": String(Int.max),
        ])
        hud.show(view, "Saving", id: 1)
        hud.render(view)
        #expect(view.isBlank)  // inside the (capped) grace time
        #expect(hud.host.takeFrameRequests() == [t0 + FakeHost.ms(100_000_000_000)])
        hud.host.now = t0 + FakeHost.ms(100_000_000_000)
        hud.render(view)
        #expect(view.visibleLines[1].contains("Saving"))
        hud.hide(view, "Failed", id: 1, failure: (1, "x", "boom"))
        hud.host.now += FakeHost.ms(1_000_000_000)
        hud.render(view)
        #expect(view.visibleLines[1].contains("Saving"))  // the (capped) minimum show time lasts
    }

    @Test func hugeFailureHoldIsCapped() throws {
        let (hud, view) = try hud(["min-show-ms": "0", "failure-hold-ms": String(Int.max)])
        hud.show(view, "Saving", id: 1)
        hud.hide(view, "Failed", id: 1, failure: (1, "x", "boom"))
        hud.render(view)
        #expect(view.visibleLines[1].contains("✖ Failed"))
        #expect(hud.host.takeFrameRequests() == [t0 + Self.longest])
    }

    @Test(arguments: ["-1", "1e11", "99999999999999999999999", "", " 5", "0x10", "NaN"])
    func malformedOrOutOfRangeOptionsFallBackToTheDefault(text: String) throws {
        let (hud, view) = try hud(["min-show-ms": text, "grace-ms": text, "failure-hold-ms": text])
        #expect(hud.host.logs.filter { $0.level == 2 }.count == 3)
        hud.show(view, "Saving", id: 1)
        hud.render(view)
        #expect(view.visibleLines[1].contains("Saving"))  // grace 0
        hud.host.now = t0 + Self.ms(499)
        hud.hide(view, nil, id: 1)
        hud.render(view)
        #expect(!view.isBlank)  // min-show 500
    }
}
