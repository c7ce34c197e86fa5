import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Pipes and socket pairs

extension FileDescriptor {
    /// A pipe whose ends are close-on-exec from their creation (`pipe2`),
    /// so no process that another thread spawns meanwhile can inherit them.
    /// - Throws: `pipe2` and its errno.
    package static func pipe(nonBlocking: Bool = false) throws(Errno) -> (
        readEnd: FileDescriptor, writeEnd: FileDescriptor
    ) {
        var fds: (CInt, CInt) = (-1, -1)
        let result = withUnsafeMutableBytes(of: &fds) {
            ph_pipe_cloexec($0.baseAddress!.assumingMemoryBound(to: CInt.self), nonBlocking ? 1 : 0)
        }
        guard result == 0 else { throw Errno(call: "pipe2", code: errno) }
        return (FileDescriptor(rawValue: fds.0), FileDescriptor(rawValue: fds.1))
    }

    /// A connected pair of Unix stream sockets, close-on-exec from their creation.
    /// - Throws: `socketpair` and its errno.
    package static func socketPair() throws(Errno) -> (FileDescriptor, FileDescriptor) {
        var fds: (CInt, CInt) = (-1, -1)
        let result = withUnsafeMutableBytes(of: &fds) {
            ph_socketpair_cloexec($0.baseAddress!.assumingMemoryBound(to: CInt.self))
        }
        guard result == 0 else { throw Errno(call: "socketpair", code: errno) }
        return (FileDescriptor(rawValue: fds.0), FileDescriptor(rawValue: fds.1))
    }
}

// MARK: - Unix sockets

extension FileDescriptor {
    /// A Unix stream socket listening at `path`, close-on-exec, its file
    /// made mode 0600 whatever the umask: only its owner (and root) may
    /// connect, as connecting needs write permission on the file.
    ///
    /// `bind` makes the file 0777 less the umask, and nothing can change
    /// the mode between `bind` and the first `connect` (a `chmod` after it
    /// comes too late), so the umask is 0177 for the call. The umask is the
    /// process's: a file another thread creates meanwhile gets no group or
    /// other permissions either, which is safe; `drive` listens before it
    /// starts the threads that write files.
    /// - Throws: `listen` (or the call before it) and its errno.
    package static func listen(atUnixSocket path: String, backlog: CInt = 128) throws(Errno) -> FileDescriptor {
        let previous = umask(0o177)
        let fd = ph_listen_unix_cloexec(path, backlog)
        let code = errno
        umask(previous)
        guard fd >= 0 else { throw Errno(call: "listen", code: code) }
        return FileDescriptor(rawValue: fd)
    }

    /// The user id of the process at the other end of this connected Unix
    /// socket, as the kernel recorded it when it connected (`SO_PEERCRED`):
    /// a peer cannot forge it.
    /// - Throws: `getsockopt` and its errno.
    package func peerUser() throws(Errno) -> uid_t {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc's
        // module does not export (it is behind _GNU_SOURCE).
        var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else {
            throw Errno(call: "getsockopt", code: errno)
        }
        return credentials.uid
    }

    /// A connection to the Unix stream socket at `path`, close-on-exec.
    /// `nonBlocking`: the socket is non-blocking, and a listener whose
    /// backlog is full fails at once with EAGAIN instead of holding the
    /// caller (a stopped or hostile listener would, for ever).
    /// - Throws: `connect` (or the call before it) and its errno.
    package static func connect(toUnixSocket path: String, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        let fd = ph_connect_unix_cloexec(path, nonBlocking ? 1 : 0)
        guard fd >= 0 else { throw Errno(call: "connect", code: errno) }
        return FileDescriptor(rawValue: fd)
    }

    /// The next connection to this listening socket, close-on-exec,
    /// waiting for one (unless the socket is non-blocking: EAGAIN then).
    /// - Throws: `accept` and its errno.
    package func accept() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("accept") { ph_accept_cloexec(rawValue) })
    }

    /// Shuts the socket down both ways: a thread blocked reading it or
    /// accepting on it wakes up (a `close` would not wake it, and could
    /// hand its number to another descriptor under it).
    package func shutdown() {
        _ = Glibc.shutdown(rawValue, CInt(SHUT_RDWR))
    }

    /// Sends `text` as one datagram to the Unix datagram socket at `path`
    /// (`@name`: an abstract one); false when it could not be sent.
    @discardableResult
    package static func sendDatagram(_ text: String, to path: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { ph_send_datagram(path, $0.baseAddress, $0.count) } == 0
    }
}

// MARK: - Passing descriptors

extension FileDescriptor {
    /// The most descriptors one ``send(_:passing:)`` may carry.
    static let maxPassed = 16

    /// Sends `bytes` on this Unix socket with copies of `descriptors`
    /// attached to their first byte (SCM_RIGHTS); bytes the socket had no
    /// room for are sent after, without them, waiting as ``send(_:waiting:whenFull:)`` does.
    /// - Throws: `sendmsg` and its errno.
    package func send(_ bytes: [UInt8], passing descriptors: [FileDescriptor], whenFull: () -> Int32? = { nil })
        throws(Errno)
    {
        guard !descriptors.isEmpty else { return try send(bytes, whenFull: whenFull) }
        let numbers = descriptors.map(\.rawValue)
        var sent: Int
        repeat {
            sent = bytes.withUnsafeBytes { buffer in
                numbers.withUnsafeBufferPointer {
                    ph_send_with_descriptors(
                        rawValue, buffer.baseAddress, buffer.count, $0.baseAddress, Int32($0.count))
                }
            }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                guard let milliseconds = whenFull(), (try? wait(for: .output) { milliseconds }) != nil else {
                    throw Errno(call: "sendmsg", code: EAGAIN)
                }
                continue
            }
            guard sent >= 0 || errno == EINTR else { throw Errno(call: "sendmsg", code: errno) }
        } while sent < 0
        if sent < bytes.count { try send(Array(bytes[sent...]), whenFull: whenFull) }
    }

    /// Reads from this Unix socket into `buffer`, and adds the descriptors
    /// sent with what it read (close-on-exec) to `descriptors`.
    /// - Returns: the bytes read; 0 at the end.
    /// - Throws: `recvmsg` and its errno (EAGAIN when non-blocking and empty).
    package func receive(into buffer: inout [UInt8], descriptors: inout [FileDescriptor]) throws(Errno) -> Int {
        var numbers = [CInt](repeating: -1, count: Self.maxPassed)
        var count: CInt = 0
        let received = try retryingOnInterrupt("recvmsg") {
            buffer.withUnsafeMutableBytes { bytes in
                numbers.withUnsafeMutableBufferPointer {
                    ph_receive_with_descriptors(
                        rawValue, bytes.baseAddress, bytes.count, $0.baseAddress, CInt($0.count), &count)
                }
            }
        }
        descriptors += numbers[..<Int(count)].map(FileDescriptor.init(rawValue:))
        return received
    }
}
