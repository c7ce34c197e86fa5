#if canImport(Glibc)
    import Glibc
#endif

/// What is at a path, asked of the file system by name (`stat`, `lstat`,
/// `access`), before or without opening it: the plugin search path's
/// folders and candidates, the registry cache's key, the bookmark store's
/// links and folders, drive's socket file. The status of a file already
/// open is ``FileDescriptor/status()``, of a name in an open folder
/// ``FileDescriptor/status(ofLink:)``: a check by name can be outdated by
/// the time the file is opened, which is why discovery's checks that
/// matter are made again on the descriptor loading opens.
///
/// Not retried on EINTR: Linux's `stat`, `lstat` and `access` do not fail
/// with it (their manual pages list no EINTR), and the host never did.
package enum FileStatus {
    /// The status of what `path` names, its symbolic links followed (`stat`).
    /// - Throws: `stat` and its errno (ENOENT for a dangling link).
    package static func of(_ path: String) throws(Errno) -> stat {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Errno(call: "stat", code: errno) }
        return info
    }

    /// The status of `path` itself: of a symbolic link, not of what it
    /// points to (`lstat`).
    /// - Throws: `lstat` and its errno.
    package static func ofLink(_ path: String) throws(Errno) -> stat {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Errno(call: "lstat", code: errno) }
        return info
    }

    /// Whether `path` names a symbolic link (`lstat`); false when nothing
    /// has the name or it cannot be reached.
    package static func isSymbolicLink(_ path: String) -> Bool {
        guard let info = try? ofLink(path) else { return false }
        return info.st_mode & S_IFMT == S_IFLNK
    }

    /// The owner of `path` when it is a symbolic link another user placed in
    /// a shared folder, one the kernel's `protected_symlinks` rule would
    /// not follow (whatever the sysctl says): a link in a sticky or
    /// other-writable folder, owned neither by this user nor by the
    /// folder's owner. Such a link makes whoever follows it write where its
    /// owner chose (`/tmp/run.log` pointing at the user's `~/.bashrc`).
    /// Nil for anything else, or when the name cannot be reached.
    package static func foreignLinkOwner(_ path: String) -> uid_t? {
        guard let link = try? ofLink(path), link.st_mode & S_IFMT == S_IFLNK,
            let folder = try? of(PathName(path).parent),
            folder.st_mode & (S_ISVTX | S_IWOTH) != 0,
            link.st_uid != geteuid(), link.st_uid != folder.st_uid
        else { return nil }
        return link.st_uid
    }

    /// The owner of the regular file or FIFO open as `fd`, named `path`,
    /// when another user made it in a shared folder: one the kernel's
    /// `protected_regular` and `protected_fifos` rules would not let
    /// `O_CREAT` open (whatever the sysctls say; a FIFO's reader would read
    /// the run's events), in a sticky or other-writable folder, owned neither by
    /// this user nor by the folder's owner. Appending to it would write
    /// into a file its owner reads, chose the name of, and may have made
    /// writable to all for that. Nil for anything else (a device, a folder,
    /// a file of this user's), or when the folder cannot be reached.
    package static func foreignFileOwner(_ fd: FileDescriptor, named path: String) -> uid_t? {
        guard let file = try? fd.status(), [S_IFREG, S_IFIFO].contains(file.st_mode & S_IFMT),
            let folder = try? of(PathName(path).parent),
            folder.st_mode & (S_ISVTX | S_IWOTH) != 0,
            file.st_uid != geteuid(), file.st_uid != folder.st_uid
        else { return nil }
        return file.st_uid
    }

    /// Whether something has the name `path` and can be reached, a link's
    /// target included (`access(F_OK)`): a dangling link does not exist.
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether this user may run the file at `path` (`access(X_OK)`, on the
    /// process's real user and group ids).
    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }
}
