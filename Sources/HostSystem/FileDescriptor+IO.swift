#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Reading

extension FileDescriptor {
    /// One read of up to `buffer.count` bytes into `buffer` (a socket too:
    /// a read is a `recv` without flags), retried on EINTR.
    /// - Returns: how many bytes came; 0 at end of file.
    /// - Throws: `read` and its errno (``Errno/wouldBlock``: a non-blocking
    ///   descriptor has nothing yet).
    package func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
        try retryingOnInterrupt("read") {
            buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) }
        }
    }

    /// Up to `count` bytes from `offset` of the open file (`pread`, which
    /// leaves the file's offset alone); fewer only at the end of the file.
    /// - Throws: `pread` and its errno.
    package func read(count: Int, at offset: UInt64) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = try retryingOnInterrupt("pread") {
                bytes.withUnsafeMutableBytes {
                    pread(rawValue, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                }
            }
            if n == 0 { break }
            done += n
        }
        return Array(bytes[..<done])
    }

    /// Everything there is to read, up to the end of file.
    /// - Throws: `read` and its errno.
    package func readAll() throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = try read(into: &buffer)
            if n == 0 { return bytes }
            bytes.append(contentsOf: buffer[..<n])
        }
    }
}

// MARK: - Writing

extension FileDescriptor {
    /// Writes all of `bytes` (a file, a pipe, a terminal), going on after
    /// short writes and EINTR. When a non-blocking descriptor is full
    /// (EAGAIN), `whenFull` says how many milliseconds to wait for room, or
    /// `nil` to give up; it is asked again after a signal ends the wait
    /// early, so a deadline behind it holds, and before each new try when
    /// a wait ran out.
    /// - Throws: `write` and its errno (EAGAIN: full, and no more waiting).
    package func writeAll(_ bytes: [UInt8], whenFull: () -> Int32? = { nil }) throws(Errno) {
        try writeLoop(bytes, "write", whenFull: whenFull) { Glibc.write(rawValue, $0, $1) }
    }

    /// Writes all of `bytes` to a socket as ``writeAll(_:whenFull:)`` does,
    /// with `send` and MSG_NOSIGNAL, so a peer that went away is EPIPE, never
    /// SIGPIPE. Without `waiting` a full socket gives up at once (EAGAIN),
    /// even a blocking one (MSG_DONTWAIT): for a peer that may stop reading.
    /// - Throws: `send` and its errno.
    package func send(_ bytes: [UInt8], waiting: Bool = true, whenFull: () -> Int32? = { nil }) throws(Errno) {
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        try writeLoop(bytes, "send", whenFull: whenFull) { Glibc.send(rawValue, $0, $1, flags) }
    }

    /// The one write loop, under ``writeAll(_:whenFull:)`` and ``send(_:waiting:whenFull:)``.
    private func writeLoop(
        _ bytes: [UInt8], _ call: StaticString, whenFull: () -> Int32?,
        _ write: (UnsafeRawPointer, Int) -> Int
    ) throws(Errno) {
        // withUnsafeBytes rethrows untyped: the failure comes out as a value.
        let failure: Errno? = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                do throws(Errno) {
                    let written = try retryingOnInterrupt(call) { write(base + offset, buffer.count - offset) }
                    guard written > 0 else { return Errno(call: call, code: EIO) }
                    offset += written
                } catch  where error.wouldBlock {
                    // A wait that ran out is tried again, for as long as
                    // `whenFull` gives time: a terminal can get room without
                    // waking who waits for it (see TerminalWriter). A failed
                    // wait is no more waiting: full.
                    var exhausted = false
                    let room = try? wait(for: .output) {
                        let milliseconds = whenFull()
                        exhausted = milliseconds == nil || milliseconds == 0
                        return milliseconds
                    }
                    guard let room, !(room.isEmpty && exhausted) else { return error }
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
    }
}

// MARK: - Waiting

extension FileDescriptor {
    /// What `poll` waits for on a descriptor, and what it found.
    package struct Readiness: OptionSet, Sendable {
        package let rawValue: Int16
        package init(rawValue: Int16) { self.rawValue = rawValue }

        /// There is something to read, or the end of file (POLLIN).
        package static let input = Readiness(rawValue: Int16(POLLIN))
        /// There is room to write (POLLOUT).
        static let output = Readiness(rawValue: Int16(POLLOUT))
        /// The other end is gone (POLLHUP; reported whether asked or not).
        static let hangUp = Readiness(rawValue: Int16(POLLHUP))
    }

    /// Waits until the descriptor is ready for `events`, for at most
    /// `milliseconds()` (0: only looks, negative: no limit, nil: no wait at
    /// all). Asked anew after each signal that ends the wait early, so a
    /// deadline behind it holds.
    /// - Returns: what it is ready for; empty when the time ran out.
    /// - Throws: `poll` and its errno.
    package func wait(for events: Readiness, milliseconds: () -> Int32?) throws(Errno) -> Readiness {
        var waiter = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
        _ = try retryingOnInterrupt("poll") { milliseconds().map { poll(&waiter, 1, $0) } ?? 0 }
        return Readiness(rawValue: waiter.revents)
    }

    /// Waits until any of `descriptors` is ready for `events`, as
    /// ``wait(for:milliseconds:)`` does for one.
    /// - Returns: what each is ready for, in order; all empty when the time ran out.
    /// - Throws: `poll` and its errno.
    package static func wait(
        for events: Readiness, on descriptors: [FileDescriptor], milliseconds: () -> Int32?
    ) throws(Errno) -> [Readiness] {
        var waiters = descriptors.map { pollfd(fd: $0.rawValue, events: events.rawValue, revents: 0) }
        _ = try retryingOnInterrupt("poll") { milliseconds().map { poll(&waiters, nfds_t(waiters.count), $0) } ?? 0 }
        return waiters.map { Readiness(rawValue: $0.revents) }
    }
}
