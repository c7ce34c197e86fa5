import Testing
@testable import HostRuntime

/// The host's smoothed rate and time left (ABI 1.4's `rate` and `eta_s`),
/// on synthetic timestamps: no clock, every time given.
@Suite("progress estimate: rate and time left")
struct ProgressEstimatorTests {
    private static let second: UInt64 = 1_000_000_000

    /// `steps` reports of `step` units each, one every `interval` seconds from time `start`.
    private static func steady(
        _ estimator: inout ProgressEstimator, steps: Int, step: Double, total: Double?, interval: Double,
        start: UInt64 = second, from done: Double = 0
    ) -> UInt64 {
        var time = start
        for index in 0...steps {
            time = start + UInt64(Double(index) * interval * 1e9)
            let position = done + Double(index) * step
            let counts = total.map { (done: position, total: $0) }
            estimator.record(fraction: total.map { position / $0 } ?? position, counts: counts, at: time)
        }
        return time
    }

    @Test func oneReportGivesNoRateYet() {
        var estimator = ProgressEstimator()
        estimator.record(fraction: 0.1, counts: (10, 100), at: Self.second)
        #expect(estimator.rate(at: Self.second) == nil)
        #expect(estimator.secondsLeft(at: 2 * Self.second) == nil)
    }

    @Test func aSteadyCountGivesItsRateAndTheTimeLeft() throws {
        var estimator = ProgressEstimator()
        // 2 units a second: 20 reports half a second apart, 20 of 100 done.
        let end = Self.steady(&estimator, steps: 20, step: 1, total: 100, interval: 0.5)
        let rate = try #require(estimator.rate(at: end))
        #expect(abs(rate - 2) < 1e-9)
        let left = try #require(estimator.secondsLeft(at: end))
        #expect(abs(left - 40) < 1e-6)  // 80 units at 2 a second
    }

    @Test func aSteadyFractionGivesItsRateInFractionsASecond() throws {
        var estimator = ProgressEstimator()
        // 1 % a second, reported every 2 s.
        let end = Self.steady(&estimator, steps: 10, step: 0.02, total: nil, interval: 2)
        #expect(abs(try #require(estimator.rate(at: end)) - 0.01) < 1e-9)
        #expect(abs(try #require(estimator.secondsLeft(at: end)) - 80) < 1e-6)
    }

    /// A change of pace shows gradually, as an average over about 15 s does:
    /// after the rate doubles, the estimate moves towards the new one
    /// without jumping to it, and gets there within a few windows.
    @Test func aNewPaceIsFollowedSmoothly() throws {
        var estimator = ProgressEstimator()
        var time = Self.steady(&estimator, steps: 60, step: 1, total: 10_000, interval: 1)
        time = Self.steady(&estimator, steps: 5, step: 2, total: 10_000, interval: 1, start: time, from: 60)
        let soon = try #require(estimator.rate(at: time))
        #expect(soon > 1.05 && soon < 1.9)
        _ = Self.steady(&estimator, steps: 120, step: 2, total: 10_000, interval: 1, start: time, from: 70)
        let later = try #require(estimator.rate(at: time + 120 * Self.second))
        #expect(abs(later - 2) < 0.05)
    }

    /// Between reports the time since the last one counts as no progress:
    /// a stalled command's rate falls and its time left grows.
    @Test func aStallLowersTheRateAndRaisesTheTimeLeft() throws {
        var estimator = ProgressEstimator()
        let end = Self.steady(&estimator, steps: 10, step: 1, total: 100, interval: 1)
        let now = try #require(estimator.secondsLeft(at: end))
        let stalled = try #require(estimator.secondsLeft(at: end + 30 * Self.second))
        #expect(try #require(estimator.rate(at: end + 30 * Self.second)) < 0.5)
        #expect(stalled > now * 2)
    }

    @Test func theEndLeavesNoTime() throws {
        var estimator = ProgressEstimator()
        let end = Self.steady(&estimator, steps: 4, step: 25, total: 100, interval: 1)
        #expect(try #require(estimator.secondsLeft(at: end)) == 0)
    }

    /// Going back, another total, counts becoming a fraction, or the
    /// fraction becoming unknown start the estimate again.
    @Test func aNewKindOfProgressStartsAgain() {
        let time = { (seconds: UInt64) in seconds * Self.second }
        var estimator = ProgressEstimator()
        _ = Self.steady(&estimator, steps: 5, step: 1, total: 100, interval: 1)
        var back = estimator
        back.record(fraction: 0.01, counts: (1, 100), at: time(7))
        #expect(back.rate(at: time(7)) == nil)
        var otherTotal = estimator
        otherTotal.record(fraction: 0.06, counts: (6, 100), at: time(7))
        #expect(otherTotal.rate(at: time(7)) != nil)
        otherTotal.record(fraction: 0.06, counts: (12, 200), at: time(8))
        #expect(otherTotal.rate(at: time(8)) == nil)
        var fraction = estimator
        fraction.record(fraction: 0.07, counts: nil, at: time(8))
        #expect(fraction.rate(at: time(8)) == nil)
        var unknown = estimator
        unknown.record(fraction: -1, counts: nil, at: time(8))
        #expect(unknown.rate(at: time(8)) == nil && unknown.secondsLeft(at: time(8)) == nil)
    }

    /// Reports at the same instant count as one, the last: no division by zero.
    @Test func reportsAtOneInstantAreOne() throws {
        var estimator = ProgressEstimator()
        estimator.record(fraction: 0, counts: (0, 10), at: Self.second)
        estimator.record(fraction: 0.1, counts: (1, 10), at: Self.second)
        #expect(estimator.rate(at: Self.second) == nil)
        estimator.record(fraction: 0.3, counts: (3, 10), at: 2 * Self.second)
        #expect(abs(try #require(estimator.rate(at: 2 * Self.second)) - 2) < 1e-9)
    }
}
