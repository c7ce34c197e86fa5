/// The time of an interactor's work that ABI 1.4 gives presenters
/// (`started_ns`, `done`, `total`, `rate`, `eta_s` of `presenter_interactor`),
/// measured by the host once so that no presenter re-derives it. A negative
/// value is unknown, as in the C struct; every value is finite.
package struct InteractorTiming: Equatable, Sendable {
    /// When the interactor's show began, on the clock of `now_ns`; 0 only
    /// where no time was measured (a snapshot made without a runtime).
    package var startedAt: UInt64
    /// Units done, when the work reports counts.
    package var done: Double
    /// The total of those units.
    package var total: Double
    /// The smoothed rate: units (or, without counts, the fraction) a second.
    package var rate: Double
    /// The smoothed seconds left as of the snapshot.
    package var secondsLeft: Double

    /// Timing with every value given; a value that is not finite, or is
    /// negative, becomes unknown (-1).
    package init(startedAt: UInt64, done: Double, total: Double, rate: Double, secondsLeft: Double) {
        self.startedAt = startedAt
        self.done = Self.known(done)
        self.total = Self.known(total)
        self.rate = Self.known(rate)
        self.secondsLeft = Self.known(secondsLeft)
    }

    /// Nothing measured: what a snapshot carries outside a runtime (`check`).
    package static let unknown = InteractorTiming(startedAt: 0, done: -1, total: -1, rate: -1, secondsLeft: -1)

    /// `value` when finite and not negative, else -1 (unknown): what comes
    /// from the other end of a channel is data, never trusted to be a number.
    static func known(_ value: Double) -> Double {
        value.isFinite && value >= 0 ? value : -1
    }
}
