import Foundation
@testable import HostBookmarks
@testable import HostCommandLine
import HostRuntime
@testable import HostSystem
import Synchronization
import Testing

/// The full-screen form's save shows "Saving..." for its minimum time,
/// but a trapped signal (``BookmarkSaveInterruption``) ends that pause at
/// once: it waited the minimum out whatever came (no wait outlives a
/// signal).
@Suite("add-bookmark: a signal ends the save's minimum pause")
struct SavePauseTests {
    @Test func anInterruptionEndsTheWaitBeforeItsDeadline() {
        let interruption = BookmarkSaveInterruption()
        let started = ContinuousClock.now
        DetachedThread.start { interruption.interrupt() }
        interruption.wait(until: MonotonicTime.nanoseconds() &+ 120_000_000_000)
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(interruption.isInterrupted)
    }

    @Test func withoutOneTheWaitLastsUntilItsDeadline() {
        let deadline = MonotonicTime.nanoseconds() &+ 50_000_000
        BookmarkSaveInterruption().wait(until: deadline)
        #expect(MonotonicTime.nanoseconds() >= deadline)
    }

    /// A save lasting at least two minutes, interrupted once it has
    /// committed (the store is written: the pause is what is left): it
    /// ends long before.
    @Test func anInterruptedSaveEndsWithoutItsMinimum() throws {
        let recorder = Recorder(["p": PresenterScript()])
        let runtime = recorder.runtime()
        defer { runtime.shutdown() }
        let screenlet = try runtime.attach(TestView(presenter: "p"))
        let path = TestPaths.temporaryDirectory("save-pause").appendingPathComponent("b.json").path
        let store = BookmarkStore(path: path)
        let interruption = BookmarkSaveInterruption()
        let ended = DispatchSemaphore(value: 0)
        let started = ContinuousClock.now
        BookmarkInteractors.add(
            url: "example.com", title: "Example", to: store, on: screenlet, lasting: 120, interruption: interruption
        ) { _ in ended.signal() }
        #expect(waitUntil(timeout: 60) { FileManager.default.fileExists(atPath: path) })
        interruption.interrupt()
        #expect(ended.wait(timeout: .now() + 60) == .success)
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
