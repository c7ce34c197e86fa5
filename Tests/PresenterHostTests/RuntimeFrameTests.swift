import Foundation
import PresenterHost
import Testing

/// The frame scheduler: frames after hooks, requested frames, the cap, and
/// no frames at all when nobody asks.
@Suite("Runtime: frames")
struct RuntimeFrameTests {
    let messages: [String: ProgressMessages] = [ScreenletView.defaultAction: [.working: "W", .success: "S"]]

    @Test("a presenter that never asks gets a frame after attach, show and hide, and none while time passes")
    func noFramesWhenNobodyAsks() throws {
        let recorder = Recorder(["p": PresenterScript(text: "hud")])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        #expect(backend.frameCount == 2)
        #expect(backend.lines == ["hud", "", "", "", ""])
        runtime.advance(by: 10)
        #expect(backend.frameCount == 2)
        handle.succeed()
        #expect(runtime.waitUntilSettled(timeout: 5))
        #expect(backend.frameCount == 3)
        #expect(backend.canvas.isBlank)
        runtime.advance(by: 10)
        #expect(backend.frameCount == 3)
        runtime.shutdown()
    }

    @Test("a presenter asking for frames as fast as possible gets maxFramesPerSecond of them")
    func cap() throws {
        let recorder = Recorder(["p": PresenterScript(animateEvery: 0)])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend, maxFramesPerSecond: 20)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        let before = backend.frameCount
        runtime.advance(by: 1)
        #expect(backend.frameCount - before == 20)
        let times = recorder.renderTimes.suffix(20)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 50_000_000 })
        #expect(!runtime.waitUntilSettled(timeout: 0.05))  // still animating
        handle.succeed()
        runtime.advance(by: 0.05)
        #expect(runtime.waitUntilSettled(timeout: 5))
        let settledAt = backend.frameCount
        runtime.advance(by: 5)
        #expect(backend.frameCount == settledAt)
        runtime.shutdown()
    }

    @Test("between suspend and resume (Ctrl-Z) nothing is drawn; resume draws the view again")
    func suspendStopsFrames() throws {
        let recorder = Recorder(["p": PresenterScript(animateEvery: 0)])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        runtime.suspend()
        let before = backend.frameCount
        runtime.advance(by: 1)
        handle.reportProgress(0.5)
        runtime.sync {}
        #expect(backend.frameCount == before)
        runtime.resume()
        runtime.sync {}
        #expect(backend.frameCount == before + 1)
        runtime.advance(by: 1)
        #expect(backend.frameCount > before + 1)
        handle.succeed()
        runtime.shutdown()
    }

    @Test("a frame asked for later comes at that time, not before")
    func requestedTime() throws {
        let recorder = Recorder(["p": PresenterScript(animateEvery: 300_000_000)])
        let clock = ManualClock()
        let runtime = recorder.runtime(clock: clock)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        _ = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        let start = clock.now()
        runtime.advance(by: 1)
        #expect(recorder.renderTimes.suffix(3).map { $0 - start } == [300_000_000, 600_000_000, 900_000_000])
        runtime.shutdown()
    }

    @Test("progress reports coalesce and their frames respect the cap")
    func progressFrames() throws {
        let recorder = Recorder(["p": PresenterScript()])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        let frames = backend.frameCount
        for step in 1...100 { handle.reportProgress(Double(step) / 100) }
        runtime.sync {}
        #expect(backend.frameCount == frames)  // the cap: no frame yet at the same instant
        runtime.advance(by: 0.05)
        #expect(backend.frameCount == frames + 1)
        #expect(recorder.calls.filter { $0.hook == "progress" }.last?.detail == "1.0")
        #expect(recorder.calls.filter { $0.hook == "progress" }.count < 100)
        runtime.shutdown()
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

    @Test("render is never called before a show, and frames of the view alone reuse the presenter's last drawing")
    func noRenderBeforeShow() throws {
        final class Counter: ScreenletView, @unchecked Sendable {
            override func createProgressPresenter() -> String { "p" }
        }
        let recorder = Recorder(["p": PresenterScript(text: "HUD")])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(Counter(progressMessages: messages))
        runtime.advance(by: 1)
        screenlet.setNeedsDisplay()
        runtime.resize()
        runtime.sync {}
        #expect(recorder.renderTimes.isEmpty)
        _ = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        #expect(recorder.renderTimes.count == 1)
        screenlet.setNeedsDisplay()
        runtime.sync {}
        #expect(recorder.renderTimes.count == 1)
        #expect(backend.lines.first == "HUD")
        runtime.shutdown()
    }

    @Test("a change of the view's size makes its presenter render again; a resize without one does not")
    func renderAfterASizeChange() throws {
        let recorder = Recorder(["p": PresenterScript(text: "HUD")])
        let backend = ResizableBackend(cols: 40, rows: 5)
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        _ = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        let renders = recorder.renderTimes.count
        runtime.resize()
        runtime.sync {}
        #expect(recorder.renderTimes.count == renders)
        backend.size = (cols: 60, rows: 5)
        runtime.resize()
        runtime.sync {}
        #expect(recorder.renderTimes.count == renders + 1)
        runtime.shutdown()
    }
}

/// A backend whose size a test sets (the runtime reads it before each frame).
private final class ResizableBackend: RenderBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var _size: (cols: Int, rows: Int)
    init(cols: Int, rows: Int) { _size = (cols, rows) }
    var size: (cols: Int, rows: Int) {
        get { lock.withLock { _size } }
        set { lock.withLock { _size = newValue } }
    }
    var flags: ViewFlags { [.unicode, .animated] }
    func present(_ canvas: Canvas) {}
    func event(_ event: ProgressEvent) {}
    func printAbove(_ text: String) {}
    func finish() {}
}
