#if canImport(Glibc)
    import Glibc
#endif

/// A lock with a condition whose timed wait runs on the host's one
/// monotonic clock (``MonotonicTime``, CLOCK_MONOTONIC).
///
/// `NSCondition.wait(until:)` takes a `Date`: its wait ends by the wall
/// clock, so a wall clock set back (by NTP or by hand) stalls the wait by
/// as much, and a frame timer built on it would freeze the animation. A
/// pthread condition whose attribute names CLOCK_MONOTONIC waits until a
/// time on the clock the deadlines are computed on.
// Safe: the mutex and the condition are used only through the pthread calls,
// which are thread-safe; both live at fixed addresses until deinit.
package final class MonotonicCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (holding the lock) until signalled. As with every condition,
    /// a wake-up may be spurious: check the state it guards again.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits (holding the lock) until signalled or the monotonic clock
    /// reaches `deadline` (nanoseconds, as ``MonotonicTime/nanoseconds()``);
    /// false when the deadline passed.
    @discardableResult
    package func wait(untilNanoseconds deadline: UInt64) -> Bool {
        var time = timespec(
            tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    /// Wakes one waiter.
    package func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
