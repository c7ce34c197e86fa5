import HostSystem

/// Whether a ``PresenterRuntime`` has settled, and whether it is shut down:
/// the state any thread may read, under one lock.
///
/// A job is admitted and queued under the same lock that shutdown's flag is
/// set under, so every job admitted runs before shutdown destroys the
/// instances; and no one sees the runtime settled while a job is pending.
final class RuntimeSettling: Sendable {
    private struct State {
        var pendingJobs = 0
        var settled = true
        var shutDown = false
    }

    private let state = ConditionLock(State())

    /// True once ``beginShutdown()`` was called.
    var isShutDown: Bool { state.withLock { $0.shutDown } }

    /// Counts a job and runs `queue` (which queues it) under the lock,
    /// unless the runtime is shut down; returns what `queue` returned, or
    /// false (the job dropped). Call ``jobDone()`` once the job ran.
    func admit(_ queue: () -> Bool) -> Bool {
        state.withLock {
            guard !$0.shutDown else { return false }
            $0.pendingJobs += 1
            $0.settled = false
            return queue()
        }
    }

    /// Counts a job run at once (``PresenterRuntime``'s counted sync);
    /// false after shutdown, when it is not counted (no ``jobDone()`` then).
    func admitNow() -> Bool {
        admit { true }
    }

    /// An admitted job has run.
    func jobDone() {
        state.withLock { $0.pendingJobs -= 1 }
    }

    /// After a frame: settled when the presenter thread found nothing
    /// going on (`quiet`) and no job is pending.
    func update(quiet: Bool) {
        let settled = state.withLock {
            $0.settled = quiet && $0.pendingJobs == 0
            return $0.settled
        }
        if settled { state.broadcast() }
    }

    /// Marks the runtime shut down; true for the first call only.
    func beginShutdown() -> Bool {
        state.withLock { state in
            defer { state.shutDown = true }
            return !state.shutDown
        }
    }

    /// The shutdown is done: whoever waits for the runtime to settle goes on.
    func endShutdown() {
        state.withLock { $0.settled = true }
        state.broadcast()
    }

    /// Waits until settled, at most `timeout` seconds (nil: for ever), on
    /// the monotonic clock (a wall clock set back must not stretch the
    /// wait). Returns whether it settled.
    func wait(timeout: Double?) -> Bool {
        let deadline = timeout.map { MonotonicTime.nanoseconds() + UInt64($0.isNaN ? 0 : max(0, min($0, 1e9)) * 1e9) }
        return state.withLock(waitingUntil: { $0.settled }, deadline: { _ in deadline }) { _, settled in settled }
    }
}
