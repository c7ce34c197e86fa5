#if canImport(Glibc)
    import Glibc
#endif

/// One thread of this process, as `pthread_self` names it: kept by code
/// that must run on one thread only (the presenter thread, the presenter
/// process's main thread), to tell later whether it does. Comparing asks
/// no system call, as an assertion on every engine call needs.
package struct ThreadIdentity: Sendable {
    @usableFromInline let thread: pthread_t

    init(thread: pthread_t) { self.thread = thread }

    /// The calling thread.
    package static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    /// Whether the calling thread is this one: inlined where it is asked (the
    /// presenter thread's state asks at every access), and compared as the
    /// values `pthread_self` gives, which on Linux is what `pthread_equal` does.
    @inlinable package var isCurrent: Bool { thread == pthread_self() }
}
