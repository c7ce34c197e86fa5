import HostSystem

/// Whether a ``PresenterRuntime`` has settled, and whether it is shut down:
/// the state any thread may read, under one lock.
///
/// A job is admitted and queued under the same lock that shutdown's flag is
/// set under, so every job admitted runs before shutdown destroys the
/// instances; and no one sees the runtime settled while a job is pending.
final class RuntimeSettling: @unchecked Sendable {
    // Safe: every `var` is read and written under `condition` only.
    private let condition = MonotonicCondition()
    private var pendingJobs = 0
    private var settled = true
    private var shutDown = false

    /// True once ``beginShutdown()`` was called.
    var isShutDown: Bool { condition.withLock { shutDown } }

    /// Counts a job and runs `queue` (which queues it) under the lock,
    /// unless the runtime is shut down; returns what `queue` returned, or
    /// false (the job dropped). Call ``jobDone()`` once the job ran.
    func admit(_ queue: () -> Bool) -> Bool {
        condition.withLock {
            guard !shutDown else { return false }
            pendingJobs += 1
            settled = false
            return queue()
        }
    }

    /// Counts a job run at once (``PresenterRuntime``'s counted sync);
    /// false after shutdown, when it is not counted (no ``jobDone()`` then).
    func admitNow() -> Bool {
        condition.withLock {
            guard !shutDown else { return false }
            pendingJobs += 1
            settled = false
            return true
        }
    }

    /// An admitted job has run.
    func jobDone() {
        condition.withLock { pendingJobs -= 1 }
    }

    /// After a frame: settled when the presenter thread found nothing
    /// going on (`quiet`) and no job is pending.
    func update(quiet: Bool) {
        condition.withLock {
            settled = quiet && pendingJobs == 0
            if settled { condition.broadcast() }
        }
    }

    /// Marks the runtime shut down; true for the first call only.
    func beginShutdown() -> Bool {
        condition.withLock {
            defer { shutDown = true }
            return !shutDown
        }
    }

    /// The shutdown is done: whoever waits for the runtime to settle goes on.
    func endShutdown() {
        condition.withLock {
            settled = true
            condition.broadcast()
        }
    }

    /// Waits until settled, at most `timeout` seconds (nil: for ever), on
    /// the monotonic clock (a wall clock set back must not stretch the
    /// wait). Returns whether it settled.
    func wait(timeout: Double?) -> Bool {
        let deadline = timeout.map { MonotonicTime.nanoseconds() + UInt64($0.isNaN ? 0 : max(0, min($0, 1e9)) * 1e9) }
        condition.lock()
        defer { condition.unlock() }
        while !settled {
            if let deadline {
                if !condition.wait(untilNanoseconds: deadline) { return settled }
            } else {
                condition.wait()
            }
        }
        return true
    }
}
