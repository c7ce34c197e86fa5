import HostSystem
#if canImport(Glibc)
    import Glibc
#endif

/// The host's end of the channel to a presenter process: framed requests
/// out (with the descriptors they pass), messages in, every wait bounded.
/// What a failure means for the presenter (which hook it blames, whether
/// the process is killed) is ``PresenterProcess``'s to say.
final class PresenterChannel {
    /// Why the channel cannot go on.
    enum Failure: Error {
        /// Its end: the process ended or closed it, or it cannot be read.
        case ended
        /// The deadline passed with no message, or no room to write.
        case timedOut
        /// Bytes that are not a message of the protocol (the decoder's words).
        case malformed(String)
    }

    private let fd: FileDescriptor
    private var incoming = FrameBuffer()
    private var receiveBuffer = [UInt8](repeating: 0, count: 65536)

    /// The channel on `fd` (made non-blocking: every wait is the channel's own).
    init(_ fd: FileDescriptor) {
        self.fd = fd
        try? fd.setNonBlocking()
    }

    /// The next message, waiting for it until `deadline` (nil: only if one
    /// is there already; then nil when none is), in waits of at most 50 ms
    /// with `slices` (the deadline may move meanwhile).
    func next(until deadline: (() -> Double)?, slices: Bool = false) throws(Failure) -> PresenterMessage.Incoming? {
        while true {
            do throws(MessageError) {
                if let body = try incoming.next() { return try PresenterMessage.decodeIncoming(body) }
            } catch {
                throw .malformed(error.description)
            }
            // Past the deadline, what is there already still counts: the host
            // may have been stopped (SIGSTOP) while the answer came.
            let remaining = deadline.map { max(0, $0() - MonotonicTime.seconds()) } ?? 0
            let end = MonotonicTime.seconds() + (slices ? min(remaining, 0.05) : remaining)
            let ready = try? fd.wait(for: .input) { MonotonicTime.milliseconds(until: end) }
            if ready?.isEmpty == true {
                if deadline == nil { return nil }
                if remaining <= 0 { throw .timedOut }
                continue
            }
            let count: Int
            do throws(Errno) {
                count = try fd.read(into: &receiveBuffer)
            } catch {
                if error.wouldBlock { continue }
                throw .ended
            }
            guard count > 0 else { throw .ended }
            receiveBuffer.withUnsafeBytes { incoming.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Writes `bytes` (one framed request) and passes `images` with them,
    /// waiting for room at most `seconds`: requests are small and the
    /// process reads them as it goes, so a full channel is one that stopped
    /// reading. A process already gone is not an error here: the replies it
    /// sent first, and the end after them, are read by the next wait, which
    /// so blames the request it died on, not this later one.
    func send(_ bytes: [UInt8], passing images: [FileDescriptor] = [], within seconds: Double) throws(Failure) {
        let deadline = MonotonicTime.seconds() + seconds
        do throws(Errno) {
            try fd.send(bytes, passing: images) {
                let remaining = deadline - MonotonicTime.seconds()
                return remaining > 0 ? Int32(remaining * 1000 + 1) : nil
            }
        } catch {
            switch error.code {
            case EPIPE, ECONNRESET: return
            case EAGAIN: throw .timedOut
            default: throw .ended
            }
        }
    }

    /// Closes the host's end: the process exits when it reads it.
    func close() {
        try? fd.close()
    }
}
