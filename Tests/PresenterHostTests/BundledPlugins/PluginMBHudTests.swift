import Foundation
import PresenterABI
import Testing

/// MBHud, loaded from the built libMBHud.so and driven hook by hook with a
/// fake host: each case creates an instance with its options, calls its
/// hooks on a fake view at set times of the fake clock and checks what it drew.
@Suite struct PluginMBHudTests {
    let plugin: LoadedPlugin
    init() throws { plugin = try LoadedPlugin.load("MBHud") }

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

    @Test(arguments: hudCases)
    fileprivate func hud(_ hudCase: HudCase) throws {
        try hudCase.run(plugin)
    }
}

/// Milliseconds in the fake clock's nanoseconds.
private func ms(_ value: UInt64) -> UInt64 { FakeHost.ms(value) }

/// The longest duration the plugin accepts, in ns (HUDSession.longest).
private let longest: UInt64 = 1 << 60

/// A failure as hide passes it.
private struct Failure: Sendable {
    var code: Int64, domain: String, message: String
    static let http500 = Failure(code: 1, domain: "http", message: "HTTP 500")
}

/// One hook call, clock change or check of a case, with the place in the
/// table it was written (where a failure is reported). Times are from the
/// fake clock's start, in ns. Every hook call but key is expected to
/// return PRESENTER_OK.
private struct HudStep: Sendable {
    enum Kind: Sendable {
        case show(String, id: UInt64, progress: Double)
        case hide(String?, id: UInt64, failure: Failure?)
        case progress(id: UInt64, Double)
        case key(UInt32, handled: Int32)
        case render
        /// The clock at this time.
        case at(UInt64)
        /// The clock moved on by this much.
        case later(UInt64)
        /// The view's flags gain these.
        case addFlags(UInt32)
        /// Forgets the frames asked for so far.
        case dropFrameRequests
        /// ABI 1.4's time from now on: the start (from the clock's start),
        /// counts, rate and ETA (negative: unknown).
        case timing(started: UInt64, done: Double, total: Double, rate: Double, eta: Double)
        /// The view's rows from `first` on (whole rows, 40 columns).
        case lines(first: Int, [String])
        /// The rows that are not blank, without trailing spaces.
        case visible([String])
        case visibleRow(Int, String)
        case visibleRowContains(Int, String)
        case visibleCount(Int)
        case blank(Bool)
        /// Some text was drawn in this style.
        case drew(String, UInt32)
        /// The frames asked for since the last look, as times.
        case frameRequests([UInt64])
        case cycled([String], interval: UInt64)
        /// The number of warnings logged.
        case warnings(Int)
        /// A warning naming this was logged.
        case warned(String)
    }
    var kind: Kind
    var location: SourceLocation

    static func show(
        _ message: String, id: UInt64 = 1, progress: Double = -1, at location: SourceLocation = #_sourceLocation
    ) -> HudStep { HudStep(kind: .show(message, id: id, progress: progress), location: location) }
    static func hide(
        _ message: String?, id: UInt64 = 1, failure: Failure? = nil, at location: SourceLocation = #_sourceLocation
    ) -> HudStep { HudStep(kind: .hide(message, id: id, failure: failure), location: location) }
    static func progress(id: UInt64 = 1, _ fraction: Double, at location: SourceLocation = #_sourceLocation) -> HudStep
    {
        HudStep(kind: .progress(id: id, fraction), location: location)
    }
    static func key(_ key: UInt32, handled: Int32, at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .key(key, handled: handled), location: location)
    }
    static var render: HudStep { HudStep(kind: .render, location: #_sourceLocation) }
    static func at(_ time: UInt64) -> HudStep { HudStep(kind: .at(time), location: #_sourceLocation) }
    static func later(_ time: UInt64) -> HudStep { HudStep(kind: .later(time), location: #_sourceLocation) }
    static func addFlags(_ flags: UInt32) -> HudStep { HudStep(kind: .addFlags(flags), location: #_sourceLocation) }
    static var dropFrameRequests: HudStep { HudStep(kind: .dropFrameRequests, location: #_sourceLocation) }
    static func timing(
        started: UInt64, done: Double = -1, total: Double = -1, rate: Double = -1, eta: Double = -1
    ) -> HudStep {
        HudStep(
            kind: .timing(started: started, done: done, total: total, rate: rate, eta: eta), location: #_sourceLocation)
    }
    static func lines(from first: Int, _ lines: [String], at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .lines(first: first, lines), location: location)
    }
    static func line(_ row: Int, _ line: String, at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .lines(first: row, [line]), location: location)
    }
    static func visible(_ lines: [String], at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .visible(lines), location: location)
    }
    static func visibleRow(_ row: Int, _ line: String, at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .visibleRow(row, line), location: location)
    }
    static func visibleRow(_ row: Int, contains text: String, at location: SourceLocation = #_sourceLocation)
        -> HudStep
    { HudStep(kind: .visibleRowContains(row, text), location: location) }
    static func visibleCount(_ count: Int, at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .visibleCount(count), location: location)
    }
    static func blank(at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .blank(true), location: location)
    }
    static func notBlank(at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .blank(false), location: location)
    }
    static func drew(_ text: String, _ style: UInt32, at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .drew(text, style), location: location)
    }
    /// The last render drew exactly one draw_cycle, of these texts.
    static func cycled(_ frames: [String], interval: UInt64, at location: SourceLocation = #_sourceLocation)
        -> HudStep
    {
        HudStep(kind: .cycled(frames, interval: interval), location: location)
    }
    static func frameRequests(_ times: [UInt64], at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .frameRequests(times), location: location)
    }
    static func warnings(_ count: Int, at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .warnings(count), location: location)
    }
    static func warned(_ text: String, at location: SourceLocation = #_sourceLocation) -> HudStep {
        HudStep(kind: .warned(text), location: location)
    }
}

/// An MBHud instance with `options` on a view of `cols` × `rows`, and its steps.
private struct HudCase: Sendable, CustomTestStringConvertible {
    var name: String
    var options: [String: String] = [:]
    var flags: UInt32 = PRESENTER_VIEW_UNICODE | PRESENTER_VIEW_ANIMATED
    var cols = 40, rows = 10
    /// The host plays draw_cycle (ABI 1.2); else the table lacks it.
    var playsCycles = false
    var steps: [HudStep]

    var testDescription: String { name }

    func run(_ plugin: LoadedPlugin) throws {
        let host = FakeHost(playsCycles: playsCycles)
        host.options = options
        let hud = try PluginInstance(plugin.descriptor, host: host)
        let view = FakeView(cols: cols, rows: rows, flags: flags)
        let t0 = host.now
        for step in steps {
            let location = step.location
            switch step.kind {
            case .show(let message, let id, let progress):
                #expect(hud.show(view, message, id: id, progress: progress) == PRESENTER_OK, sourceLocation: location)
            case .hide(let message, let id, let failure):
                let status = hud.hide(
                    view, message, id: id, failure: failure.map { ($0.code, $0.domain, $0.message) })
                #expect(status == PRESENTER_OK, sourceLocation: location)
            case .progress(let id, let fraction):
                #expect(hud.progress(view, id: id, fraction) == PRESENTER_OK, sourceLocation: location)
            case .key(let key, let handled):
                #expect(hud.key(view, key) == handled, sourceLocation: location)
            case .render: hud.render(view)
            case .at(let time): host.now = t0 + time
            case .later(let time): host.now += time
            case .addFlags(let flags): view.flags |= flags
            case .dropFrameRequests: _ = host.takeFrameRequests()
            case .timing(let started, let done, let total, let rate, let eta):
                hud.timing = (t0 + started, done, total, rate, eta)
            case .lines(let first, let lines):
                #expect(
                    Array(view.lines[first..<first + lines.count]) == lines, "view: \(view.lines)",
                    sourceLocation: location)
            case .visible(let lines): #expect(view.visibleLines == lines, sourceLocation: location)
            case .visibleRow(let row, let line):
                #expect(
                    view.visibleLines.count > row && view.visibleLines[row] == line, "view: \(view.visibleLines)",
                    sourceLocation: location)
            case .visibleRowContains(let row, let text):
                #expect(
                    view.visibleLines.count > row && view.visibleLines[row].contains(text),
                    "view: \(view.visibleLines)", sourceLocation: location)
            case .visibleCount(let count):
                #expect(view.visibleLines.count == count, "view: \(view.visibleLines)", sourceLocation: location)
            case .blank(let blank):
                #expect(view.isBlank == blank, "view: \(view.visibleLines)", sourceLocation: location)
            case .drew(let text, let style):
                #expect(view.texts.contains { $0 == (text, style) }, "drawn: \(view.texts)", sourceLocation: location)
            case .frameRequests(let times):
                #expect(host.takeFrameRequests() == times.map { t0 + $0 }, sourceLocation: location)
            case .cycled(let frames, let interval):
                #expect(
                    view.cycles.map { "\($0.frames) \($0.interval)" } == ["\(frames) \(interval)"],
                    sourceLocation: location)
            case .warnings(let count):
                #expect(host.logs.filter { $0.level == 2 }.count == count, "\(host.logs)", sourceLocation: location)
            case .warned(let text):
                #expect(
                    host.logs.contains { $0.level == 2 && $0.message.contains(text) }, "\(host.logs)",
                    sourceLocation: location)
            }
        }
    }
}

private let unicode = PRESENTER_VIEW_UNICODE

/// A failure stands for `holdMs` (failure-hold-ms as `option`) without keys.
private func failureHold(option: String?, holdMs: UInt64) -> HudCase {
    HudCase(
        name: "a failure holds for \(holdMs) ms without keys (failure-hold-ms \(option ?? "unset"))",
        options: option.map { ["failure-hold-ms": $0] } ?? [:],
        steps: [
            .show("Saving"),
            .at(ms(1000)),
            .hide("Could not save", failure: .http500),
            .render,
            .frameRequests([ms(1000 + holdMs)]),
            .at(ms(1000 + holdMs) - 1),
            .render,
            .visibleRow(1, contains: "✖ Could not save"),
            .at(ms(1000 + holdMs)),
            .render,
            .blank(),
        ])
}

/// An action hidden without a message after 10 ms stays for `minShowMs`
/// (min-show-ms as `option`).
private func minimumShow(option: String?, minShowMs: UInt64) -> HudCase {
    var steps: [HudStep] = [.show("Saving"), .at(ms(10)), .hide(nil)]
    if minShowMs > 10 { steps += [.at(ms(minShowMs) - 1), .render, .visibleRow(1, contains: "Saving")] }
    steps += [.at(max(ms(minShowMs), ms(10))), .render, .blank()]
    return HudCase(
        name: "the minimum show time is \(minShowMs) ms (min-show-ms \(option ?? "unset"))",
        options: option.map { ["min-show-ms": $0] } ?? [:], steps: steps)
}

/// A view too small for the box gets the line alone, inside the view.
private func tooSmall(cols: Int, rows: Int, line: String) -> HudCase {
    HudCase(
        name: "a view of \(cols) × \(rows), too small for the box, gets the line alone", cols: cols, rows: rows,
        steps: [.show("Saving bookmark..."), .render, .line(rows / 2, line), .visibleCount(1)])
}

/// Malformed or out-of-range values of every option are logged and the defaults used.
private func malformedOptions(_ text: String) -> HudCase {
    HudCase(
        name: "options of \"\(text)\" fall back to the defaults",
        options: ["min-show-ms": text, "grace-ms": text, "failure-hold-ms": text],
        steps: [
            .warnings(3),
            .show("Saving"),
            .render,
            .visibleRow(1, contains: "Saving"),  // grace 0
            .at(ms(499)),
            .hide(nil),
            .render,
            .notBlank(),  // min-show 500
        ])
}

private let hudCases: [HudCase] =
    [
        tooSmall(cols: 30, rows: 2, line: "     ⠋ Saving bookmark...     "),
        tooSmall(cols: 6, rows: 1, line: "⠋ Sav…"),
        tooSmall(cols: 1, rows: 1, line: "⠋"),
        HudCase(
            name: "the box is centred, with the spinner and the message",
            steps: [
                .show("Saving bookmark..."),
                .render,
                .lines(
                    from: 3,
                    [
                        "        ┌──────────────────────┐        ",
                        "        │ ⠋ Saving bookmark... │        ",
                        "        └──────────────────────┘        ",
                    ]),
                .visibleCount(3),
                .frameRequests([ms(80)]),
            ]),
        HudCase(
            name: "where the host plays draw_cycle (ABI 1.2) the spinner is one cycle, and no frame is asked for it",
            playsCycles: true,
            steps: [
                .show("Saving bookmark..."),
                .render,
                .cycled(["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"], interval: ms(80)),
                .visibleRow(1, "        │ ⠋ Saving bookmark... │"),
                .frameRequests([]),
                .at(ms(250)),
                .render,
                .frameRequests([]),
                // What time alone changes still asks for its frame: min-show's end.
                .hide("Saved"),
                .render,
                .frameRequests([ms(500)]),
                .at(ms(500)),
                .render,
                .visibleRow(1, contains: "✔ Saved"),
            ]),
        HudCase(
            name: "the spinner follows the clock and asks only for the next change",
            steps: [
                .show("Saving"),
                .at(ms(250)),  // a late frame skips to frame 3
                .render,
                .visibleRow(1, "              │ ⠸ Saving │"),
                .frameRequests([ms(320)]),
            ]),
        HudCase(
            name: "an ASCII view gets an ASCII spinner and box", flags: PRESENTER_VIEW_ANIMATED,
            steps: [
                .show("Saving"),
                .at(ms(80)),
                .render,
                .visible(["              +----------+", "              | \\ Saving |", "              +----------+"]),
            ]),
        HudCase(
            name: "the message's second line is a dim details line",
            steps: [
                .show("Saving bookmark...\nThis may take a moment"),
                .render,
                .lines(
                    from: 3,
                    [
                        "       ┌────────────────────────┐       ",
                        "       │  ⠋ Saving bookmark...  │       ",
                        "       │ This may take a moment │       ",
                        "       └────────────────────────┘       ",
                    ]),
                .drew("This may take a moment", PRESENTER_STYLE_DIM),
            ]),
        HudCase(
            name: "an empty message shows the spinner alone",
            steps: [
                .show(""),
                .render,
                .visible(["                 ┌───┐", "                 │ ⠋ │", "                 └───┘"]),
            ]),
        HudCase(
            name: "a long message is cut to the view", cols: 20,
            steps: [
                .show("Saving a very long bookmark title"),
                .render,
                .visible(["┌──────────────────┐", "│ ⠋ Saving a very… │", "└──────────────────┘"]),
            ]),
        HudCase(
            name: "success shows a check mark, then hides after the reading time",
            steps: [
                .show("Saving bookmark..."),
                .at(ms(1000)),
                .hide("Bookmark saved!"),
                .render,
                .visible([
                    "         ┌───────────────────┐",
                    "         │ ✔ Bookmark saved! │",
                    "         └───────────────────┘",
                ]),
                .drew("✔", PRESENTER_COLOR_GREEN),
                // 1.5 s + 10 ms for each of the 15 characters.
                .frameRequests([ms(1000 + 1500 + 150)]),
                .at(ms(1000 + 1500 + 150) - 1),
                .render,
                .visibleRow(1, contains: "Bookmark saved!"),
                .at(ms(1000 + 1500 + 150)),
                .dropFrameRequests,
                .render,
                .blank(),
                .frameRequests([]),
            ]),
        HudCase(
            name: "a new action replaces a success message",
            steps: [
                .show("Saving"),
                .at(ms(1000)),
                .hide("Saved"),
                .show("Loading", id: 2),
                .render,
                .visibleRow(1, "             │ ⠹ Loading │"),
            ]),
        HudCase(
            name: "a failure waits for a key in an interactive view",
            flags: unicode | PRESENTER_VIEW_INTERACTIVE,
            steps: [
                .show("Saving"),
                .key(13, handled: 0),  // nothing to dismiss while working
                .at(ms(1000)),
                .hide("Could not save", failure: .http500),
                .later(ms(60_000)),
                .dropFrameRequests,
                .render,
                .lines(
                    from: 3,
                    [
                        "          ┌──────────────────┐          ",
                        "          │ ✖ Could not save │          ",
                        "          │     HTTP 500     │          ",
                        "          └──────────────────┘          ",
                    ]),
                .drew("✖", PRESENTER_COLOR_RED),
                .frameRequests([]),
                .key(13, handled: 1),
                .render,
                .blank(),
                .key(13, handled: 0),
            ]),
        failureHold(option: nil, holdMs: 3000),
        failureHold(option: "1000", holdMs: 1000),
        HudCase(
            name: "a failure text the same as the message is not repeated",
            steps: [
                .show("Saving"),
                .at(ms(1000)),
                .hide(
                    "URL cannot be empty",
                    failure: Failure(code: 1, domain: "validation", message: "URL cannot be empty")),
                .render,
                .visibleCount(3),
            ]),
        HudCase(
            name: "a hide without a message hides at once",
            steps: [.show("Saving"), .at(ms(1000)), .hide(nil), .render, .blank(), .frameRequests([])]),
        HudCase(
            name: "an early hide waits for the minimum show time",
            steps: [
                .show("Saving"),
                .at(ms(100)),
                .hide("Saved"),
                .render,
                .visibleRow(1, "              │ ⠙ Saving │"),
                .frameRequests([ms(160)]),  // the spinner's next frame comes first
                .at(ms(499)),
                .render,
                .visibleRow(1, contains: "Saving"),
                .frameRequests([ms(500)]),
                .at(ms(500)),
                .render,
                .visibleRow(1, contains: "✔ Saved"),
                .frameRequests([ms(500 + 1500 + 50)]),
            ]),
        minimumShow(option: nil, minShowMs: 500),
        minimumShow(option: "0", minShowMs: 0),
        minimumShow(option: "200", minShowMs: 200),
        HudCase(
            name: "an action ending within the grace time never draws", options: ["grace-ms": "300"],
            steps: [
                .show("Saving"),
                .render,
                .blank(),
                .frameRequests([ms(300)]),
                .at(ms(200)),
                .hide("Saved"),
                .at(ms(200)), .render, .blank(),
                .at(ms(300)), .render, .blank(),
                .at(ms(2000)), .render, .blank(),
                .frameRequests([]),
            ]),
        HudCase(
            name: "an action outlasting the grace time shows, and the minimum show time counts from then",
            options: ["grace-ms": "300"],
            steps: [
                .show("Saving"),
                .at(ms(300)),
                .render,
                .visibleRow(1, contains: "Saving"),
                .at(ms(400)),
                .hide(nil),
                .at(ms(799)),
                .render,
                .notBlank(),
                .at(ms(800)),
                .render,
                .blank(),
            ]),
        HudCase(
            name: "determinate progress shows a bar instead of the spinner", flags: PRESENTER_VIEW_ANIMATED,
            steps: [
                .show("Uploading", progress: 0.5),
                .render,
                .visible([
                    "    +-----------------------------+",
                    "    | [#####-----]  50% Uploading |",
                    "    +-----------------------------+",
                ]),
                .frameRequests([]),  // nothing moves
                .progress(0.8),
                .render,
                .visibleRow(1, "    | [########--]  80% Uploading |"),
                .addFlags(unicode),
                .progress(1),
                .render,
                .visibleRow(1, "     │ ██████████ 100% Uploading │"),
            ]),
        HudCase(
            name: "progress starting later replaces the spinner",
            steps: [
                .show("Uploading"),
                .progress(0.05),
                .progress(id: 99, 0.5),  // unknown id: ignored
                .render,
                .visibleRow(1, "     │ ░░░░░░░░░░   5% Uploading │"),
            ]),
        HudCase(
            name: "concurrent actions share one HUD with a count",
            steps: [
                .show("Uploading"),
                .show("Saving bookmark...", id: 2),
                .show("", id: 3),
                .render,
                .visibleRow(1, "   │ ⠋ Saving bookmark... (+2 more) │"),
                .at(ms(1000)),
                .hide(nil),  // no message: nothing to show for it
                .render,
                .visibleRow(1, contains: "Saving bookmark... (+1 more)"),
                .hide("Unknown", id: 999),
                .render,
                .visibleRow(1, contains: "Saving bookmark... (+1 more)"),
                .hide("Bookmark saved!", id: 2),  // not the last: shown for a while, the other counted
                .render,
                .visibleRow(1, contains: "✔ Bookmark saved! (+1 more)"),
                .at(ms(1000 + 1650)),
                .render,
                .visibleRow(1, "                 │ ⠸ │"),
                .hide("Done", id: 3),
                .render,
                .visibleRow(1, contains: "✔ Done"),
                .hide("Again", id: 3),  // a second hide of the same id changes nothing
                .render,
                .visibleRow(1, contains: "✔ Done"),
            ]),
        HudCase(
            // drive's two actions: the first one's outcome is not lost while the second runs.
            name: "an action that ends while others run shows its outcome briefly, counting the others",
            steps: [
                .show("Fetching the index..."),
                .show("Building...", id: 2),
                .render,
                .visibleRow(1, contains: "⠋ Building... (+1 more)"),
                .at(ms(1000)),
                .dropFrameRequests,
                .hide("Index fetched"),
                .render,
                .visibleRow(1, "     │ ✔ Index fetched (+1 more) │"),
                .frameRequests([ms(1000 + 1500 + 130)]),  // 1.5 s + 10 ms a character
                .show("Testing...", id: 3),  // the count follows the work still running
                .render,
                .visibleRow(1, contains: "✔ Index fetched (+2 more)"),
                .at(ms(2629)),
                .render,
                .visibleRow(1, contains: "✔ Index fetched (+2 more)"),
                .at(ms(2630)),
                .render,
                .visibleRow(1, contains: "Testing... (+1 more)"),
                // A failure among others stays for failure-hold-ms, not until a key.
                .addFlags(PRESENTER_VIEW_INTERACTIVE),
                .hide("Tests failed", id: 3, failure: .http500),
                .render,
                .visibleRow(1, contains: "✖ Tests failed (+1 more)"),
                .dropFrameRequests,
                .at(ms(2630 + 2999)),
                .render,
                .visibleRow(1, contains: "✖ Tests failed (+1 more)"),
                .at(ms(2630 + 3000)),
                .render,
                .visibleRow(1, contains: "Building..."),
                // A later outcome replaces an earlier one, and the last action's ending replaces both.
                .show("Linking...", id: 4),
                .hide("Linked", id: 4),
                .render,
                .visibleRow(1, contains: "✔ Linked (+1 more)"),
                .hide("Built", id: 2),
                .render,
                .visibleRow(1, contains: "✔ Built"),
                .visibleCount(3),
            ]),
        HudCase(
            name: "a malformed option is logged and the default used", options: ["min-show-ms": "soon"],
            steps: [.warned("min-show-ms"), .show("Saving"), .at(ms(499)), .hide(nil), .render, .notBlank()]),
        HudCase(
            // Int.max milliseconds overflowed UInt64 nanoseconds and trapped in create.
            name: "huge options are capped instead of overflowing",
            options: ["min-show-ms": String(Int.max), "grace-ms": "100000000000", "failure-hold-ms": String(Int.max)],
            steps: [
                .show("Saving"),
                .render,
                .blank(),  // inside the (capped) grace time
                .frameRequests([ms(100_000_000_000)]),
                .at(ms(100_000_000_000)),
                .render,
                .visibleRow(1, contains: "Saving"),
                .hide("Failed", failure: Failure(code: 1, domain: "x", message: "boom")),
                .later(ms(1_000_000_000)),
                .render,
                .visibleRow(1, contains: "Saving"),  // the (capped) minimum show time lasts
            ]),
        HudCase(
            name: "a huge failure hold is capped",
            options: ["min-show-ms": "0", "failure-hold-ms": String(Int.max)],
            steps: [
                .show("Saving"),
                .hide("Failed", failure: Failure(code: 1, domain: "x", message: "boom")),
                .render,
                .visibleRow(1, contains: "✖ Failed"),
                .frameRequests([longest]),
            ]),
    ] + ["-1", "1e11", "99999999999999999999999", "", " 5", "0x10", "NaN"].map(malformedOptions) + finalLookCases
    + timeCases

private let final = PRESENTER_VIEW_FINAL
private let exit2 = Failure(code: 2, domain: "process", message: "exit status 2")

/// The view's last render (PRESENTER_VIEW_FINAL): the outcome that stays
/// after the host has left, one line from the top-left, not the box.
private let finalLookCases: [HudCase] = [
    HudCase(
        name: "the last render draws a success as one line, the check mark green",
        steps: [
            .show("Building"), .at(ms(600)), .hide("Built"), .render, .visibleCount(3),
            .addFlags(final), .render, .visible(["✔ Built"]), .drew("✔", UInt32(PRESENTER_COLOR_GREEN)),
        ]),
    HudCase(
        name: "the last render draws a failure with its reason after the message",
        steps: [
            .show("Building"), .at(ms(600)), .hide("Build failed", failure: exit2), .addFlags(final), .render,
            .visible(["✖ Build failed: exit status 2"]), .drew("✖", UInt32(PRESENTER_COLOR_RED)),
        ]),
    HudCase(
        name: "a failure without a message stays with its reason alone",
        steps: [
            .show("Building"), .hide(nil, failure: exit2), .addFlags(final), .render, .visible(["✖ exit status 2"]),
        ]),
    HudCase(
        name: "a message of several lines stays on one",
        steps: [
            .show("Building"), .hide("Built\n3 targets"), .addFlags(final), .render, .visible(["✔ Built - 3 targets"]),
        ]),
    HudCase(
        name: "nothing stays of a success without a message",
        steps: [.show("Building"), .hide(nil), .addFlags(final), .render, .blank()]),
    HudCase(
        name: "the outcome stays though the grace time hid the HUD",
        options: ["grace-ms": "1000"],
        steps: [
            .show("Building"), .at(ms(10)), .hide("Built"), .render, .blank(), .addFlags(final), .render,
            .visible(["✔ Built"]),
        ]),
    HudCase(
        name: "the outcome stays after its time is over",
        options: ["min-show-ms": "0"],
        steps: [
            .show("Building"), .hide("Built"), .at(ms(10_000)), .render, .blank(), .addFlags(final), .render,
            .visible(["✔ Built"]),
        ]),
    HudCase(
        name: "an outcome of an interactor that ended while another runs is not the last one",
        steps: [
            .show("A", id: 1), .show("B", id: 2), .hide("A done", id: 1), .addFlags(final), .render, .blank(),
        ]),
    HudCase(
        name: "an ASCII view gets the ASCII mark", flags: PRESENTER_VIEW_ANIMATED | final,
        steps: [.show("Building"), .hide("Built"), .render, .visible(["v Built"])]),
    HudCase(
        name: "one column keeps the mark", cols: 1, rows: 1,
        steps: [.show("Building"), .hide("Built", failure: exit2), .addFlags(final), .render, .visible(["✖"])]),
    HudCase(
        name: "a narrow view cuts the text", cols: 8, rows: 1,
        steps: [
            .show("Building"), .hide("Build failed", failure: exit2), .addFlags(final), .render, .visible(["✖ Build…"]),
        ]),
]

/// ABI 1.4's time: the elapsed time once the work has run "elapsed-after-ms",
/// the ETA and rate with determinate progress, asked for a frame each whole
/// second, dropped least important first where the view is narrow; never
/// on the outcome line that stays.
private let timeCases: [HudCase] = [
    HudCase(
        name: "the elapsed time appears after its threshold, then changes each second",
        options: ["elapsed-after-ms": "2000"], playsCycles: true,
        steps: [
            .timing(started: 0), .show("Building"), .dropFrameRequests, .at(ms(1500)), .render, .visibleCount(3),
            .frameRequests([ms(2000)]), .at(ms(2000)), .render, .visibleCount(4), .visibleRow(2, contains: " 2s "),
            .drew("2s", 0x20), .frameRequests([ms(3000)]), .at(ms(3400)), .render, .visibleRow(2, contains: "3s"),
            .frameRequests([ms(4000)]),
        ]),
    HudCase(
        name: "the elapsed time waits three seconds by default", playsCycles: true,
        steps: [
            .timing(started: 0), .show("Building"), .dropFrameRequests, .at(ms(2999)), .render, .visibleCount(3),
            .frameRequests([ms(3000)]), .at(ms(3000)), .render, .visibleRow(2, contains: "3s"),
        ]),
    HudCase(
        name: "determinate progress adds the ETA, counting down, and the rate",
        steps: [
            .timing(started: 0), .show("Copying"), .at(ms(5000)),
            .timing(started: 0, done: 42, total: 100, rate: 2.5, eta: 23.2), .progress(0.42), .render,
            .visibleRow(2, contains: "5s · ETA 23s · 2.5/s"), .at(ms(7000)), .render,
            .visibleRow(2, contains: "7s · ETA 21s · 2.5/s"),
        ]),
    HudCase(
        name: "a rate without counts is of the fraction",
        steps: [
            .timing(started: 0), .show("Copying"), .at(ms(5000)), .timing(started: 0, rate: 0.015, eta: 40),
            .progress(0.4), .render, .visibleRow(2, contains: "5s · ETA 40s · 1.5%/s"),
        ]),
    HudCase(
        name: "a narrow view drops the rate, then the ETA", cols: 16,
        steps: [
            .timing(started: 0, done: 42, total: 100, rate: 2.5, eta: 23), .show("Copy"), .at(ms(5000)),
            .progress(0.42), .render, .visibleRow(2, contains: "5s · ETA 23s"),
            .visibleRow(2, contains: "│"),
        ]),
    HudCase(
        name: "a view with no row to spare keeps its box without the time", rows: 4,
        steps: [
            .timing(started: 0), .show("Building\nthe site"), .at(ms(5000)), .render, .visibleCount(4),
            .visibleRow(0, contains: "┌"), .visibleRow(2, contains: "the site"),
        ]),
    HudCase(
        name: "done before the threshold, a frame now serves the one asked for the time", playsCycles: true,
        steps: [
            .timing(started: 0), .show("Building"), .dropFrameRequests, .render, .frameRequests([ms(3000)]),
            .at(ms(600)), .hide(nil), .render, .blank(), .frameRequests([ms(600)]), .render, .blank(),
            .frameRequests([]),
        ]),
    HudCase(
        name: "a host that measures no time shows none",
        steps: [.show("Building"), .at(ms(60_000)), .render, .visibleCount(3)]),
    HudCase(
        name: "the line that stays says no time, however long the work ran",
        steps: [
            .timing(started: 0, done: 42, total: 100, rate: 2.5, eta: 23), .show("Building"), .at(ms(65_000)),
            .hide("Built"), .addFlags(final), .render, .visible(["✔ Built"]),
        ]),
]
