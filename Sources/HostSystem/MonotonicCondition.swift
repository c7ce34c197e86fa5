#if canImport(Glibc)
    import Glibc
#endif
import SystemShims

/// A lock with a condition whose timed wait runs on the host's one
/// monotonic clock (``MonotonicTime``, CLOCK_MONOTONIC).
///
/// `NSCondition.wait(until:)` takes a `Date`: its wait ends by the wall
/// clock, so a wall clock set back (by NTP or by hand) stalls the wait by
/// as much, and a frame timer built on it would freeze the animation. This
/// one waits until a time on CLOCK_MONOTONIC, the clock the deadlines are
/// computed on.
///
/// The condition is a futex word of its own (`ph_condition_word`), not a
/// pthread condition: glibc hands a timed wait's mutex back marked
/// contended, so every unlock after a frame timer's wake-up made a futex
/// wake system call for no one. Here the timer's wake-up is one system
/// call, and the mutex stays an ordinary pthread mutex. A wake may reach a
/// waiter that came after the signal rather than one that was waiting
/// (each re-checks its state, as with any condition); the frame timer has
/// one waiter.
// Safe: the mutex is used only through the pthread calls and the word only
// through the ph_condition_ calls, both thread-safe; both live at fixed
// addresses until deinit.
@usableFromInline final class MonotonicCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let word = UnsafeMutablePointer<ph_condition_word>.allocate(capacity: 1)

    @usableFromInline init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        word.initialize(to: ph_condition_word(sequence: 0, waiters: 0))
    }

    deinit {
        pthread_mutex_destroy(mutex)
        word.deallocate()
        mutex.deallocate()
    }

    @usableFromInline func lock() { pthread_mutex_lock(mutex) }
    @usableFromInline func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (holding the lock) until signalled. As with every condition,
    /// a wake-up may be spurious: check the state it guards again.
    @usableFromInline func wait() { _ = sleep(until: nil) }

    /// Waits (holding the lock) until signalled or the monotonic clock
    /// reaches `deadline` (nanoseconds, as ``MonotonicTime/nanoseconds()``);
    /// false when the deadline passed.
    @discardableResult
    @usableFromInline func wait(untilNanoseconds deadline: UInt64) -> Bool {
        var time = timespec(
            tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return withUnsafePointer(to: &time) { sleep(until: $0) }
    }

    /// Wakes one waiter.
    @usableFromInline func signal() { ph_condition_wake(word, 0) }
    /// Wakes every waiter.
    @usableFromInline func broadcast() { ph_condition_wake(word, 1) }

    /// Unlocks, sleeps until woken or `deadline` (absolute, monotonic),
    /// locks again; false when the deadline passed.
    private func sleep(until deadline: UnsafePointer<timespec>?) -> Bool {
        let seen = ph_condition_prepare(word)
        pthread_mutex_unlock(mutex)
        let passed = ph_condition_block(word, seen, deadline) != 0
        pthread_mutex_lock(mutex)
        return !passed
    }
}
