#if canImport(Glibc)
    import Glibc
#endif

/// The user the host runs as, and the user database's word on users: who
/// owns a plugin file or a cache (the effective ids), the name a refusal
/// shows for an owner, the home folder when `HOME` says none.
package enum UserAccount {
    /// The user this process acts as (`geteuid`): whose files it may trust
    /// (a plugin's, the registry cache's), and who owns what it creates.
    package static var effectiveUserID: uid_t { geteuid() }

    /// The group this process acts as (`getegid`): which group a file it
    /// creates gets.
    package static var effectiveGroupID: gid_t { getegid() }

    /// The name the user database gives `uid` (`getpwuid_r`), nil for an
    /// id it has none for.
    package static func name(of uid: uid_t) -> String? {
        entry(of: uid) { $0.pw_name.map { String(cString: $0) } }
    }

    /// The home folder the user database gives the user who started the
    /// process (`getuid`; `""` when none), for a `HOME` that is unset or
    /// relative.
    package static func homeDirectory() -> String {
        entry(of: getuid()) { $0.pw_dir.map { String(cString: $0) } } ?? ""
    }

    /// What `read` takes from the user database's entry of `uid`; nil when
    /// there is none. `getpwuid_r`, not `getpwuid`: the entry is in a buffer
    /// of this call's own, never in static memory that another thread's
    /// look-up could overwrite while it is read.
    private static func entry<Value>(of uid: uid_t, _ read: (passwd) -> Value?) -> Value? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        // A directory service's entry may not fit the usual size: twice as
        // large until it does (ERANGE), up to a megabyte.
        var size = max(4096, sysconf(Int32(_SC_GETPW_R_SIZE_MAX)))
        while size <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: size)
            let result = getpwuid_r(uid, &entry, &buffer, buffer.count, &found)
            if result == ERANGE {
                size *= 2
                continue
            }
            guard result == 0, found != nil else { return nil }
            // The entry's strings are in the buffer: it must outlive their reading.
            return withExtendedLifetime(buffer) { read(entry) }
        }
        return nil
    }
}
