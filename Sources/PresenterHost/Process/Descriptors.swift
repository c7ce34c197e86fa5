import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// A pipe whose ends are close-on-exec from their creation (`pipe2`), so no
/// process that another thread spawns meanwhile can inherit them.
func makePipe(_ fds: inout [Int32], nonBlocking: Bool = false) -> Bool {
    fds.withUnsafeMutableBufferPointer { ph_pipe_cloexec($0.baseAddress, nonBlocking ? 1 : 0) } == 0
}

/// A connected pair of Unix stream sockets, close-on-exec from their creation.
func makeSocketPair(_ fds: inout [Int32]) -> Bool {
    fds.withUnsafeMutableBufferPointer { ph_socketpair_cloexec($0.baseAddress) } == 0
}

/// The lowest descriptor number from 3 up that a command started now would
/// not inherit (closed, or close-on-exec in the host): a number to give it a
/// descriptor under without hiding one its caller passed (`3>file`). Low
/// numbers matter: `sh` redirects only to single digits (`>&7`).
func freeChildDescriptorNumber() -> Int32 {
    var fd: Int32 = 3
    while true {
        let flags = fcntl(fd, F_GETFD)
        if flags == -1 || flags & FD_CLOEXEC != 0 { return fd }
        fd += 1
    }
}

/// The one write loop: writes all of `bytes` to `fd`, going on after short
/// writes (and, through ``retryingOnInterrupt(_:_:)``, after EINTR). A
/// socket is written with `send` and MSG_NOSIGNAL, so a peer that went away
/// is EPIPE, never SIGPIPE. When a non-blocking `fd` is full (EAGAIN),
/// `whenFull` says how many milliseconds to wait for room, or `nil` to give
/// up; it is asked again after a signal ends the wait early, so a deadline
/// behind it holds.
/// - Returns: 0 when everything was written, else the failing call's errno
///   (EAGAIN: full, and no more waiting).
func writeFully(_ fd: Int32, _ bytes: [UInt8], socket: Bool = false, whenFull: () -> Int32? = { nil }) -> Int32 {
    bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return 0 }
        var offset = 0
        while offset < buffer.count {
            do throws(Errno) {
                let written = try retryingOnInterrupt(socket ? "send" : "write") {
                    socket
                        ? send(fd, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                        : write(fd, base + offset, buffer.count - offset)
                }
                guard written > 0 else { return EIO }
                offset += written
            } catch  where error.wouldBlock {
                var waiter = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = try? retryingOnInterrupt("poll") { whenFull().map { poll(&waiter, 1, $0) } ?? 0 }
                guard let ready, ready > 0 else { return EAGAIN }
            } catch {
                return error.code
            }
        }
        return 0
    }
}

/// Writes all of `bytes` to `fd` (a file or a pipe, blocking); false on a failure.
@discardableResult
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    writeFully(fd, bytes) == 0
}

/// One read of up to `buffer.count` bytes from `fd` into `buffer` (a
/// socket too: a read is a `recv` without flags), retried on EINTR.
/// - Returns: how many bytes came; 0 at end of file.
/// - Throws: `read` and its errno (``Errno/wouldBlock``: a non-blocking
///   `fd` has nothing yet).
func readSome(_ fd: Int32, into buffer: inout [UInt8]) throws(Errno) -> Int {
    try retryingOnInterrupt("read") { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
}

/// Everything `fd` reads until end of file, or `nil` with errno set.
func readAll(_ fd: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        guard let n = try? readSome(fd, into: &buffer) else { return nil }
        if n == 0 { return bytes }
        bytes.append(contentsOf: buffer[..<n])
    }
}

/// A Unix stream socket listening at `path`, close-on-exec; the errno when not.
func listenUnixSocket(_ path: String, backlog: Int32 = 128) -> Result<Int32, Errno> {
    let fd = ph_listen_unix_cloexec(path, backlog)
    return fd >= 0 ? .success(fd) : .failure(Errno(call: "listen", code: errno))
}

/// A connection to the Unix stream socket at `path`, close-on-exec; the errno when not.
func connectUnixSocket(_ path: String) -> Result<Int32, Errno> {
    let fd = ph_connect_unix_cloexec(path)
    return fd >= 0 ? .success(fd) : .failure(Errno(call: "connect", code: errno))
}

/// Sends `text` as one datagram to the Unix datagram socket at `path`
/// (`@name`: an abstract one); false when it could not be sent.
@discardableResult
func sendDatagram(_ text: String, to path: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { ph_send_datagram(path, $0.baseAddress, $0.count) } == 0
}

/// The next connection to listening socket `fd`, close-on-exec; -1 and errno when none.
func acceptConnection(_ fd: Int32) -> Int32 {
    ph_accept_cloexec(fd)
}

/// Reads `fd` (blocking) to its end and calls `line` with each line, without
/// its newline; a last line without one counts too. A line longer than
/// `limit` bytes is cut: `line` gets nil for it and the rest up to its
/// newline is skipped. Returns at end of file or on a read error.
func readLines(_ fd: Int32, limit: Int, _ line: ([UInt8]?) -> Void) {
    var buffer = [UInt8](repeating: 0, count: 65536)
    var pending: [UInt8] = []
    var skipping = false
    while true {
        guard let count = try? readSome(fd, into: &buffer), count > 0 else { break }
        var start = 0
        for index in 0..<count where buffer[index] == 0x0A {
            if !skipping {
                pending.append(contentsOf: buffer[start..<index])
                line(pending.count > limit ? nil : pending)
            }
            pending.removeAll(keepingCapacity: true)
            skipping = false
            start = index + 1
        }
        if !skipping {
            pending.append(contentsOf: buffer[start..<count])
            if pending.count > limit {
                line(nil)
                pending.removeAll()
                skipping = true
            }
        }
    }
    if !skipping && !pending.isEmpty { line(pending) }
}
