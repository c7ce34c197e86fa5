#if canImport(Glibc)
    import Glibc
#endif

/// The changes the host's helper processes make to their own resource
/// limits (`setrlimit`), in one place. The host itself never changes one
/// while its command may inherit the change: only, once the command has
/// ended, its core limit as it dies of the command's signal
/// (``ProcessEnd/killed(by:)``).
package enum ResourceLimit {
    /// Raises the soft open-file limit to the hard one. For the scan helper,
    /// which keeps a descriptor for each library it loads.
    package static func raiseOpenFilesToHardLimit() {
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
    }

    /// Caps both limits of `resource` at `value` (a lower limit already set
    /// is kept), so that the process cannot raise it again; false when the
    /// kernel refused.
    @discardableResult
    package static func cap(_ resource: __rlimit_resource, at value: rlim_t) -> Bool {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0 else { return false }
        limit.rlim_cur = min(limit.rlim_cur, value)
        limit.rlim_max = min(limit.rlim_max, value)
        return setrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0
    }

    /// Caps the process ids of this process's own PID namespace at `count`
    /// (its `pid_max`, per namespace from Linux 6.14; at least 301): every
    /// thread takes one, so no more threads than that can run in it, whoever
    /// the user (RLIMIT_NPROC never binds root). Needs CAP_SYS_ADMIN in the
    /// namespace's user namespace; false when the kernel refused.
    package static func capProcessIDsOfOwnNamespace(at count: Int) -> Bool {
        guard let file = try? FileDescriptor.open("/proc/sys/kernel/pid_max", O_WRONLY) else { return false }
        return file.closeAfter { (try? $0.writeAll(Array("\(count)\n".utf8))) != nil }
    }

    /// Caps the address space at `bytes`, the hard limit too (so a plugin
    /// cannot raise it again); a lower limit already set is kept.
    package static func capAddressSpace(at bytes: rlim_t) {
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur > bytes {
            limit.rlim_cur = bytes
            limit.rlim_max = min(limit.rlim_max, bytes)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        }
    }
}
