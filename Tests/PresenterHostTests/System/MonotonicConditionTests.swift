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
        // Nothing signals it, and glibc does not wake a timed wait spuriously.
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
}
