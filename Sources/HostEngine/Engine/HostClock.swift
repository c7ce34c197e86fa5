import HostSystem

/// The runtime's clock, in nanoseconds: what `now_ns` returns to plugins and
/// what frame times are measured on.
public protocol HostClock: Sendable {
    /// The current time in nanoseconds; never goes back.
    func now() -> UInt64

    /// True when the clock moves with real time. A runtime arms a timer for
    /// its next frame only on such a clock; on one that moves only when its
    /// owner moves it, frames come when the owner renders them.
    var movesOnItsOwn: Bool { get }

    /// True when ``now()`` reads the system's CLOCK_MONOTONIC, which every
    /// process on the machine reads alike: a presenter process then reads
    /// its `now_ns` itself. Any other clock (a manual one, or a real-time
    /// one of the embedder's with its own epoch or rate) is false, and its
    /// time goes with every request, so the plugin sees the host's clock.
    var isSystemMonotonic: Bool { get }
}

extension HostClock {
    /// False: only ``MonotonicClock`` reads the system's clock as it is.
    public var isSystemMonotonic: Bool { false }
}

/// The system's monotonic clock (CLOCK_MONOTONIC).
public struct MonotonicClock: HostClock {
    /// The system's clock; it has nothing to configure.
    public init() {}
    /// CLOCK_MONOTONIC now: what a presenter process reads itself.
    public func now() -> UInt64 { MonotonicTime.nanoseconds() }
    /// True: real time, so the runtime arms its frame timer.
    public var movesOnItsOwn: Bool { true }
    /// True: a presenter process reads the same clock without asking the host.
    public var isSystemMonotonic: Bool { true }
}

/// A clock that moves only when its owner moves it: `check` steps it to
/// give every plugin the same times, and tests step it (with
/// `PresenterHostTesting`'s `advance(by:)`, which also renders the frames
/// that fall due on the way), so screen tests are deterministic.
public final class ManualClock: HostClock, Sendable {
    private let time: LockedValue<UInt64>

    /// A clock reading `start` (one second by default, so that plugins
    /// subtracting small durations from the first reading stay positive).
    public init(start: UInt64 = 1_000_000_000) { time = LockedValue(start) }

    /// The time last set: it stands still between its owner's steps.
    public func now() -> UInt64 { time.withLock { $0 } }
    /// False: frames come when the owner renders them, never on a timer.
    public var movesOnItsOwn: Bool { false }

    /// Moves the clock to `newTime` (never back).
    public func set(_ newTime: UInt64) { time.withLock { $0 = max($0, newTime) } }
}
