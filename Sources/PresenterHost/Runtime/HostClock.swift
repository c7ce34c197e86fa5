import Foundation

/// The runtime's clock, in nanoseconds: what `now_ns` returns to plugins and
/// what frame times are measured on.
public protocol HostClock: Sendable {
    /// The current time in nanoseconds; never goes back.
    func now() -> UInt64
}

/// The system's monotonic clock (CLOCK_MONOTONIC).
public struct MonotonicClock: HostClock {
    public init() {}
    public func now() -> UInt64 { MonotonicTime.nanoseconds() }
}

/// A clock that moves only when a test moves it, through
/// ``PresenterRuntime/advance(by:)`` or ``PresenterRuntime/advance(to:)``
/// (which also render the frames that fall due on the way). A runtime on a
/// manual clock never renders on a timer, so screen tests are deterministic.
public final class ManualClock: HostClock, @unchecked Sendable {
    private let lock = NSLock()
    private var time: UInt64

    /// A clock reading `start` (one second by default, so that plugins
    /// subtracting small durations from the first reading stay positive).
    public init(start: UInt64 = 1_000_000_000) { time = start }

    public func now() -> UInt64 { lock.withLock { time } }

    /// Moves the clock to `time` (never back).
    func set(_ newTime: UInt64) { lock.withLock { time = max(time, newTime) } }
}
