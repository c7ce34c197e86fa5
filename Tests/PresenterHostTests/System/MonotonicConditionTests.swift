import Foundation
@testable import HostSystem
import Testing

/// The presenter thread's frame timer and `waitUntilSettled` wait on a
/// condition on CLOCK_MONOTONIC. A wall clock set back cannot be tested
/// here (setting CLOCK_REALTIME needs CAP_SYS_TIME and would move the
/// shared machine's clock; a time namespace offsets only the monotonic
/// clocks), so these check that the deadline is read on the monotonic
/// clock: on CLOCK_REALTIME a deadline of "monotonic now + 200 ms" lies in
/// 1970 and the wait would end at once.
@Suite("A condition on the monotonic clock")
struct MonotonicConditionTests {
    @Test func aTimedWaitEndsAtItsMonotonicDeadlineNotBefore() {
        let condition = MonotonicCondition()
        let deadline = MonotonicTime.nanoseconds() + 200_000_000
        // One wait, not a loop: a loop would hide a wait that ends at once.
        // Nothing signals it, and nothing but a wake moves its futex word.
        let signalled = condition.withLock { condition.wait(untilNanoseconds: deadline) }
        #expect(!signalled)
        #expect(MonotonicTime.nanoseconds() >= deadline)
    }

    @Test func aSignalEndsATimedWaitBeforeItsDeadline() {
        final class State: @unchecked Sendable {  // Safe: `ready` only under `condition`.
            let condition = MonotonicCondition()
            var ready = false
        }
        let state = State()
        let far = MonotonicTime.nanoseconds() + 60_000_000_000
        Thread.detachNewThread {
            state.condition.withLock {
                state.ready = true
                state.condition.signal()
            }
        }
        let ready = state.condition.withLock {
            while !state.ready && state.condition.wait(untilNanoseconds: far) {}
            return state.ready
        }
        #expect(ready)
        #expect(MonotonicTime.nanoseconds() < far)
    }

    @Test func aBroadcastWakesEveryWaiter() {
        final class State: @unchecked Sendable {  // Safe: the counts only under `condition`.
            let condition = MonotonicCondition()
            var waiting = 0
            var released = false
            var woken = 0
        }
        let state = State()
        let far = MonotonicTime.nanoseconds() + 60_000_000_000
        let waiters = 4
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<waiters {
            Thread.detachNewThread {
                state.condition.withLock {
                    state.waiting += 1
                    state.condition.broadcast()  // tells the test one more waits
                    while !state.released && state.condition.wait(untilNanoseconds: far) {}
                    if state.released { state.woken += 1 }
                }
                finished.signal()
            }
        }
        state.condition.withLock {
            while state.waiting < waiters && state.condition.wait(untilNanoseconds: far) {}
            state.released = true
            state.condition.broadcast()
        }
        for _ in 0..<waiters { finished.wait() }
        #expect(state.condition.withLock { state.woken } == waiters)
        #expect(MonotonicTime.nanoseconds() < far)
    }

    /// Two threads hand a turn back and forth with `signal`, each waiting
    /// for its own: a wake lost between a waiter's unlock and its sleep
    /// (the race the futex word's sequence closes) would leave both asleep
    /// until the deadline, which the count of timed-out waits would show.
    @Test func noWakeIsLostInTenThousandHandoffs() {
        final class State: @unchecked Sendable {  // Safe: `turn`, `timeouts` only under `condition`.
            let condition = MonotonicCondition()
            var turn = 0
            var timeouts = 0
        }
        let state = State()
        let handoffs = 10_000
        let done = DispatchSemaphore(value: 0)
        for player in 0..<2 {
            Thread.detachNewThread {
                state.condition.withLock {
                    while state.turn < handoffs {
                        if state.turn % 2 == player {
                            state.turn += 1
                            state.condition.signal()
                        } else if !state.condition.wait(untilNanoseconds: MonotonicTime.nanoseconds() + 5_000_000_000) {
                            state.timeouts += 1
                        }
                    }
                    state.condition.signal()
                }
                done.signal()
            }
        }
        done.wait()
        done.wait()
        #expect(state.condition.withLock { (state.turn, state.timeouts) } == (handoffs, 0))
    }
}
