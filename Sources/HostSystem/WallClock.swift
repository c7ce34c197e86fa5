#if canImport(Glibc)
    import Glibc
#endif
import SystemShims  // `struct timespec`: clang gives its members to the first module whose header has <time.h>

/// The wall clock (CLOCK_REALTIME): the date a bookmark was added, the
/// time a `--log` line was written. Never for durations or deadlines, which
/// are ``MonotonicTime``'s: the wall clock jumps when it is set.
package enum WallClock {
    /// Now: seconds since the epoch, and the nanoseconds into the second
    /// (`clock_gettime(CLOCK_REALTIME)`).
    package static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    /// `seconds` since the epoch as a date and time in UTC (`gmtime_r`):
    /// the host writes its dates in UTC, never in the local time zone,
    /// which would read the time-zone files.
    package static func utc(_ seconds: time_t) -> tm {
        var moment = seconds
        var parts = tm()
        gmtime_r(&moment, &parts)
        return parts
    }

    /// `moment` in UTC as ISO 8601: `2026-11-30T22:12:07Z`, or with
    /// `milliseconds` `2026-11-30T22:12:07.123Z`. The digits are written
    /// here: printf's varargs cost a run's start some 450,000 instructions
    /// (the first `CVarArg` cast scans every conformance record), and
    /// strftime reads the locale.
    package static func iso8601(_ moment: timespec, milliseconds: Bool) -> String {
        let parts = utc(moment.tv_sec)
        var text = ""
        func append(_ value: Int, width: Int) {
            let digits = String(value)
            text += String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        append(Int(parts.tm_year) + 1900, width: 4)
        text += "-"
        append(Int(parts.tm_mon) + 1, width: 2)
        text += "-"
        append(Int(parts.tm_mday), width: 2)
        text += "T"
        append(Int(parts.tm_hour), width: 2)
        text += ":"
        append(Int(parts.tm_min), width: 2)
        text += ":"
        append(Int(parts.tm_sec), width: 2)
        if milliseconds {
            text += "."
            append(Int(moment.tv_nsec / 1_000_000), width: 3)
        }
        return text + "Z"
    }
}
