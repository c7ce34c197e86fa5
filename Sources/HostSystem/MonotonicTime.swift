import Glibc
import SystemShims  // `struct timespec`: clang gives its members to the first module whose header has <time.h>

/// The one monotonic clock of the host (CLOCK_MONOTONIC): what `now_ns`
/// returns to plugins (through ``MonotonicClock``), watchdogs and budgets
/// are measured on, and durations are timed with. Never goes back, never
/// jumps with the wall clock.
package enum MonotonicTime {
    /// Now, in nanoseconds.
    package static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Now, in seconds.
    package static func seconds() -> Double {
        Double(nanoseconds()) / 1e9
    }

    /// Suspends the calling thread for `microseconds` (`usleep`, which
    /// Linux measures on this clock): a wait between polls where nothing
    /// can be waited for, as for the survivors of a timeout. A signal the
    /// thread handles ends it early.
    package static func sleep(microseconds: UInt32) {
        usleep(microseconds)
    }

    /// The time from now to `deadline` (on ``seconds()``) as `poll` takes
    /// it: whole milliseconds rounded up, so a wait never ends before the
    /// deadline; 0 once it has passed.
    package static func milliseconds(until deadline: Double) -> Int32 {
        let remaining = deadline - seconds()
        return remaining > 0 ? Int32(min(remaining * 1000 + 1, Double(Int32.max))) : 0
    }
}
