import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// A descriptor number of this process, and the one place the host makes
/// the system calls that take one: opening, closing, duplicating, flags,
/// status. Reading, writing and waiting are in `FileDescriptor+IO.swift`,
/// pipes and sockets in `FileDescriptor+Sockets.swift`. Code outside
/// HostSystem calls these methods, never `close(2)` or `read(2)` itself
/// (`scripts/layers` checks it), and uses ``rawValue`` only where a C API
/// wants the number.
///
/// A plain value, as an `Int32` was: it owns nothing and closes nothing by
/// itself; whoever opened it closes it, once (``close()``), or scopes it
/// with ``closeAfter(_:)``. Every descriptor it opens is close-on-exec from
/// its creation, so no process another thread spawns meanwhile inherits it;
/// only ``duplicate(as:)`` makes one a child may inherit, on purpose.
///
/// Every call that can be interrupted is retried on EINTR through
/// ``retryingOnInterrupt(_:_:)``, except `close`; a failure throws the
/// call's ``Errno``.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The number, for a C API that takes one.
    public let rawValue: CInt

    /// The descriptor numbered `rawValue` (opened elsewhere, or not open).
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// Descriptor 0.
    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    /// Descriptor 1.
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    /// Descriptor 2: where the host draws its progress.
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)
}

// MARK: - Opening and closing

extension FileDescriptor {
    /// Opens `path` with `flags` (`O_RDONLY | O_NOFOLLOW`, ...), close-on-exec
    /// whether or not `flags` says so; `permissions` for a file `O_CREAT` makes.
    /// - Throws: `open` and its errno.
    package static func open(_ path: String, _ flags: CInt, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(
            rawValue: try retryingOnInterrupt("open") { Glibc.open(path, flags | O_CLOEXEC, permissions) })
    }

    /// Opens `path` with O_PATH (close-on-exec): a descriptor that holds a
    /// number and names the file, but cannot be read or written (EBADF).
    /// - Throws: `open` and its errno.
    package static func openPath(_ path: String) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("open") { ph_open_path_cloexec(path) })
    }

    /// Opens `name` in the directory open at this descriptor (`openat`), as
    /// ``open(_:_:permissions:)`` does (`permissions` for a file `O_CREAT`
    /// makes): the name cannot be swapped for one in
    /// another directory between a check of the directory and the open.
    /// - Throws: `openat` and its errno.
    package func open(named name: String, _ flags: CInt, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(
            rawValue: try retryingOnInterrupt("openat") { openat(rawValue, name, flags | O_CLOEXEC, permissions) })
    }

    /// Closes the descriptor. Call it once: the number is free at once, and
    /// may be another descriptor's by the time a second call made.
    ///
    /// Never retried on EINTR: Linux frees the number before anything can
    /// interrupt the call, so a retry could close a descriptor that another
    /// thread has just been given. An error (EIO from a file system that
    /// reports a failed write late) still means the number is closed.
    /// - Throws: `close` and its errno.
    package func close() throws(Errno) {
        guard Glibc.close(rawValue) == 0 else { throw Errno(call: "close", code: errno) }
    }

    /// Calls `body` with this descriptor, then closes it, however `body`
    /// ends (a failure to close is not reported: use ``close()`` where it
    /// matters, as after writing a file).
    package func closeAfter<Result, Failure: Error>(
        _ body: (FileDescriptor) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { try? close() }
        return try body(self)
    }
}

// MARK: - Duplicating

extension FileDescriptor {
    /// A new descriptor for the same open file, numbered `minimum` or the
    /// lowest free number above it, close-on-exec (`F_DUPFD_CLOEXEC`).
    /// - Throws: `fcntl` and its errno (EMFILE: no number free).
    package func duplicate(atLeast minimum: CInt = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("fcntl") { fcntl(rawValue, F_DUPFD_CLOEXEC, minimum) })
    }

    /// Makes `target` a copy of this descriptor (`dup2`), closing what
    /// `target` was first. The copy is not close-on-exec: it is how a
    /// descriptor is handed to a process the host execs, or how the host's
    /// own stdout is replaced. Duplicating a descriptor onto itself changes
    /// nothing.
    /// - Returns: `target`.
    /// - Throws: `dup2` and its errno.
    @discardableResult
    package func duplicate(as target: FileDescriptor) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("dup2") { dup2(rawValue, target.rawValue) })
    }
}

// MARK: - Flags and status

extension FileDescriptor {
    /// Whether a process the host starts now would not get this descriptor:
    /// it is not open, or it is close-on-exec.
    var isClosedOnExec: Bool {
        let flags = fcntl(rawValue, F_GETFD)
        return flags == -1 || flags & FD_CLOEXEC != 0
    }

    /// Makes the descriptor close-on-exec (one the host was started with).
    /// - Throws: `fcntl` and its errno.
    package func setClosedOnExec() throws(Errno) {
        _ = try retryingOnInterrupt("fcntl") { fcntl(rawValue, F_SETFD, FD_CLOEXEC) }
    }

    /// Makes reads and writes of the open file fail with EAGAIN
    /// (``Errno/wouldBlock``) instead of waiting. The flag belongs to the
    /// open file, so it holds for every duplicate of it too.
    /// - Throws: `fcntl` and its errno.
    package func setNonBlocking() throws(Errno) {
        let flags = try retryingOnInterrupt("fcntl") { fcntl(rawValue, F_GETFL) }
        if flags & O_NONBLOCK == 0 {
            _ = try retryingOnInterrupt("fcntl") { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
        }
    }

    /// The open file's status (`fstat`).
    /// - Throws: `fstat` and its errno.
    package func status() throws(Errno) -> stat {
        var info = stat()
        _ = try retryingOnInterrupt("fstat") { fstat(rawValue, &info) }
        return info
    }

    /// The status of `name` in the directory open at this descriptor
    /// (`fstatat`), of a symbolic link itself, not of what it points to.
    /// - Throws: `fstatat` and its errno.
    package func status(ofLink name: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retryingOnInterrupt("fstatat") { fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }
        return info
    }

    /// Flushes what was written to the open file, or a directory's entries,
    /// to the disk (`fsync`).
    /// - Throws: `fsync` and its errno.
    package func sync() throws(Errno) {
        _ = try retryingOnInterrupt("fsync") { fsync(rawValue) }
    }

    /// Sets the open file's permission bits (`fchmod`).
    /// - Throws: `fchmod` and its errno.
    package func setPermissions(_ mode: mode_t) throws(Errno) {
        _ = try retryingOnInterrupt("fchmod") { fchmod(rawValue, mode) }
    }

    /// Gives the open file to `owner` and `group` (`fchown`; only root may
    /// give a file away).
    /// - Throws: `fchown` and its errno.
    package func setOwner(_ owner: uid_t, group: gid_t) throws(Errno) {
        _ = try retryingOnInterrupt("fchown") { fchown(rawValue, owner, group) }
    }

    /// Takes the exclusive `flock` lock of the open file, waiting for it;
    /// it is released when the last descriptor of the open file closes.
    /// - Throws: `flock` and its errno.
    package func lockExclusively() throws(Errno) {
        _ = try retryingOnInterrupt("flock") { flock(rawValue, LOCK_EX) }
    }

    /// Moves the open file's offset to `offset` from its start (`lseek`).
    /// - Throws: `lseek` and its errno.
    func seek(to offset: Int64) throws(Errno) {
        _ = try retryingOnInterrupt("lseek") { lseek(rawValue, off_t(offset), SEEK_SET) }
    }

    /// The lowest descriptor number from 3 up that a command started now
    /// would not inherit (``isClosedOnExec``): a number to give it a
    /// descriptor under without hiding one its caller passed (`3>file`).
    /// Low numbers matter: `sh` redirects only to single digits (`>&7`).
    package static func lowestNumberFreeForChild() -> FileDescriptor {
        var fd = FileDescriptor(rawValue: 3)
        while !fd.isClosedOnExec { fd = FileDescriptor(rawValue: fd.rawValue + 1) }
        return fd
    }
}

// MARK: - Standard descriptors

extension FileDescriptor {
    /// Holds each of stdin, stdout and stderr that the host was started
    /// without (`>&-`) with a placeholder (`/dev/null` opened `O_PATH`,
    /// close-on-exec), before the host opens anything.
    ///
    /// Without it, the first file, pipe or socket the host opens gets the
    /// number, and what the host then writes to "stdout" lands in it (a
    /// pipe's protocol, a file being saved). The placeholder behaves as
    /// the closed descriptor did: reading or writing it fails with EBADF
    /// (so a result is reported as not written), and a command the host
    /// runs does not inherit it.
    package static func holdClosedStandardDescriptors() {
        for number in STDIN_FILENO...STDERR_FILENO where fcntl(number, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number: `number`, as the lower ones are open.
            guard let placeholder = try? FileDescriptor.openPath("/dev/null") else { return }
            if placeholder.rawValue != number {
                _ = try? placeholder.duplicate(as: FileDescriptor(rawValue: number))
                try? placeholder.close()
                try? FileDescriptor(rawValue: number).setClosedOnExec()
            }
        }
    }
}

// MARK: - C's streams

extension FileDescriptor {
    /// Writes out what C's stdio buffered in every stream (`fflush(NULL)`;
    /// Swift 6 refuses the C global `stdout`): what plugin code `printf`ed
    /// goes to the descriptor it was written for before the descriptors
    /// under the streams change (``StandardOutputDiversion``).
    package static func flushCStreams() {
        fflush(nil)
    }
}

// MARK: - Sealed copies

extension FileDescriptor {
    /// A copy of the first `size` bytes of this file in memory
    /// (`memfd_create`, close-on-exec), sealed, so that neither this process
    /// nor one it is passed to can change it.
    /// - Throws: the call that failed and its errno.
    package func sealedCopy(size: Int) throws(Errno) -> FileDescriptor {
        let copy = ph_sealed_copy(rawValue, off_t(size))
        guard copy >= 0 else { throw Errno(call: "memfd_create", code: errno) }
        return FileDescriptor(rawValue: copy)
    }
}
