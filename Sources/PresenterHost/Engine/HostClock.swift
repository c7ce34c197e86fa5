import Synchronization

/// The runtime's clock, in nanoseconds: what `now_ns` returns to plugins and
/// what frame times are measured on.
public protocol HostClock: Sendable {
    /// The current time in nanoseconds; never goes back.
    func now() -> UInt64

    /// True when the clock moves with real time. A runtime arms a timer for
    /// its next frame only on such a clock; on one that moves only when its
    /// owner moves it, frames come when the owner renders them.
    var movesOnItsOwn: Bool { get }
}

/// The system's monotonic clock (CLOCK_MONOTONIC).
public struct MonotonicClock: HostClock {
    public init() {}
    public func now() -> UInt64 { MonotonicTime.nanoseconds() }
    public var movesOnItsOwn: Bool { true }
}

/// A clock that moves only when its owner moves it: `check` steps it to
/// give every plugin the same times, and tests step it (with
/// `PresenterHostTesting`'s `advance(by:)`, which also renders the frames
/// that fall due on the way), so screen tests are deterministic.
public final class ManualClock: HostClock, Sendable {
    private let time: Mutex<UInt64>

    /// A clock reading `start` (one second by default, so that plugins
    /// subtracting small durations from the first reading stay positive).
    public init(start: UInt64 = 1_000_000_000) { time = Mutex(start) }

    public func now() -> UInt64 { time.withLock { $0 } }
    public var movesOnItsOwn: Bool { false }

    /// Moves the clock to `newTime` (never back).
    public func set(_ newTime: UInt64) { time.withLock { $0 = max($0, newTime) } }
}
