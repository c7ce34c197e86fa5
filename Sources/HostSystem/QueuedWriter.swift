/// Hands records to a writer thread of their own through a bounded queue, so
/// that whoever produces them never waits for whoever reads them.
///
/// `run --events -` into a pager that stopped reading (`| less` before you
/// scroll) made the write block the thread that reads the command's
/// progress; the command then blocked on its progress descriptor, and the
/// host waited for it for ever, deaf to SIGTERM. Here ``push(_:always:)``
/// only queues: past ``bound`` bytes queued, a record is dropped and
/// counted (``takeDropped()``), and the writer thread alone may block in
/// `write(2)`. The writer takes the records queued together (up to 64 KiB
/// in one call of its `write`): a record then costs the reader's time, not
/// a write or a redraw of its own. ``drain(stalledAfter:atMost:)`` waits for the queue to empty, but
/// gives up once the reader took nothing for the given time, or at a
/// limit in all: a process that
/// then exits leaves its writer thread blocked in `write(2)`, where the
/// exit ends it.
// Safe: `State`'s fields only under its condition; the rest is immutable.
package final class QueuedWriter: @unchecked Sendable {
    /// Bytes queued at most; past it, records are dropped.
    package static let bound = 1 << 20

    /// Bytes written in one call of `write` at most (unless one record is longer).
    static let batchBytes = 64 << 10

    private let state: State

    /// Starts a writer thread named `name` that calls `write` with the
    /// records queued, in order, several joined into one call; `write`
    /// returns false when the output is gone (then
    /// the rest is discarded, and nothing more is written).
    package init(name: String, bound: Int = QueuedWriter.bound, write: @escaping @Sendable ([UInt8]) -> Bool) {
        let state = State(bound: bound)
        self.state = state
        DetachedThread.start(name: name) { state.run(write) }
    }

    /// Stops the thread once what is queued is written (or, blocked, at the
    /// process's exit).
    deinit {
        state.condition.withLock {
            state.stopping = true
            state.condition.broadcast()
        }
    }

    /// Queues `record`; false when it was dropped (the queue is full, or the
    /// output gone). `always` queues it past the bound: the last records
    /// (the outcome, the count of dropped ones), which are few.
    @discardableResult
    package func push(_ record: [UInt8], always: Bool = false) -> Bool {
        state.condition.withLock {
            guard !state.gone else { return false }
            guard always || state.queuedBytes + record.count <= state.bound else {
                state.dropped += 1
                return false
            }
            state.queue.append(record)
            state.queuedBytes += record.count
            state.condition.broadcast()
            return true
        }
    }

    /// How many records were dropped since the last call.
    package func takeDropped() -> Int {
        state.condition.withLock {
            defer { state.dropped = 0 }
            return state.dropped
        }
    }

    /// Waits until everything queued is written, the output is gone, the
    /// reader took nothing for `seconds` (a stopped reader), or `limit`
    /// seconds passed in all (a reader that trickles, taking a record now
    /// and then, must not hold the end either); true when all was written.
    @discardableResult
    package func drain(stalledAfter seconds: Double, atMost limit: Double) -> Bool {
        state.condition.withLock {
            let patience = UInt64(max(0, seconds) * 1e9)
            let end = MonotonicTime.nanoseconds() &+ UInt64(max(0, limit) * 1e9)
            while !state.gone && (!state.queue.isEmpty || state.writing) {
                let deadline = min(state.progressAt &+ patience, end)
                if MonotonicTime.nanoseconds() >= deadline { return false }
                state.condition.wait(untilNanoseconds: deadline)
            }
            return !state.gone
        }
    }

    private final class State: @unchecked Sendable {
        let condition = MonotonicCondition()
        let bound: Int
        /// The records queued, in order (the writer takes them from the front).
        var queue: [[UInt8]] = []
        var queuedBytes = 0
        var dropped = 0
        /// A batch is being written (taken off the queue, not yet done).
        var writing = false
        /// The output failed: nothing more is written.
        var gone = false
        var stopping = false
        /// When the last record was written or taken (``MonotonicTime``, ns).
        var progressAt = MonotonicTime.nanoseconds()

        init(bound: Int) { self.bound = bound }

        /// Under the condition: the records at the head of the queue, joined,
        /// up to ``batchBytes`` (at least one record): one `write(2)` for a
        /// file, one redraw of a region drawn below the lines, yet small
        /// enough that ``progressAt`` tells a slow reader from a stopped one.
        func takeBatch() -> [UInt8] {
            var batch = queue[0]
            var taken = 1
            while taken < queue.count && batch.count + queue[taken].count <= QueuedWriter.batchBytes {
                batch += queue[taken]
                taken += 1
            }
            queue.removeFirst(taken)
            return batch
        }

        func run(_ write: ([UInt8]) -> Bool) {
            while true {
                let batch: [UInt8]? = condition.withLock {
                    while queue.isEmpty && !stopping { condition.wait() }
                    guard !queue.isEmpty else { return nil }
                    writing = true
                    progressAt = MonotonicTime.nanoseconds()
                    return takeBatch()
                }
                guard let batch else { return }
                let written = write(batch)
                condition.withLock {
                    writing = false
                    queuedBytes -= batch.count
                    progressAt = MonotonicTime.nanoseconds()
                    if !written {
                        gone = true
                        queue = []
                        queuedBytes = 0
                    }
                    condition.broadcast()
                }
                if !written { return }
            }
        }
    }
}
