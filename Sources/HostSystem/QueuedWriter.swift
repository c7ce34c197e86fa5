/// Hands records to a writer thread of their own through a bounded queue, so
/// that whoever produces them never waits for whoever reads them.
///
/// `run --events -` into a pager that stopped reading (`| less` before you
/// scroll) made the write block the thread that reads the command's
/// progress; the command then blocked on its progress descriptor, and the
/// host waited for it for ever, deaf to SIGTERM. Here ``push(_:always:)``
/// only queues: past ``bound`` bytes queued, a record is dropped and
/// counted (``takeDropped()``), and the writer thread alone may block in
/// `write(2)`. ``drain(stalledAfter:atMost:)`` waits for the queue to empty, but
/// gives up once the reader took nothing for the given time, or at a
/// limit in all: a process that
/// then exits leaves its writer thread blocked in `write(2)`, where the
/// exit ends it.
// Safe: `State`'s fields only under its condition; the rest is immutable.
package final class QueuedWriter: @unchecked Sendable {
    /// Bytes queued at most; past it, records are dropped.
    package static let bound = 1 << 20

    private let state: State

    /// Starts a writer thread named `name` that calls `write` with each
    /// record in order; `write` returns false when the output is gone (then
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
            while !state.gone && (state.head < state.queue.count || state.writing) {
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
        /// Records from `head` on are queued (those before it were taken:
        /// the array is cut back once they are half of it, not at each
        /// record, which would move the whole queue each time).
        var queue: [[UInt8]] = []
        var head = 0
        var queuedBytes = 0
        var dropped = 0
        /// A record is being written (taken off the queue, not yet done).
        var writing = false
        /// The output failed: nothing more is written.
        var gone = false
        var stopping = false
        /// When the last record was written or taken (``MonotonicTime``, ns).
        var progressAt = MonotonicTime.nanoseconds()

        init(bound: Int) { self.bound = bound }

        func run(_ write: ([UInt8]) -> Bool) {
            while true {
                let record: [UInt8]? = condition.withLock {
                    while head == queue.count && !stopping { condition.wait() }
                    guard head < queue.count else { return nil }
                    writing = true
                    progressAt = MonotonicTime.nanoseconds()
                    defer {
                        head += 1
                        if head * 2 >= queue.count {
                            queue.removeFirst(head)
                            head = 0
                        }
                    }
                    return queue[head]
                }
                guard let record else { return }
                let written = write(record)
                condition.withLock {
                    writing = false
                    queuedBytes -= record.count
                    progressAt = MonotonicTime.nanoseconds()
                    if !written {
                        gone = true
                        (queue, head) = ([], 0)
                        queuedBytes = 0
                    }
                    condition.broadcast()
                }
                if !written { return }
            }
        }
    }
}
