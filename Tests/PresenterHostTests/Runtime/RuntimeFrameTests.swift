import Foundation
import PresenterHost
import Testing
import PresenterHostTesting

/// A runtime on a manual clock over a recorded presenter "p", with one
/// view attached, and what happens there, step by step.
private struct FrameCase: Sendable, CustomTestStringConvertible {
    var name: String
    var script: PresenterScript
    var maxFramesPerSecond = 20
    /// A backend whose size the steps set (``FrameStep/size(cols:rows:)``);
    /// it counts no frames and keeps no screen.
    var resizable = false
    /// The backend's flags (animated by default).
    var flags: ViewFlags = [.unicode, .animated]
    var steps: [FrameStep]

    var testDescription: String { name }

    func run() throws {
        let messages: [String: ProgressMessages] = [ScreenletView.defaultAction: [.working: "W", .success: "S"]]
        let recorder = Recorder(["p": script])
        let backend = TestBackend(flags: flags)
        let resizable = ResizableBackend(cols: 40, rows: 5)
        let clock = ManualClock()
        let runtime = recorder.runtime(
            backend: self.resizable ? resizable : backend, clock: clock, maxFramesPerSecond: maxFramesPerSecond)
        defer { runtime.shutdown() }
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        var handle: InteractorHandle?
        // What the counting checks count from.
        var frames = 0, renders = 0, time = clock.now()
        for step in steps {
            let location = step.location
            switch step.kind {
            case .perform: handle = screenlet.perform(action: "a", interactorType: "T")
            case .sync: runtime.sync {}
            case .advance(let seconds): runtime.advance(by: seconds)
            case .progress(let fractions): for fraction in fractions { handle?.reportProgress(fraction) }
            case .succeed: handle?.succeed()
            case .suspend: runtime.suspend()
            case .resume: runtime.resume()
            case .resize: runtime.resize()
            case .setNeedsDisplay: screenlet.setNeedsDisplay()
            case .size(let cols, let rows): resizable.size = (cols, rows)
            case .mark:
                frames = backend.frameCount
                renders = recorder.renderTimes.count
                time = clock.now()
            case .frames(let count):
                #expect(backend.frameCount - frames == count, sourceLocation: location)
            case .moreFrames(let count):
                #expect(backend.frameCount - frames > count, sourceLocation: location)
            case .renders(let count):
                #expect(recorder.renderTimes.count - renders == count, sourceLocation: location)
            case .settled(let settled, let timeout):
                #expect(runtime.waitUntilSettled(timeout: timeout) == settled, sourceLocation: location)
            case .screen(let lines): #expect(backend.lines == lines, sourceLocation: location)
            case .blank: #expect(backend.canvas.isBlank, "\(backend.lines)", sourceLocation: location)
            case .lastRenders(let times):
                #expect(
                    recorder.renderTimes.suffix(times.count).map { $0 - time } == times, sourceLocation: location)
            case .lastRendersApart(let count, let interval):
                let times = recorder.renderTimes.suffix(count)
                #expect(
                    times.count == count && zip(times, times.dropFirst()).allSatisfy { $1 - $0 == interval },
                    "\(times)", sourceLocation: location)
            case .lastProgress(let detail):
                #expect(
                    recorder.calls.filter { $0.hook == "progress" }.last?.detail == detail, sourceLocation: location)
            case .progressCalls(let fewerThan):
                #expect(
                    recorder.calls.filter { $0.hook == "progress" }.count < fewerThan, sourceLocation: location)
            }
        }
    }
}

/// One thing a frame case does or checks, with the place in the table it
/// was written (where a failure is reported). The counts are since the last
/// ``mark`` (or the start).
private struct FrameStep: Sendable {
    enum Kind: Sendable {
        /// Starts the one action of the case.
        case perform
        /// Waits until everything asked so far was handled.
        case sync
        case advance(Double)
        case progress([Double])
        case succeed, suspend, resume, resize, setNeedsDisplay
        /// The resizable backend's size.
        case size(cols: Int, rows: Int)
        /// Counts from here.
        case mark
        case frames(Int)
        case moreFrames(than: Int)
        case renders(Int)
        case settled(Bool, timeout: Double)
        case screen([String])
        case blank
        /// The times of the last renders, from the mark.
        case lastRenders([UInt64])
        /// The last `count` renders came `interval` ns apart.
        case lastRendersApart(Int, interval: UInt64)
        /// The last progress call's detail.
        case lastProgress(String)
        case progressCalls(fewerThan: Int)
    }
    var kind: Kind
    var location: SourceLocation

    init(_ kind: Kind, _ location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    static let perform = FrameStep(.perform, #_sourceLocation)
    static let sync = FrameStep(.sync, #_sourceLocation)
    static let succeed = FrameStep(.succeed, #_sourceLocation)
    static let suspend = FrameStep(.suspend, #_sourceLocation)
    static let resume = FrameStep(.resume, #_sourceLocation)
    static let resize = FrameStep(.resize, #_sourceLocation)
    static let setNeedsDisplay = FrameStep(.setNeedsDisplay, #_sourceLocation)
    static let mark = FrameStep(.mark, #_sourceLocation)
    static func advance(_ seconds: Double) -> FrameStep { FrameStep(.advance(seconds), #_sourceLocation) }
    static func progress(_ fractions: [Double]) -> FrameStep { FrameStep(.progress(fractions), #_sourceLocation) }
    static func size(cols: Int, rows: Int) -> FrameStep { FrameStep(.size(cols: cols, rows: rows), #_sourceLocation) }
    static func frames(_ count: Int, at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.frames(count), location)
    }
    static func moreFrames(than count: Int, at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.moreFrames(than: count), location)
    }
    static func renders(_ count: Int, at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.renders(count), location)
    }
    static func settled(timeout: Double = 5, at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.settled(true, timeout: timeout), location)
    }
    static func notSettled(within timeout: Double, at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.settled(false, timeout: timeout), location)
    }
    static func screen(_ lines: [String], at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.screen(lines), location)
    }
    static func blank(at location: SourceLocation = #_sourceLocation) -> FrameStep { FrameStep(.blank, location) }
    static func lastRenders(_ times: [UInt64], at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.lastRenders(times), location)
    }
    static func lastRenders(_ count: Int, apart interval: UInt64, at location: SourceLocation = #_sourceLocation)
        -> FrameStep
    { FrameStep(.lastRendersApart(count, interval: interval), location) }
    static func lastProgress(_ detail: String, at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.lastProgress(detail), location)
    }
    static func progressCalls(fewerThan count: Int, at location: SourceLocation = #_sourceLocation) -> FrameStep {
        FrameStep(.progressCalls(fewerThan: count), location)
    }
}

private let frameCases: [FrameCase] = [
    FrameCase(
        name: "a presenter that never asks gets a frame after attach, show and hide, and none while time passes",
        script: PresenterScript(text: "hud"),
        steps: [
            .perform, .sync,
            .frames(2),
            .screen(["hud", "", "", "", ""]),
            .advance(10),
            .frames(2),
            .succeed,
            .settled(),
            .frames(3),
            .blank(),
            .advance(10),
            .frames(3),
        ]),
    FrameCase(
        name: "a presenter asking for frames as fast as possible gets maxFramesPerSecond of them",
        script: PresenterScript(animateEvery: 0), maxFramesPerSecond: 20,
        steps: [
            .perform, .sync, .mark,
            .advance(1),
            .frames(20),
            .lastRenders(20, apart: 50_000_000),
            .notSettled(within: 0.05),  // still animating
            .succeed,
            .advance(0.05),
            .settled(),
            .mark,
            .advance(5),
            .frames(0),
        ]),
    FrameCase(
        name: "between suspend and resume (Ctrl-Z) nothing is drawn; resume draws the view again",
        script: PresenterScript(animateEvery: 0),
        steps: [
            .perform, .sync, .suspend, .mark,
            .advance(1),
            .progress([0.5]),
            .sync,
            .frames(0),
            .resume, .sync,
            .frames(1),
            .advance(1),
            .moreFrames(than: 1),
            .succeed,
        ]),
    FrameCase(
        name: "a frame asked for later comes at that time, not before",
        script: PresenterScript(animateEvery: 300_000_000),
        steps: [
            .perform, .sync, .mark,
            .advance(1),
            .lastRenders([300_000_000, 600_000_000, 900_000_000]),
        ]),
    FrameCase(
        name: "progress reports coalesce and their frames respect the cap",
        script: PresenterScript(),
        steps: [
            .perform, .sync, .mark,
            .progress((1...100).map { Double($0) / 100 }),
            .sync,
            .frames(0),  // the cap: no frame yet at the same instant
            .advance(0.05),
            .frames(1),
            .lastProgress("1.0"),
            .progressCalls(fewerThan: 100),
        ]),
    FrameCase(
        name:
            "render is never called before a show, and frames of the view alone reuse the presenter's last drawing",
        script: PresenterScript(text: "HUD"),
        steps: [
            .advance(1), .setNeedsDisplay, .resize, .sync,
            .renders(0),
            .perform, .sync,
            .renders(1),
            .setNeedsDisplay, .sync,
            .renders(1),
            .screen(["HUD", "", "", "", ""]),
        ]),
    FrameCase(
        name:
            "a draw_cycle turns by itself, with no render, at each change and only then; it stops when a render replaces it",
        script: PresenterScript(cycle: ["a", "b", "c"]), maxFramesPerSecond: 50,
        steps: [
            // The manual clock starts at 1 s: the cycle, timed from 0, is on its second text.
            .perform, .sync, .screen(["b", "", "", "", ""]), .mark,
            .advance(0.05), .frames(0),
            .advance(0.05), .frames(1), .screen(["c", "", "", "", ""]),
            .advance(0.1), .screen(["a", "", "", "", ""]),
            .advance(0.1), .screen(["b", "", "", "", ""]),
            .advance(1.0), .frames(13), .renders(0),
            .succeed, .sync, .blank(), .mark,
            .advance(1.0), .frames(0), .settled(),
        ]),
    FrameCase(
        name: "the frame cap holds for a cycle faster than it",
        script: PresenterScript(cycle: ["a", "b"], cycleInterval: 1_000_000), maxFramesPerSecond: 10,
        steps: [.perform, .sync, .mark, .advance(1.0), .frames(10), .renders(0)]),
    FrameCase(
        name: "a cycle outside draw_cycle's rules draws nothing and asks for no frame",
        script: PresenterScript(cycle: ["a", "b"], cycleInterval: 999_999),
        steps: [.perform, .sync, .blank(), .mark, .advance(1.0), .frames(0)]),
    FrameCase(
        name: "plain lines show no drawing: a cycle there makes no frame",
        script: PresenterScript(cycle: ["a", "b", "c"]), flags: [.unicode],
        steps: [.perform, .sync, .mark, .advance(1.0), .frames(0), .renders(0)]),
    FrameCase(
        name: "a change of the view's size makes its presenter render again; a resize without one does not",
        script: PresenterScript(text: "HUD"), resizable: true,
        steps: [
            .perform, .sync, .mark,
            .resize, .sync,
            .renders(0),
            .size(cols: 60, rows: 5),
            .resize, .sync,
            .renders(1),
        ]),
]

/// The frame scheduler: frames after hooks, requested frames, the cap, and
/// no frames at all when nobody asks.
@Suite("Runtime: frames")
struct RuntimeFrameTests {
    let messages: [String: ProgressMessages] = [ScreenletView.defaultAction: [.working: "W", .success: "S"]]

    @Test(arguments: frameCases)
    fileprivate func frames(_ frameCase: FrameCase) throws {
        try frameCase.run()
    }

    @Test("with the real clock the timer renders while asked and stops when nobody asks")
    func realTimer() throws {
        let recorder = Recorder(["p": PresenterScript(text: "spin", animateEvery: 0)])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend, clock: MonotonicClock(), maxFramesPerSecond: 50)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        // Frames come while the action is open...
        #expect(waitUntil { backend.frameCount >= 5 })
        // ...in any 0.2 s window, and no more than 50 a second allows.
        let before = backend.frameCount, windowStart = Date()
        Thread.sleep(forTimeInterval: 0.2)
        let during = backend.frameCount - before, window = Date().timeIntervalSince(windowStart)
        #expect(during >= 1, "no frame in \(window) s while animating")
        #expect(Double(during) <= window * 50 + 2, "\(during) frames in \(window) s")
        handle.succeed()
        #expect(runtime.waitUntilSettled(timeout: 5))
        // The same window once nobody asks: no frame (the one above proves
        // a frame would have come in it).
        let settled = backend.frameCount
        Thread.sleep(forTimeInterval: 0.2)
        #expect(backend.frameCount == settled)
        runtime.shutdown()
    }

    @Test("a view's own content is drawn under its presenter, and a resize redraws")
    func viewContent() throws {
        // Safe: no mutable state of its own; ScreenletView's contract (set up before attaching) covers the rest.
        final class LabelView: ScreenletView, @unchecked Sendable {
            override func createProgressPresenter() -> String { "p" }
            override func draw(in canvas: inout Canvas, at now: UInt64, flags: ViewFlags) -> UInt64? {
                canvas.drawText("Site URL: example.org", col: 0, row: 0, maxColumns: canvas.cols)
                return nil
            }
        }
        let recorder = Recorder(["p": PresenterScript(text: "HUD")])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(LabelView(progressMessages: messages))
        runtime.sync {}
        #expect(backend.lines.first == "Site URL: example.org")
        _ = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        #expect(backend.lines.first == "HUDe URL: example.org")
        let frames = backend.frameCount
        runtime.resize()
        runtime.sync {}
        #expect(backend.frameCount == frames + 1)
        runtime.shutdown()
    }

    /// A view showing a label it is given, and, when `clocked`, the frame's
    /// time (then it asks for a frame each second).
    // Safe: `label` only under `lock`; the rest is set before attaching.
    private final class LabelView: ScreenletView, @unchecked Sendable {
        let lock = NSLock()
        var label = "one"
        var clocked = false
        override func createProgressPresenter() -> String { "p" }
        override func draw(in canvas: inout Canvas, at now: UInt64, flags: ViewFlags) -> UInt64? {
            let text = lock.withLock { label } + (clocked ? " \(now / 1_000_000)" : "")
            canvas.drawText(text, col: 0, row: 1, maxColumns: canvas.cols)
            return clocked ? now + 1_000_000_000 : nil
        }
    }

    /// Turns of the cycle ["a", "b", "c"] (0.1 s each): what each showed,
    /// and where the frame's cells were kept.
    private func turns(_ count: Int, of runtime: PresenterRuntime, on backend: TestBackend) -> [(String, UInt)] {
        (0..<count).map { _ in
            runtime.advance(by: 0.1)
            return (backend.lines.prefix(2).joined(separator: "|"), backend.canvas.storageAddress)
        }
    }

    @Test("a cycle's turn that was drawn before is that frame again, until something else changes")
    func turnsAreFramesAlreadyMade() throws {
        let recorder = Recorder(["p": PresenterScript(cycle: ["a", "b", "c"])])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend, clock: ManualClock(), maxFramesPerSecond: 50)
        defer { runtime.shutdown() }
        let view = LabelView(progressMessages: messages)
        let screenlet = try runtime.attach(view)
        _ = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        let first = turns(6, of: runtime, on: backend)
        #expect(first.map(\.0) == ["c|one", "a|one", "b|one", "c|one", "a|one", "b|one"])
        // The second round is the first's frames, not new ones.
        #expect(zip(first.prefix(3), first.suffix(3)).allSatisfy { $0.1 == $1.1 })
        #expect(Set(first.prefix(3).map(\.1)).count == 3)
        // The view changes: the next turns show it, in frames made anew.
        view.lock.withLock { view.label = "two" }
        screenlet.setNeedsDisplay()
        runtime.sync {}
        let second = turns(6, of: runtime, on: backend)
        #expect(second.map(\.0) == ["c|two", "a|two", "b|two", "c|two", "a|two", "b|two"])
        // (Made anew: the frames kept before showed "one". Their places may
        // be reused once they are let go, so addresses prove nothing here.)
        #expect(zip(second.prefix(3), second.suffix(3)).allSatisfy { $0.1 == $1.1 })
        #expect(recorder.renderTimes.count == 1)
    }

    @Test("a view that asks for frames of its own is drawn at every turn")
    func aClockedViewIsDrawnEachTurn() throws {
        let recorder = Recorder(["p": PresenterScript(cycle: ["a", "b", "c"])])
        let backend = TestBackend()
        let clock = ManualClock()
        let runtime = recorder.runtime(backend: backend, clock: clock, maxFramesPerSecond: 50)
        defer { runtime.shutdown() }
        let view = LabelView(progressMessages: messages)
        view.clocked = true
        let screenlet = try runtime.attach(view)
        _ = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        let shown = turns(6, of: runtime, on: backend).map(\.0)
        let times = (1...6).map { clock.now() / 1_000_000 - UInt64(6 - $0) * 100 }
        #expect(shown == zip(["c", "a", "b", "c", "a", "b"], times).map { "\($0)|one \($1)" })
    }
}
