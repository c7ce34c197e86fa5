import Dispatch
import HostEngine
import HostSystem
import Synchronization

/// One running action (the original's interactor), as returned by
/// ``Screenlet/perform(action:interactorType:)``. Its work runs wherever it
/// likes and reports here, from any thread.
///
/// It ends once: the first ``succeed()`` or ``fail(_:)`` counts, later ones
/// (and progress after the end) are ignored. The presenter gets exactly one
/// hide for its show, on the presenter thread, whichever thread ended it.
public final class InteractorHandle: Sendable {
    /// Unique among the process's interactors; never 0. The id presenters see.
    public let id: UInt64
    /// The action it performs.
    public let action: String
    /// Its type, e.g. "GetWebTitleInteractor".
    public let interactorType: String
    /// The action's messages (its own table, or the default action's).
    let messages: ProgressMessages
    /// When it started, on the runtime's clock (just before its show):
    /// ABI 1.4's `started_ns`, never 0.
    let startedAt: UInt64
    private let screenlet: Screenlet

    /// What the work reported, from any thread.
    private struct Reported {
        var ended = false
        var fraction = -1.0
        /// The counts behind the fraction (done, total), when the work gave them.
        var counts: (done: Double, total: Double)?
        /// The smoothed rate and time left of the fraction or counts.
        var estimator = ProgressEstimator()
        /// The working message the work reported, replacing the table's.
        var workingMessage: String?
        /// Messages reported and not yet delivered, oldest first (each is a
        /// line in plain mode: they are not merged like fractions).
        var undeliveredMessages: [String] = []
        var progressQueued = false
    }

    private let reported = LockedValue(Reported())

    /// What the presenter and the backend were told of it, as one value
    /// on the presenter thread (``PresenterBound``: one box per owner).
    struct Told {
        /// Show was called, so hide must be.
        var shown = false
        /// The working message the backend was last told of.
        var message: String?
        /// The fraction the backend was last told of (negative: unknown).
        var fraction = -1.0
    }

    /// The presenter thread's alone, checked on every access.
    let told: PresenterBound<Told>
    /// Signalled once the backend was told it started (or it never will be).
    private let announcement = DispatchSemaphore(value: 0)

    init(action: String, interactorType: String, messages: ProgressMessages, screenlet: Screenlet) {
        id = Self.nextId()
        self.action = action
        self.interactorType = interactorType
        self.messages = messages
        self.screenlet = screenlet
        startedAt = max(screenlet.runtime.clock.now(), 1)
        told = PresenterBound(Told(), to: screenlet.runtime.thread)
    }

    /// True once it succeeded or failed.
    public var isEnded: Bool { reported.withLock { $0.ended } }

    /// Reports the completed fraction (clamped to 0...1; NaN is ignored).
    /// Reports that come faster than the presenter thread takes them are
    /// merged: the presenter sees the latest.
    public func reportProgress(_ fraction: Double) {
        guard !fraction.isNaN else { return }
        report(fraction: min(1, max(0, fraction)), message: nil)
    }

    /// Reports what changed: `fraction` (clamped to 0...1; a negative one
    /// makes it unknown again; `nil` or NaN leaves it) and `message`, a
    /// working message that replaces the action's (`nil` leaves it). The
    /// presenter's progress hook hears of both; a plain-lines backend prints
    /// a new message as a line. Merged like ``reportProgress(_:)``.
    public func report(fraction: Double?, message: String?) {
        report(fraction: fraction, counts: nil, message: message)
    }

    /// Reports what changed, as ``report(fraction:message:)``, with the
    /// counts behind the fraction when the work gave them (`42/100`: done
    /// 42 of a total above 0). The host's estimate of the rate and time
    /// left (``ProgressEstimator``) hears of each fraction.
    package func report(fraction: Double?, counts: (done: Double, total: Double)?, message: String?) {
        let now = screenlet.runtime.clock.now()
        let queue: Bool = reported.withLock { state in
            guard !state.ended else { return false }
            if let fraction, !fraction.isNaN {
                state.fraction = fraction < 0 ? -1 : min(1, fraction)
                state.counts = fraction < 0 ? nil : counts
                state.estimator.record(fraction: state.fraction, counts: state.counts, at: now)
            }
            if let message {
                state.workingMessage = message
                if state.undeliveredMessages.count == Self.undeliveredMessageLimit {
                    state.undeliveredMessages.removeFirst()
                }
                state.undeliveredMessages.append(message)
            }
            defer { state.progressQueued = true }
            return !state.progressQueued
        }
        if queue { screenlet.runtime.enqueue { [self] in screenlet.progressed(self) } }
    }

    /// Ends it in success.
    public func succeed() { end(nil, message: nil) }

    /// Ends it in success with `message` instead of the action's success message.
    public func succeed(message: String) { end(nil, message: message) }

    /// Ends it in failure with `error`.
    public func fail(_ error: InteractorError) { end(error, message: nil) }

    /// Ends it in failure with `error` and `message` instead of the
    /// action's failure message (or a validation error's text).
    public func fail(_ error: InteractorError, message: String) { end(error, message: message) }

    private func end(_ error: InteractorError?, message: String?) {
        guard markEnded() else { return }
        screenlet.runtime.enqueue { [self] in screenlet.ended(self, error: error, message: message) }
    }

    /// Waits until the runtime has told its backend that it started (a
    /// plain-lines backend has printed the working line), without waiting
    /// for the presenter's show hook. Returns at once when it never will be.
    package func waitUntilAnnounced() {
        announcement.wait()
        announcement.signal()
    }

    /// Lets ``waitUntilAnnounced()`` return (presenter thread, or when it never starts).
    func announced() {
        announcement.signal()
    }

    /// Marks it ended; false when it already was.
    func markEnded() -> Bool {
        reported.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
    }

    /// Notes that the queued progress report is being delivered, so the next
    /// report queues another (presenter thread).
    /// Returns the messages reported since the last delivery.
    func progressDelivered() -> [String] {
        reported.withLock { state in
            state.progressQueued = false
            defer { state.undeliveredMessages = [] }
            return state.undeliveredMessages
        }
    }

    /// Messages kept for one delivery at most: a command that reports more
    /// than the presenter thread takes loses the oldest (the last always counts).
    static let undeliveredMessageLimit = 64

    /// What presenters are told of it now: with the rate and time left
    /// as of now (the time since the last report counts as no progress).
    var snapshot: InteractorSnapshot {
        let now = screenlet.runtime.clock.now()
        return reported.withLock {
            InteractorSnapshot(
                id: id, type: interactorType, action: action, progress: $0.fraction, message: $0.workingMessage,
                timing: InteractorTiming(
                    startedAt: startedAt, done: $0.counts?.done ?? -1, total: $0.counts?.total ?? -1,
                    rate: $0.estimator.rate(at: now) ?? -1, secondsLeft: $0.estimator.secondsLeft(at: now) ?? -1))
        }
    }

    private static let counter = Atomic<UInt64>(0)
    private static func nextId() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }
}
