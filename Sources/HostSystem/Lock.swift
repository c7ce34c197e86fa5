#if canImport(Glibc)
    import Glibc
#endif

/// A mutual-exclusion lock (a pthread mutex), the one under ``LockedValue``:
/// the host's `NSLock`, without Foundation, whose import loads ICU's
/// libraries into every process at start (docs/BENCHMARKS.md).
/// ThreadSanitizer sees it, as it sees every pthread mutex.
// Safe: the mutex is used only through the pthread calls, which are
// thread-safe; it lives at a fixed address until deinit.
@usableFromInline final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    @usableFromInline init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @usableFromInline func lock() { pthread_mutex_lock(mutex) }
    @usableFromInline func unlock() { pthread_mutex_unlock(mutex) }
}
