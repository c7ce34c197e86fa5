#if canImport(Glibc)
    import Glibc
#endif

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
}
