import Dispatch
import HostEngine
import HostSystem

/// The one thread that runs every plugin hook and host service, every
/// render and every backend call: a job queue served in order, plus a
/// wake-up time for the frame timer.
///
/// A dedicated thread rather than a serial dispatch queue because the ABI
/// promises plugins one thread, not merely one call at a time. Its timer is
/// the timed wait of that thread: armed only while a wake-up is set, so
/// nothing ticks while nothing animates.
// Safe: `jobs`, `wakeAt`, `stopping` and `hasExited` only under `condition`; `threadID` is set
// before init returns.
final class PresenterThread: @unchecked Sendable {
    /// Its timed wait is the frame timer: on the monotonic clock `wakeAt`
    /// is on, so a wall clock set back cannot stall the frames.
    private let condition = MonotonicCondition()
    /// Jobs in order; `done` is signalled after the job ran and was released
    /// (so `sync` can lend a non-escaping closure).
    private var jobs: [(run: () -> Void, done: DispatchSemaphore?)] = []
    private var wakeAt: UInt64?
    private var stopping = false
    private let exited = DispatchSemaphore(value: 0)
    private var hasExited = false
    /// Set once, on the thread, before init returns.
    private var thread: ThreadIdentity?
    /// Called on the thread after each batch of jobs.
    private let afterJobs: () -> Void
    /// Called on the thread when the wake-up time comes.
    private let onWake: () -> Void

    init(name: String, afterJobs: @escaping () -> Void, onWake: @escaping () -> Void) {
        self.afterJobs = afterJobs
        self.onWake = onWake
        // The thread keeps this object alive until it exits.
        let started = DispatchSemaphore(value: 0)
        DetachedThread.start(name: name) {
            self.thread = .current
            started.signal()
            self.run()
        }
        started.wait()
    }

    /// True on the presenter thread.
    var isCurrent: Bool { thread?.isCurrent ?? false }

    /// Stops a debug build when presenter-thread-only state is touched from
    /// another thread. Once the thread exited, ``sync(_:)`` runs its body on
    /// the caller's thread, which then stands in for it.
    func assertCurrent(file: StaticString = #fileID, line: UInt = #line) {
        assert(isCurrent || condition.withLock { hasExited }, "presenter thread only", file: file, line: line)
    }

    /// Queues `job`; false (and the job dropped) once the thread is stopping.
    @discardableResult
    func async(_ job: @escaping () -> Void) -> Bool {
        queue(job, done: nil)
    }

    private func queue(_ job: @escaping () -> Void, done: DispatchSemaphore?) -> Bool {
        condition.withLock {
            guard !stopping else { return false }
            jobs.append((job, done))
            condition.signal()
            return true
        }
    }

    /// Runs `body` on the thread and returns its result. On the thread itself
    /// it runs at once; after the thread exited, on the caller's thread
    /// (nothing else can run then).
    func sync<T>(_ body: () throws -> T) rethrows -> T {
        if isCurrent && !condition.withLock({ hasExited }) { return try body() }
        return try withoutActuallyEscaping(body) { body in
            var result: Result<T, Error>?
            let done = DispatchSemaphore(value: 0)
            let queued = queue({ result = Result { try body() } }, done: done)
            if queued { done.wait() } else { waitForExit(); result = Result { try body() } }
            return try result!.get()
        }
    }

    /// Sets (or with `nil` clears) the time, on the monotonic clock, at which
    /// `onWake` runs. Call on the thread.
    func setWakeup(_ time: UInt64?) {
        condition.withLock { wakeAt = time }
    }

    /// Runs the jobs already queued, then ends the thread; returns once it ended.
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
        if !isCurrent { waitForExit() }
    }

    private func waitForExit() {
        let already = condition.withLock { hasExited }
        if !already { exited.wait(); exited.signal() }
    }

    private func run() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                var batch = jobs
                jobs.removeAll()
                condition.unlock()
                for index in batch.indices {
                    batch[index].run()
                    let done = batch[index].done
                    batch[index] = ({}, nil)
                    done?.signal()
                }
                afterJobs()
                condition.lock()
                continue
            }
            if stopping { break }
            if let wakeAt {
                let now = MonotonicClock().now()
                if now >= wakeAt {
                    self.wakeAt = nil
                    condition.unlock()
                    onWake()
                    condition.lock()
                } else {
                    condition.wait(untilNanoseconds: wakeAt)
                }
            } else {
                condition.wait()
            }
        }
        hasExited = true
        condition.unlock()
        exited.signal()
    }
}
