import Foundation
@testable import HostSystem
import Testing

/// State inside a lock with a condition: a wait is a predicate on the
/// state and a deadline the state may move, checked again at every wake.
@Suite("A condition lock: state inside it, waits on it")
struct ConditionLockTests {
    @Test func aWaitEndsOnceItsPredicateHoldsAfterAChangeElsewhere() {
        let lock = ConditionLock(false)
        let far = MonotonicTime.nanoseconds() + 60_000_000_000
        Thread.detachNewThread {
            lock.withLock { $0 = true }
            lock.broadcast()
        }
        let ready = lock.withLock(waitingUntil: { $0 }, deadline: { _ in far }) { _, ready in ready }
        #expect(ready)
        #expect(MonotonicTime.nanoseconds() < far)
    }

    @Test func aWaitGivesUpAtItsDeadlineAndSaysNotReady() {
        let lock = ConditionLock(0)
        let deadline = MonotonicTime.nanoseconds() + 200_000_000
        let (ready, value) = lock.withLock(waitingUntil: { $0 > 0 }, deadline: { _ in deadline }) { state, ready in
            state += 10
            return (ready, state)
        }
        #expect(!ready)
        #expect(value == 10, "the body runs under the lock once the wait gave up")
        #expect(MonotonicTime.nanoseconds() >= deadline)
    }

    /// The deadline is read from the state at every wake: one moved
    /// earlier by another thread ends the wait then, not at the first one.
    @Test func aDeadlineTheStateMovesEarlierEndsTheWaitThen() {
        let far = MonotonicTime.nanoseconds() + 60_000_000_000
        let lock = ConditionLock(far)
        Thread.detachNewThread {
            lock.withLock { $0 = MonotonicTime.nanoseconds() + 100_000_000 }
            lock.broadcast()
        }
        let (ready, deadline) = lock.withLock(waitingUntil: { _ in false }, deadline: { $0 }) { deadline, ready in
            (ready, deadline)
        }
        #expect(!ready)
        #expect(deadline < far)
        #expect(MonotonicTime.nanoseconds() >= deadline)
        #expect(MonotonicTime.nanoseconds() < far)
    }

    /// The state changes under the lock and the wake comes after it: a
    /// waiter that checked its predicate before the change sleeps on the
    /// condition's count of wakes taken under the same lock, so the wake
    /// still reaches it. Two threads hand a turn back and forth; a lost
    /// wake would leave both asleep until the deadline, which the count of
    /// timed-out waits would show.
    @Test func noWakeIsLostInTenThousandHandoffs() {
        let lock = ConditionLock((turn: 0, timeouts: 0))
        let handoffs = 10_000
        let done = DispatchSemaphore(value: 0)
        for player in 0..<2 {
            Thread.detachNewThread {
                var playing = true
                while playing {
                    let deadline = MonotonicTime.nanoseconds() + 5_000_000_000
                    playing = lock.withLock(
                        waitingUntil: { $0.turn >= handoffs || $0.turn % 2 == player }, deadline: { _ in deadline }
                    ) { state, ready in
                        if !ready { state.timeouts += 1 }
                        guard state.turn < handoffs else { return false }
                        if state.turn % 2 == player { state.turn += 1 }
                        return true
                    }
                    lock.signal()
                }
                done.signal()
            }
        }
        done.wait()
        done.wait()
        let (turn, timeouts) = lock.withLock { ($0.turn, $0.timeouts) }
        #expect(turn == handoffs)
        #expect(timeouts == 0)
    }
}
