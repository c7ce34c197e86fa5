import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// A detached pthread running one closure: the host's threads (the
/// presenter thread, the key reader, drive's readers, the scan helper's
/// lifeline), without Foundation's `Thread`, whose import loads ICU's
/// libraries into every process at start (docs/BENCHMARKS.md).
package enum DetachedThread {
    /// Starts `body` on a new thread named `name` (the first 15 bytes, as
    /// `ps -L` and gdb show it). A thread that cannot be made is a process
    /// that cannot go on (the host makes a handful, at start). Returns the
    /// new thread, for code that must later tell whether it runs on it.
    @discardableResult
    package static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) -> ThreadIdentity {
        let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let status = pthread_create(
            &thread, &attributes,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                if let name = box.name { _ = ph_set_process_name(name) }  // this thread's name: prctl(PR_SET_NAME)
                box.body()
                return nil
            }, box)
        pthread_attr_destroy(&attributes)
        precondition(status == 0, "pthread_create: \(String(cString: strerror(status)))")
        return ThreadIdentity(thread: thread)
    }

    /// True on the process's main thread (its thread id is its process id).
    package static var isMainThread: Bool { ph_gettid() == getpid() }

    private final class Box: Sendable {
        let name: String?
        let body: @Sendable () -> Void
        init(name: String?, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
