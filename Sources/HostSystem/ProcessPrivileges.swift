import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// The privileges a process that runs plugin code gives up, for ever, as it
/// enters its sandbox (``PluginConfinement``'s `privileges` layer): a
/// program it could still run would gain none, and it keeps no capability,
/// in the host's user namespace or in one of its own.
package enum ProcessPrivileges {
    /// No exec can grant this process, or a process it starts, a privilege
    /// again: no setuid bit, no file capability (`prctl(PR_SET_NO_NEW_PRIVS)`).
    /// What an unprivileged process needs before it may load a seccomp
    /// filter or restrict itself with Landlock.
    /// - Throws: `prctl` and its errno.
    package static func forbidNew() throws(Errno) {
        guard ph_no_new_privileges() == 0 else { throw Errno(call: "prctl", code: errno) }
    }

    /// Drops every capability: the ambient set, the bounding set (where
    /// this process may), then the effective, permitted and inheritable
    /// sets. A process started in a user namespace of its own holds them
    /// all there.
    /// - Throws: `capset` and its errno when some are left.
    package static func dropCapabilities() throws(Errno) {
        guard ph_drop_capabilities() == 0 else { throw Errno(call: "capset", code: errno) }
    }
}
