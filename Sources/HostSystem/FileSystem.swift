#if canImport(Glibc)
    import Glibc
#endif

/// The calls that change the file system's names rather than an open
/// file: making a folder, renaming a file over another, removing one. The
/// registry cache and the bookmark store save by writing a temporary file
/// and renaming it over the old one; drive removes its socket file.
///
/// Not retried on EINTR: Linux's `mkdir`, `rename` and `unlink` do not
/// fail with it, and the host never did. Each failure throws the call's
/// ``Errno``; a caller that tidies up and has nothing to say about a
/// failure ignores it (`try?`).
package enum FileSystem {
    /// Makes the folder `path` with `permissions` (less the umask), its
    /// parent already there (`mkdir`).
    /// - Throws: `mkdir` and its errno (EEXIST when something has the name).
    package static func makeDirectory(_ path: String, permissions: mode_t) throws(Errno) {
        guard mkdir(path, permissions) == 0 else { throw Errno(call: "mkdir", code: errno) }
    }

    /// Gives the file at `path` the name `newPath`, replacing what had it,
    /// at once for every reader: one sees the old file or the new one,
    /// never neither (`rename`; both in the same file system).
    /// - Throws: `rename` and its errno.
    package static func rename(_ path: String, to newPath: String) throws(Errno) {
        guard Glibc.rename(path, newPath) == 0 else { throw Errno(call: "rename", code: errno) }
    }

    /// Removes the name `path` (`unlink`): a file, a link or a socket, not
    /// a folder. A file still open elsewhere lives on until it is closed.
    /// - Throws: `unlink` and its errno.
    package static func remove(_ path: String) throws(Errno) {
        guard unlink(path) == 0 else { throw Errno(call: "unlink", code: errno) }
    }
}
