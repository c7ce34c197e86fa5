#if canImport(Glibc)
    import Glibc
#endif

/// The open-file limit below which the commands that run work under a
/// presenter (`run`, `drive`, `add-bookmark`, `check`) refuse to start.
///
/// libdispatch, the signal pipes, the command's pipes and the presenter
/// process take about a dozen descriptors, and libdispatch cannot fail
/// gracefully without its own: it stops the process (SIGILL) at
/// `ulimit -n 6`. The limit is checked first, so that a tiny limit is one
/// clear line. It is never raised: the command would inherit the change.
enum DescriptorLimit {
    /// The least soft `RLIMIT_NOFILE` the commands start with.
    static let needed: UInt64 = 16

    /// The soft limit when it is below ``needed``; nil when it is enough
    /// (or cannot be read, and then the commands try anyway).
    static func shortfall() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return UInt64(limit.rlim_cur) < needed ? UInt64(limit.rlim_cur) : nil
    }
}
