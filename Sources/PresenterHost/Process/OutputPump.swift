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
///
/// Once `finish()` returns, libdispatch holds nothing of the pump's sink:
/// the sink reaches what the caller owns (for `run`, its whole runtime), and
/// a last release of it on a dispatch thread would free that runtime there,
/// after `main` has returned and while the process exits (docs/SOAK.md).
/// So the read source's handlers hold the reader state, which `finish()`
/// waits for libdispatch to release, and the pacing delay holds only the
/// source it re-arms, never the pump.
// Safe: the reader's state is only touched on `queue`; `finished` only by the caller of finish().
public final class OutputPump: @unchecked Sendable {
    private let queue = DispatchQueue(label: "presenter-host.output")
    private let reader: Reader
    /// Signalled by the source's cancel handler, which libdispatch calls
    /// once it has released the event handler (and the reader it holds).
    private let released = DispatchSemaphore(value: 0)
    private var finished = false

    /// Starts reading `fd` (which the pump then owns and closes); `sink` is
    /// called on the pump's queue.
    /// With `pacing`, after each read the pump waits that long before it
    /// reads again (what came meanwhile is read at once then): a writer of
    /// many small writes (progress lines, 1,000 a second) wakes it at most
    /// once per `pacing`, not once per write.
    public init(fd: FileDescriptor, pacing: DispatchTimeInterval? = nil, sink: @escaping ([UInt8]) -> Void) {
        try? fd.setNonBlocking()
        let source = DispatchSource.makeReadSource(fileDescriptor: fd.rawValue, queue: queue)
        let reader = Reader(fd: fd, source: source, queue: queue, pacing: pacing, sink: sink)
        self.reader = reader
        source.setEventHandler {
            reader.drain()
            reader.pause()
        }
        // libdispatch may still watch the descriptor until the source's
        // cancellation is done: close it only then, or a reused number can
        // send its manager thread into freed memory.
        source.setCancelHandler { [released] in
            try? fd.close()
            released.signal()
        }
        source.resume()
    }

    /// Reads what is left and stops (the pipe is closed once libdispatch lets
    /// go of it). Returns when the sink has seen every byte the child wrote,
    /// and libdispatch holds nothing of it any more. Call it once the child
    /// was reaped, from any thread but the pump's queue (a sink must not).
    public func finish() {
        guard !finished else { return }
        finished = true
        queue.sync {
            reader.drain()
            reader.close()
        }
        // The reader may have closed earlier (end of file): the cancel
        // handler has signalled already, or will.
        released.wait()
    }

    /// What the source's handlers work on: the descriptor, the sink and the
    /// buffer. On the queue only.
    private final class Reader: @unchecked Sendable {
        private let fd: FileDescriptor
        private let source: DispatchSourceRead
        private let queue: DispatchQueue
        private let pacing: DispatchTimeInterval?
        private let paused: Pause
        private let sink: ([UInt8]) -> Void
        private var open = true
        /// One buffer for every read: a command writing a line at a time
        /// wakes the pump often, and zeroing 64 KiB each time showed.
        private var buffer = [UInt8](repeating: 0, count: 65536)

        init(
            fd: FileDescriptor, source: DispatchSourceRead, queue: DispatchQueue, pacing: DispatchTimeInterval?,
            sink: @escaping ([UInt8]) -> Void
        ) {
            self.fd = fd
            self.source = source
            self.queue = queue
            self.pacing = pacing
            self.sink = sink
            paused = Pause(source)
        }

        /// Reads until the pipe is empty; closes it at end of file.
        func drain() {
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

        /// With pacing: no events until the delay is over. The delayed block
        /// holds the pause alone (the source it re-arms), not this reader:
        /// it may run after `finish()`, and what it holds is freed there.
        func pause() {
            guard let pacing, open, !paused.isOn else { return }
            paused.isOn = true
            source.suspend()
            queue.asyncAfter(deadline: .now() + pacing) { [paused] in paused.end() }
        }

        /// Stops the source (its cancel handler closes the descriptor).
        func close() {
            guard open else { return }
            open = false
            // A suspended source never runs its cancel handler, and
            // libdispatch stops the process when one is released.
            paused.end()
            source.cancel()
        }
    }

    /// Whether the source is suspended for the pacing delay. On the queue only.
    private final class Pause: @unchecked Sendable {
        private let source: DispatchSourceRead
        var isOn = false

        init(_ source: DispatchSourceRead) { self.source = source }

        /// Resumes the source if it is paused (once per pause).
        func end() {
            guard isOn else { return }
            isOn = false
            source.resume()
        }
    }
}
