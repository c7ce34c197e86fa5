#if canImport(Glibc)
    import Glibc
#endif

/// The descriptors below which the commands that run work under a
/// presenter (`run`, `drive`, `add-bookmark`, `check`) refuse to start.
///
/// libdispatch, the signal pipes, the command's pipes, the presenter
/// process (its channel, its log and its sandbox's report pipe) and the
/// output pumps (a wake pipe each, and up to three in a terminal: the
/// command's output, its progress channel, the presenter process's output)
/// and in a terminal the region's own writer (``TerminalWriter``) take
/// about nineteen descriptors, and libdispatch cannot fail
/// gracefully without its own: it stops the process (SIGILL) when its
/// first source finds no descriptor for its epoll or eventfd. So what is
/// free is checked first, and a shortage is one clear line. The limit is
/// never raised: the command would inherit the change.
///
/// Free means below the soft limit: a descriptor is always the lowest
/// unused number, and `EMFILE` comes once that number reaches the limit.
/// So the descriptors the host inherited count against it too
/// (`exec 3<&0 ...` in a shell, then `ulimit -n 20`).
package enum DescriptorLimit {
    /// The least soft `RLIMIT_NOFILE` the commands start with, stdin,
    /// stdout and stderr included.
    package static let needed: UInt64 = 22

    /// What is short at start-up.
    package enum Shortfall: Equatable {
        /// The soft limit itself is below ``needed``.
        case limit(UInt64)
        /// The limit is enough, but `inherited` descriptors besides stdin,
        /// stdout and stderr are open below it, leaving `free`, fewer than
        /// ``needed`` minus those three.
        case inherited(limit: UInt64, inherited: Int, free: Int)
    }

    /// The soft `RLIMIT_NOFILE`: no descriptor numbered at or above it can
    /// be opened. Nil when it cannot be read.
    package static var soft: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// What is short, or nil when enough is free (or the limit cannot be
    /// read, and then the commands try anyway).
    package static func shortfall() -> Shortfall? {
        guard let soft else { return nil }
        if soft < needed { return .limit(soft) }
        // Not counted under a large (or unlimited) limit: that would be up
        // to a million calls at every start, for a host that inherited
        // thousands of descriptors, which no caller does.
        guard soft < 4096 else { return nil }
        let open = openBelow(soft)
        let standard = open.filter { $0 <= 2 }.count
        let free = Int(soft) - open.count
        guard free < Int(needed) - 3 else { return nil }
        return .inherited(limit: soft, inherited: open.count - standard, free: free)
    }

    /// The numbers of the open descriptors below `limit` (at most a few
    /// thousand `fcntl(F_GETFD)` calls, which allocate nothing).
    private static func openBelow(_ limit: UInt64) -> [Int32] {
        (0..<Int32(limit)).filter { fcntl($0, F_GETFD) != -1 }
    }
}
