import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Pipes and socket pairs

extension FileDescriptor {
    /// A pipe whose ends are close-on-exec from their creation (`pipe2`),
    /// so no process that another thread spawns meanwhile can inherit them.
    /// - Throws: `pipe2` and its errno.
    static func pipe(nonBlocking: Bool = false) throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var fds: (CInt, CInt) = (-1, -1)
        let result = withUnsafeMutableBytes(of: &fds) {
            ph_pipe_cloexec($0.baseAddress!.assumingMemoryBound(to: CInt.self), nonBlocking ? 1 : 0)
        }
        guard result == 0 else { throw Errno(call: "pipe2", code: errno) }
        return (FileDescriptor(rawValue: fds.0), FileDescriptor(rawValue: fds.1))
    }

    /// A connected pair of Unix stream sockets, close-on-exec from their creation.
    /// - Throws: `socketpair` and its errno.
    static func socketPair() throws(Errno) -> (FileDescriptor, FileDescriptor) {
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
    /// A Unix stream socket listening at `path`, close-on-exec.
    /// - Throws: `listen` (or the call before it) and its errno.
    static func listen(atUnixSocket path: String, backlog: CInt = 128) throws(Errno) -> FileDescriptor {
        let fd = ph_listen_unix_cloexec(path, backlog)
        guard fd >= 0 else { throw Errno(call: "listen", code: errno) }
        return FileDescriptor(rawValue: fd)
    }

    /// A connection to the Unix stream socket at `path`, close-on-exec.
    /// - Throws: `connect` (or the call before it) and its errno.
    static func connect(toUnixSocket path: String) throws(Errno) -> FileDescriptor {
        let fd = ph_connect_unix_cloexec(path)
        guard fd >= 0 else { throw Errno(call: "connect", code: errno) }
        return FileDescriptor(rawValue: fd)
    }

    /// The next connection to this listening socket, close-on-exec,
    /// waiting for one.
    /// - Throws: `accept` and its errno.
    func accept() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("accept") { ph_accept_cloexec(rawValue) })
    }

    /// Shuts the socket down both ways: a thread blocked reading it or
    /// accepting on it wakes up (a `close` would not wake it, and could
    /// hand its number to another descriptor under it).
    func shutdown() {
        _ = Glibc.shutdown(rawValue, CInt(SHUT_RDWR))
    }

    /// Sends `text` as one datagram to the Unix datagram socket at `path`
    /// (`@name`: an abstract one); false when it could not be sent.
    @discardableResult
    static func sendDatagram(_ text: String, to path: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { ph_send_datagram(path, $0.baseAddress, $0.count) } == 0
    }
}
