import HostSystem

/// What ends a save that has not committed yet: the command's trapped
/// signals (SIGTERM, SIGINT, SIGHUP, SIGQUIT) call ``interrupt()``.
///
/// A save waits for the store's lock as long as another save holds it;
/// one that ignored SIGTERM there saved once the lock freed, said "saved",
/// and exited 143. With an interruption, the wait ends when it is
/// interrupted, and a save commits (renames its new file over the store)
/// only if it was not interrupted first: an interrupted save changes
/// nothing (``BookmarkStoreError/Kind/interrupted``).
package final class BookmarkSaveInterruption: Sendable {
    /// A save's wait for the store's lock (``BookmarkStoreFile``): its
    /// `flock` blocks on a thread of its own.
    enum LockWait {
        case waiting
        /// The `flock` returned: the error, or nil when the lock is held.
        case ended(Errno?)
        /// Given up (interrupted): the thread lets the lock go once it gets it.
        case abandoned
    }

    struct State {
        /// Set once, by ``interrupt()``.
        var interrupted = false
        /// The lock waits under way, by number.
        var lockWaits: [Int: LockWait] = [:]
        var lastLockWait = 0
    }

    let state = ConditionLock(State())

    /// A save not interrupted yet.
    package init() {}

    /// Ends the wait for the lock and forbids the commit, unless the commit
    /// is under way (then this returns once it is done). Any thread.
    package func interrupt() {
        state.withLock { $0.interrupted = true }
        state.broadcast()
    }

    /// Waits until the monotonic time `deadline` (``MonotonicTime``, ns) or
    /// until ``interrupt()``, whichever comes first: the screen's minimum
    /// time on "Saving...", which a signal ends at once (no wait outlives a
    /// signal).
    package func wait(until deadline: UInt64) {
        state.withLock(
            waitingUntil: { $0.interrupted || MonotonicTime.nanoseconds() >= deadline }, deadline: { _ in deadline }
        ) { _, _ in }
    }

    /// Whether ``interrupt()`` was called.
    package var isInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Runs `commit` under the lock unless interrupted first; false then.
    /// Once the signal is handled, no save can commit any more.
    func unlessInterrupted<E: Error>(_ commit: () throws(E) -> Void) throws(E) -> Bool {
        try state.withLock { state throws(E) in
            guard !state.interrupted else { return false }
            try commit()
            return true
        }
    }
}
