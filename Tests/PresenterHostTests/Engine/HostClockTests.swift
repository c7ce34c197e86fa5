import PresenterHost
import Testing

/// Which clocks a presenter process reads itself and which it is sent.
@Suite("Host clocks")
struct HostClockTests {
    /// A real-time clock of an embedder's, with an epoch of its own.
    struct OffsetClock: HostClock {
        func now() -> UInt64 { MonotonicClock().now() + 1_000_000_000_000 }
        var movesOnItsOwn: Bool { true }
    }

    @Test func onlyTheSystemsMonotonicClockIsReadByThePresenterProcessItself() {
        #expect(MonotonicClock().isSystemMonotonic)
        #expect(!ManualClock().isSystemMonotonic)
        // It moves on its own, yet the presenter process cannot read it.
        #expect(OffsetClock().movesOnItsOwn && !OffsetClock().isSystemMonotonic)
    }
}
