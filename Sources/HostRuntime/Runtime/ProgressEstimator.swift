import Glibc

/// The smoothed rate and time left of one interactor's progress, computed
/// by the host once for every presenter (ABI 1.4's `rate` and `eta_s`), so
/// no presenter author re-derives them.
///
/// As indicatif estimates them: each report gives a rate (what was done
/// since the one before, over the time between them), and the estimate is an
/// exponentially weighted average of those rates in which a rate's weight
/// falls to a tenth after ``window`` seconds, averaged a second time the same
/// way to steady it. Both averages are normalised by the weight the reports
/// seen so far carry, so the first rate counts fully instead of being pulled
/// towards zero. Asked between reports, the time since the last one counts
/// as a report of no progress: a stalled command's rate falls and its time
/// left grows, rather than standing still.
///
/// Positions are units of `done` when the work reports counts, else the
/// fraction; a change of kind or of total, or a position going back, starts
/// the estimate again. Pure: times (nanoseconds) come in as arguments.
package struct ProgressEstimator: Sendable {
    /// The seconds after which a rate weighs a tenth of a new one.
    static let window = 15.0

    /// What the positions count: the fraction (`nil`), or units of this total.
    private var total: Double?
    /// The first report's time: the averages weigh what came since.
    private var origin: UInt64?
    /// The last report's position and time.
    private var last: (position: Double, time: UInt64)?
    /// The averages, not yet normalised (they start from zero).
    private var single = 0.0
    private var double = 0.0
    /// True once two reports came some time apart: the averages hold a rate.
    private var measured = false

    /// An estimate that has seen no report.
    package init() {}

    /// Adds a report: `fraction` in 0...1 (negative: unknown again, which
    /// forgets everything), and `counts` when the work reports them.
    package mutating func record(fraction: Double, counts: (done: Double, total: Double)?, at now: UInt64) {
        guard fraction >= 0 else { return self = ProgressEstimator() }
        let position = counts?.done ?? fraction
        guard let last, let origin, counts?.total == total, position >= last.position, now >= last.time else {
            self = ProgressEstimator()
            total = counts?.total
            origin = now
            self.last = (position, now)
            return
        }
        let elapsed = Self.seconds(now - last.time)
        guard elapsed > 0 else {
            self.last = (position, last.time)  // the same instant: one report
            return
        }
        let weight = Self.weight(age: elapsed)
        let seen = 1 - Self.weight(age: Self.seconds(now - origin))
        single = single * weight + (position - last.position) / elapsed * (1 - weight)
        double = double * weight + single / seen * (1 - weight)
        measured = true
        self.last = (position, now)
    }

    /// Units (or fraction) per second at `now`; `nil` until two reports
    /// some time apart.
    package func rate(at now: UInt64) -> Double? {
        guard measured, let origin, let last else { return nil }
        let since = now > last.time ? Self.seconds(now - last.time) : 0
        let weight = Self.weight(age: since)
        let seen = 1 - Self.weight(age: Self.seconds(max(now, last.time) - origin))
        guard seen > 0 else { return nil }
        // The time since the last report, as a report of no progress.
        let single = single * weight
        let double = double * weight + single / seen * (1 - weight)
        let rate = double / seen
        return rate.isFinite ? max(rate, 0) : nil
    }

    /// Seconds left at `now` to reach the end (`total`, or a fraction of
    /// 1) at the rate then; `nil` when the rate is unknown or zero.
    package func secondsLeft(at now: UInt64) -> Double? {
        guard let last, let rate = rate(at: now) else { return nil }
        let left = max((total ?? 1) - last.position, 0)
        if left == 0 { return 0 }
        guard rate > 0 else { return nil }
        let seconds = left / rate
        return seconds.isFinite ? seconds : nil
    }

    /// A report's weight after `age` seconds: 1 now, a tenth after ``window``.
    private static func weight(age: Double) -> Double {
        pow(0.1, age / window)
    }

    private static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
}
