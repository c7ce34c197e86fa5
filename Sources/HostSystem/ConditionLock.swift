/// State that lives inside a lock with a condition (``MonotonicCondition``):
/// read and changed only in ``withLock(_:)``, waited for only through
/// ``withLock(waitingUntil:deadline:_:)``, so that the condition and what
/// it guards cannot drift apart.
///
/// A wait is a predicate on the state, checked under the lock each time
/// the condition wakes (a wake-up may be spurious, or for another waiter),
/// not a loop by hand. Change the state in ``withLock(_:)``, then
/// ``signal()`` or ``broadcast()``: a wake needs no lock (the condition's
/// word counts wakes, so one between a waiter's check and its sleep is
/// not lost).
// Unchecked: `state` is touched only between the condition's lock and unlock.
package final class ConditionLock<State>: @unchecked Sendable {
    @usableFromInline let condition = MonotonicCondition()
    /// Not checked for exclusive access at run time: the lock already
    /// keeps every access to one thread at a time.
    @exclusivity(unchecked) @usableFromInline var state: State

    package init(_ state: sending State) { self.state = state }

    /// Runs `body` holding the lock, with the state to read or change.
    @inlinable package func withLock<Result, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&state)
    }

    /// Waits until `ready` holds for the state, or until the monotonic
    /// clock (``MonotonicTime/nanoseconds()``) reaches what `deadline`
    /// gives for it (nil: no deadline; asked again after each wake-up, as
    /// the state may move it), then runs `body` still holding the lock,
    /// with whether `ready` held.
    ///
    /// `ready` and `deadline` only read the state: it is lent to them in
    /// place (`inout`), not copied for each check, as a copy retains all
    /// it holds (a frame's wake-ups on the presenter thread paid for that).
    @inlinable package func withLock<Result, E: Error>(
        waitingUntil ready: (inout State) -> Bool, deadline: (inout State) -> UInt64? = { _ in nil },
        _ body: (inout sending State, _ ready: Bool) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        condition.lock()
        defer { condition.unlock() }
        var isReady = ready(&state)
        while !isReady {
            if let deadline = deadline(&state) {
                if MonotonicTime.nanoseconds() >= deadline { break }
                condition.wait(untilNanoseconds: deadline)
            } else {
                condition.wait()
            }
            isReady = ready(&state)
        }
        return try body(&state, isReady)
    }

    /// Wakes one waiter, to check its predicate again.
    @inlinable package func signal() { condition.signal() }
    /// Wakes every waiter, to check its predicate again.
    @inlinable package func broadcast() { condition.broadcast() }
}
