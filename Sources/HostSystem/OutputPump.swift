import Dispatch
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Reads a child's output pipe on a thread of its own and hands every chunk
/// to a sink, in order.
///
/// `finish()` is called once the child was reaped: everything the child wrote
/// is in the pipe by then, so it drains what is left without waiting for an
/// end of file that a grandchild still holding the pipe could delay forever.
///
/// A thread and `poll`, not a libdispatch read source: on Linux, libdispatch
/// (Swift 6.3.1) races itself when a watched pipe reports data and its hang-up
/// in one epoll event, which is how a child's pipe ends. Its manager thread
/// marks the source for deletion while a worker, woken for the data, deletes
/// it; the manager then finalizes it a second time and traps ("Source
/// finalized twice", SIGILL on a global-queue worker), or reads the freed
/// bookkeeping. `docs/soak/libdispatch-hup-race.c` shows it with libdispatch
/// alone; docs/SOAK.md says how `run` met it. No descriptor a child can
/// close is ever watched by libdispatch: this pump is the one reader of such
/// pipes (the command's output, its progress channel, a presenter process's
/// output).
///
/// Once `finish()` returns, no thread of the pump's is left and nothing of
/// the sink is held: the sink reaches what the caller owns (for `run`, its
/// whole runtime), which must be freed by its owner, not by a thread racing
/// the process's exit.
package final class OutputPump: Sendable {
    private let reader: Reader
    /// Written by finish(): the thread stops at once, however long it waits.
    private let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
    /// Signalled by the thread as its last act, after it let go of the reader.
    private let ended = DispatchSemaphore(value: 0)
    private let finished = Atomic(false)

    /// Starts reading `fd` (which the pump then owns and closes); `sink` is
    /// called on the pump's thread, and from finish().
    /// With `pacing`, after each read the pump waits that long before it
    /// reads again (what came meanwhile is read at once then): a writer of
    /// many small writes (progress lines, 1,000 a second) wakes it at most
    /// once per `pacing`, not once per write.
    package init(fd: FileDescriptor, pacing: DispatchTimeInterval? = nil, sink: @escaping ([UInt8]) -> Void) {
        try? fd.setNonBlocking()
        reader = Reader(fd: fd, pacing: pacing.map(Self.milliseconds), sink: sink)
        // Without a wake pipe (no descriptor left) the pump reads nothing
        // before finish(), which still drains everything.
        wake = try? FileDescriptor.pipe(nonBlocking: true)
        guard let wake else {
            ended.signal()
            return
        }
        // Handed to the thread once, so that the thread's closure does not
        // keep the reader after the thread let go of it.
        let handoff = LockedValue<Reader?>(reader)
        DetachedThread.start(name: "output") { [ended] in
            // In a scope of its own: the reader is let go before the signal,
            // so no reference to it outlives finish() on this thread.
            if let reader = handoff.withLock({ $0.take() }) {
                reader.run(until: wake.readEnd)
            }
            ended.signal()
        }
    }

    /// A pump dropped without finish() (the run failed before its command
    /// was reaped) stops its thread and closes the pipe; what is left unread
    /// stays unread.
    deinit {
        guard !finished.load(ordering: .relaxed) else { return }
        if let wake { try? wake.writeEnd.writeAll([1]) }
        ended.wait()
        reader.close()
        if let wake {
            try? wake.readEnd.close()
            try? wake.writeEnd.close()
        }
    }

    /// Reads what is left and stops, and closes the pipe. Returns when the
    /// sink has seen every byte the child wrote and the pump's thread has
    /// ended. Call it once the child was reaped, and not from the sink.
    package func finish() {
        guard !finished.exchange(true, ordering: .relaxed) else { return }
        if let wake { try? wake.writeEnd.writeAll([1]) }
        ended.wait()
        reader.drain()
        reader.close()
        if let wake {
            try? wake.readEnd.close()
            try? wake.writeEnd.close()
        }
    }

    private static func milliseconds(_ interval: DispatchTimeInterval) -> Int32 {
        switch interval {
        case .seconds(let value): return Int32(clamping: min(value, Int(Int32.max) / 1000) * 1000)
        case .milliseconds(let value): return Int32(clamping: value)
        case .microseconds(let value): return Int32(clamping: (value + 999) / 1000)
        case .nanoseconds(let value): return Int32(clamping: (value + 999_999) / 1_000_000)
        case .never: return -1
        @unknown default: return 0
        }
    }

    /// The descriptor, the sink and the buffer: the pump's thread's until it
    /// ended, then finish()'s.
    // Unchecked: owned by one thread at a time, handed over by the thread's end (`ended`).
    private final class Reader: @unchecked Sendable {
        private let fd: FileDescriptor
        /// Milliseconds between reads; nil: read as soon as there is data.
        private let pacing: Int32?
        private let sink: ([UInt8]) -> Void
        private var open = true
        /// One buffer for every read: a command writing a line at a time
        /// wakes the pump often, and zeroing 64 KiB each time showed.
        private var buffer = [UInt8](repeating: 0, count: 65536)

        init(fd: FileDescriptor, pacing: Int32?, sink: @escaping ([UInt8]) -> Void) {
            self.fd = fd
            self.pacing = pacing
            self.sink = sink
        }

        /// Reads as data comes until the end of file or `wake` is written.
        func run(until wake: FileDescriptor) {
            while open {
                guard let ready = try? FileDescriptor.wait(for: .input, on: [fd, wake], milliseconds: { -1 }),
                    ready[1].isEmpty
                else { return }
                guard !ready[0].isEmpty else { continue }
                drain()
                // The pacing delay: only a finish() ends it early.
                if let pacing, open, (try? wake.wait(for: .input) { pacing })?.isEmpty == false { return }
            }
        }

        /// Reads until the pipe is empty; stops at end of file.
        func drain() {
            guard open else { return }
            while true {
                do throws(Errno) {
                    let count = try fd.read(into: &buffer)
                    guard count > 0 else {
                        open = false
                        return
                    }
                    sink(Array(buffer[..<count]))
                } catch {
                    // Empty for now (non-blocking): poll says when there is more.
                    if !error.wouldBlock { open = false }
                    return
                }
            }
        }

        /// Closes the descriptor (once everything was read).
        func close() {
            open = false
            try? fd.close()
        }
    }
}
