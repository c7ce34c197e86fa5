import Dispatch
import Foundation
import PresenterHost
import Synchronization
import Testing

/// Ctrl-Z as a run ends: whoever calls ``PresenterRuntime/suspend()`` stops
/// the process as soon as it returns (`run`, `drive`, `add-bookmark`), so it
/// returns only once the screen is given back, even while a shutdown is
/// still finishing the backend.
@Suite struct RuntimeJobControlTests {
    /// A backend whose `finish()` waits at a gate, so a test can act while a
    /// shutdown is under way; it records what it is told, in order.
    private final class GatedBackend: RenderBackend, Sendable {
        /// Signalled when `finish()` starts.
        let finishing = DispatchSemaphore(value: 0)
        /// Opened by the test: `finish()` goes on.
        let gate = DispatchSemaphore(value: 0)
        private let record = Mutex<[String]>([])

        var calls: [String] { record.withLock { $0 } }
        var size: (cols: Int, rows: Int) { (40, 5) }
        var flags: ViewFlags { [.unicode, .animated] }
        func present(_ canvas: Canvas) {}
        func event(_ event: ProgressEvent) {}
        func printAbove(_ text: String) {}
        func suspend() { record.withLock { $0.append("suspend") } }
        func finish() {
            finishing.signal()
            gate.wait()
            record.withLock { $0.append("finish") }
        }
    }

    @Test func ctrlZDuringAShutdownReturnsOnlyOnceTheBackendIsFinished() {
        // The soak found it: a Ctrl-Z handled once the shutdown had begun
        // returned at once (the runtime refused it), the host stopped with
        // its region drawn, the cursor hidden and echo off, and when `bg`
        // continued it, it ended in the background, where echo cannot be
        // set back. The shutdown is held in the backend's finish() while
        // suspend() is called; the gate opens whenever it likes: suspend()
        // must come through to the backend after finish(), not be dropped.
        let backend = GatedBackend()
        let runtime = PresenterRuntime(
            registry: PresenterRegistry(plugins: []), backend: backend, isolation: .inProcess)
        let shutDown = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            runtime.shutdown()
            shutDown.signal()
        }
        backend.finishing.wait()
        #expect(runtime.isShutDown)
        let returned = DispatchSemaphore(value: 0)
        let seenWhenReturned = Mutex<[String]>([])
        Thread.detachNewThread {
            runtime.suspend()
            seenWhenReturned.withLock { $0 = backend.calls }
            returned.signal()
        }
        backend.gate.signal()
        returned.wait()
        shutDown.wait()
        #expect(backend.calls == ["finish", "suspend"], "suspend() during the shutdown did not reach the backend")
        #expect(
            seenWhenReturned.withLock { $0 } == ["finish", "suspend"],
            "suspend() returned before the screen was given back")
    }

    @Test func ctrlZAfterTheShutdownReturnsAtOnce() {
        // The presenter thread has ended: suspend() runs on the caller's
        // thread, where the finished backend has nothing to take off.
        let backend = GatedBackend()
        let runtime = PresenterRuntime(
            registry: PresenterRegistry(plugins: []), backend: backend, isolation: .inProcess)
        backend.gate.signal()
        runtime.shutdown()
        runtime.suspend()
        #expect(backend.calls == ["finish", "suspend"])
    }
}
