#if canImport(Glibc)
    import Glibc
#endif

/// The files many runs on one terminal meet at (`TerminalShare` in
/// HostCommandLine): a lock per terminal, named after its device, in a
/// folder only this user can enter. The system calls live here
/// (LayeringTests); the protocol is the command line's.
///
/// The folder is `$XDG_RUNTIME_DIR/presenter-host`, else
/// `/tmp/presenter-host-<uid>`, made 0700. One that is a symbolic link,
/// is not this user's, or lets anyone else in is refused: another user
/// who made it first could read the socket's lines, or answer in our
/// place. Whatever fails, the caller draws as it would alone.
package enum TerminalLockFile {
    /// What ``tryLock(_:)`` found.
    package enum Claim: Equatable, Sendable {
        /// This process holds the lock now.
        case locked
        /// Another process holds it.
        case held
        /// The lock cannot be taken at all (no locks on this file system).
        case failed
    }

    /// The private folder for `environment` (the process's, read once),
    /// made if it is not there; nil when it cannot be made, or is refused
    /// (a symbolic link, another user's, open to group or others).
    package static func privateDirectory(_ environment: [String: String]) -> String? {
        let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
        let path =
            runtime.hasPrefix("/") ? runtime + "/presenter-host" : "/tmp/presenter-host-\(UserAccount.effectiveUserID)"
        if mkdir(path, 0o700) != 0 && errno != EEXIST { return nil }
        // O_NOFOLLOW: a link put in its place is refused, not followed.
        guard let folder = try? FileDescriptor.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW) else { return nil }
        defer { try? folder.close() }
        guard let info = try? folder.status(), info.st_uid == UserAccount.effectiveUserID,
            info.st_mode & 0o077 == 0
        else { return nil }
        return path
    }

    /// The device number of the terminal open at `fd` (its `st_rdev`),
    /// which every process drawing on that terminal shares whatever name
    /// it opened it by; nil when `fd` is not a character device.
    package static func terminalDevice(_ fd: FileDescriptor) -> UInt64? {
        guard let info = try? fd.status(), info.st_mode & S_IFMT == S_IFCHR else { return nil }
        return UInt64(info.st_rdev)
    }

    /// Opens (or makes, 0600) the lock file at `path`, never through a link.
    package static func open(_ path: String) -> FileDescriptor? {
        try? FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, permissions: 0o600)
    }

    /// Tries the exclusive `flock` lock of `fd` without waiting
    /// (`LOCK_EX | LOCK_NB`); it is released when `fd` closes.
    package static func tryLock(_ fd: FileDescriptor) -> Claim {
        while flock(fd.rawValue, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return errno == EWOULDBLOCK ? .held : .failed
        }
        return .locked
    }
}
