import Dispatch
#if canImport(Glibc)
    import Glibc
#endif

/// Reads a child's output pipe on a dispatch queue and hands every chunk to
/// a sink, in order.
///
/// `finish()` is called once the child was reaped: everything the child wrote
/// is in the pipe by then, so it drains what is left without waiting for an
/// end of file that a grandchild still holding the pipe could delay forever.
// Safe: `open`, `paused` and `buffer` are only touched on `queue`.
public final class OutputPump: @unchecked Sendable {
    private let fd: FileDescriptor
    private let queue = DispatchQueue(label: "presenter-host.output")
    private let source: DispatchSourceRead
    private let sink: ([UInt8]) -> Void
    private var open = true
    private let pacing: DispatchTimeInterval?
    /// The source is suspended until the pacing delay is over (on the queue).
    private var paused = false
    /// One buffer for every read (on the queue): a command writing a line
    /// at a time wakes the pump often, and zeroing 64 KiB each time showed.
    private var buffer = [UInt8](repeating: 0, count: 65536)

    /// Starts reading `fd` (which the pump then owns and closes); `sink` is
    /// called on the pump's queue.
    /// With `pacing`, after each read the pump waits that long before it
    /// reads again (what came meanwhile is read at once then): a writer of
    /// many small writes (progress lines, 1,000 a second) wakes it at most
    /// once per `pacing`, not once per write.
    public init(fd: FileDescriptor, pacing: DispatchTimeInterval? = nil, sink: @escaping ([UInt8]) -> Void) {
        self.fd = fd
        self.sink = sink
        self.pacing = pacing
        try? fd.setNonBlocking()
        source = DispatchSource.makeReadSource(fileDescriptor: fd.rawValue, queue: queue)
        source.setEventHandler { [unowned self] in
            self.drain()
            self.pause()
        }
        // libdispatch may still watch the descriptor until the source's
        // cancellation is done: close it only then, or a reused number can
        // send its manager thread into freed memory.
        source.setCancelHandler { try? fd.close() }
        source.resume()
    }

    /// Reads what is left and stops (the pipe is closed once libdispatch lets
    /// go of it). Returns when the sink has seen every byte the child wrote.
    public func finish() {
        queue.sync {
            drain()
            close()
        }
    }

    /// Reads until the pipe is empty; closes it at end of file. On the queue.
    private func drain() {
        guard open else { return }
        while true {
            do throws(Errno) {
                let count = try fd.read(into: &buffer)
                guard count > 0 else { return close() }
                sink(Array(buffer[..<count]))
            } catch {
                // Empty for now (non-blocking): the source calls again.
                if !error.wouldBlock { close() }
                return
            }
        }
    }

    /// With pacing: no events until the delay is over (on the queue).
    private func pause() {
        guard let pacing, open, !paused else { return }
        paused = true
        source.suspend()
        queue.asyncAfter(deadline: .now() + pacing) { [self] in
            guard paused else { return }
            paused = false
            source.resume()
        }
    }

    private func close() {
        guard open else { return }
        open = false
        // A suspended source never runs its cancel handler (which closes fd).
        if paused {
            paused = false
            source.resume()
        }
        source.cancel()  // its cancel handler closes fd
    }
}
