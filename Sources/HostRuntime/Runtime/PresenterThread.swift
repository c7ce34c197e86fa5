import Dispatch
import HostEngine
import HostSystem
import Synchronization

/// The one thread that runs every plugin hook and host service, every
/// render and every backend call: a job queue served in order, plus a
/// wake-up time for the frame timer.
///
/// A dedicated thread rather than a serial dispatch queue because the ABI
/// promises plugins one thread, not merely one call at a time. Its timer is
/// the timed wait of that thread: armed only while a wake-up is set, so
/// nothing ticks while nothing animates.
final class PresenterThread: Sendable {
    /// A closure handed to the thread that runs it: `@Sendable`, so the
    /// compiler checks what a caller hands over to the presenter thread.
    typealias Job = @Sendable () -> Void

    /// The body of a ``sync(_:)``, lent to the thread: not `@Sendable`, as
    /// `DispatchQueue.sync`'s is not, since its sender waits until it ran.
    // Unchecked: the sender blocks until the thread ran the body and released it, so what the
    // body captures is used by one thread at a time, handed over under the queue's lock.
    private struct Lent: @unchecked Sendable {
        let run: () -> Void
    }

    private struct State {
        /// Jobs in order; `done` is signalled after the job ran and was
        /// released (so `sync` can lend a non-escaping closure).
        var jobs: [(job: Job, done: DispatchSemaphore?)] = []
        var wakeAt: UInt64?
        var stopping = false
        /// Run on the thread after each batch of jobs.
        var afterJobs: Job = {}
        /// Run on the thread when the wake-up time comes.
        var onWake: Job = {}
    }

    /// What the thread shares with whoever queues jobs.
    private final class Shared: Sendable {
        /// Its timed wait is the frame timer: on the monotonic clock
        /// `wakeAt` is on, so a wall clock set back cannot stall the frames.
        let state = ConditionLock(State())
        let exited = DispatchSemaphore(value: 0)
        let hasExited = Atomic(false)
    }

    private let shared = Shared()
    private var state: ConditionLock<State> { shared.state }
    private let thread: ThreadIdentity
    /// The thread, as a value (``PresenterBound``'s first check).
    var identity: ThreadIdentity { thread }

    init(name: String) {
        thread = DetachedThread.start(name: name) { [shared] in
            Self.run(shared.state)
            shared.hasExited.store(true, ordering: .releasing)
            shared.exited.signal()
        }
    }

    /// Sets what runs on the thread after each batch of jobs and when the
    /// wake-up time comes (before the first job is queued: the owner of the
    /// thread is made after it, and they call it).
    func handle(afterJobs: @escaping Job, onWake: @escaping Job) {
        state.withLock {
            $0.afterJobs = afterJobs
            $0.onWake = onWake
        }
    }

    /// True on the presenter thread.
    var isCurrent: Bool { thread.isCurrent }

    /// True on the thread, and, once it exited, on any (``sync(_:)`` then
    /// runs its body on the caller's thread, which stands in for it): where
    /// presenter-thread state may be touched.
    var mayTouchItsState: Bool {
        @inline(__always) get { isCurrent || shared.hasExited.load(ordering: .acquiring) }
    }

    /// Queues `job`; false (and the job dropped) once the thread is stopping.
    @discardableResult
    func async(_ job: @escaping Job) -> Bool {
        queue(job, done: nil)
    }

    private func queue(_ job: @escaping Job, done: DispatchSemaphore?) -> Bool {
        let queued = state.withLock {
            guard !$0.stopping else { return false }
            $0.jobs.append((job, done))
            return true
        }
        if queued { state.signal() }
        return queued
    }

    /// Runs `body` on the thread and returns its result. On the thread itself
    /// it runs at once; after the thread exited, on the caller's thread,
    /// one caller at a time (``standIn``): a signal's suspend and a late
    /// fetch's completion, say, must not both stand in for it at once.
    func sync<T>(_ body: () throws -> T) rethrows -> T {
        if isCurrent && !shared.hasExited.load(ordering: .acquiring) { return try body() }
        return try withoutActuallyEscaping(body) { body in
            var result: Result<T, Error>?
            let done = DispatchSemaphore(value: 0)
            let lent = Lent { result = Result { try body() } }
            let queued = queue({ lent.run() }, done: done)
            if queued {
                done.wait()
            } else {
                waitForExit()
                standIn.wait()
                result = Result { try body() }
                standIn.signal()
            }
            return try result!.get()
        }
    }

    /// Held by the caller that stands in for the thread once it exited.
    private let standIn = DispatchSemaphore(value: 1)

    /// Sets (or with `nil` clears) the time, on the monotonic clock, at which
    /// `onWake` runs. Call on the thread.
    func setWakeup(_ time: UInt64?) {
        state.withLock { $0.wakeAt = time }
    }

    /// Runs the jobs already queued, then ends the thread; returns once it ended.
    func stop() {
        state.withLock { $0.stopping = true }
        state.signal()
        if !isCurrent { waitForExit() }
    }

    private func waitForExit() {
        if !shared.hasExited.load(ordering: .acquiring) { shared.exited.wait(); shared.exited.signal() }
    }

    /// What the thread does next, chosen under the lock.
    private enum Next {
        case jobs(then: Job)
        case wake(Job)
        case exit
    }

    private static func run(_ state: ConditionLock<State>) {
        while true {
            // Swapped out of the queue, not copied: a `sync` job must be
            // released before its sender hears it ran.
            var batch: [(job: Job, done: DispatchSemaphore?)] = []
            let next: Next = state.withLock(
                waitingUntil: { state in
                    !state.jobs.isEmpty || state.stopping || state.wakeAt.map { MonotonicClock().now() >= $0 } ?? false
                },
                deadline: { $0.wakeAt }
            ) { state, _ in
                if !state.jobs.isEmpty {
                    swap(&batch, &state.jobs)
                    return .jobs(then: state.afterJobs)
                }
                if state.stopping { return .exit }
                state.wakeAt = nil
                return .wake(state.onWake)
            }
            switch next {
            case .jobs(let afterJobs):
                for index in batch.indices {
                    batch[index].job()
                    let done = batch[index].done
                    batch[index] = ({}, nil)
                    done?.signal()
                }
                afterJobs()
            case .wake(let onWake): onWake()
            case .exit: return
            }
        }
    }
}
