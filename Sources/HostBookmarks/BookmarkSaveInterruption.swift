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
// Safe: `interrupted` only under `condition`.
package final class BookmarkSaveInterruption: @unchecked Sendable {
    let condition = MonotonicCondition()
    /// Set once, by ``interrupt()``.
    var interrupted = false

    /// A save not interrupted yet.
    package init() {}

    /// Ends the wait for the lock and forbids the commit, unless the commit
    /// is under way (then this returns once it is done). Any thread.
    package func interrupt() {
        condition.withLock {
            interrupted = true
            condition.broadcast()
        }
    }

    /// Waits until the monotonic time `deadline` (``MonotonicTime``, ns) or
    /// until ``interrupt()``, whichever comes first: the screen's minimum
    /// time on "Saving...", which a signal ends at once (no wait outlives a
    /// signal).
    package func wait(until deadline: UInt64) {
        condition.withLock {
            while !interrupted && MonotonicTime.nanoseconds() < deadline {
                _ = condition.wait(untilNanoseconds: deadline)
            }
        }
    }

    /// Whether ``interrupt()`` was called.
    package var isInterrupted: Bool { condition.withLock { interrupted } }
}
