/// One report of progress from the work itself: a progress line of `run`'s
/// progress channel, or an OSC 9;4 sequence in the command's output. Given
/// to ``InteractorHandle/report(fraction:counts:message:)``.
package struct ProgressReport: Equatable, Sendable {
    /// The completed fraction in 0...1, negative for "unknown again", `nil`
    /// to leave it as it is.
    package var fraction: Double?
    /// A working message that replaces the current one; `nil` leaves it.
    package var message: String?
    /// The counts behind `fraction` when the work gave them (`42/100`),
    /// for ABI 1.4's `done` and `total`; `nil` with a fraction given alone.
    package var counts: Counts?

    /// Units done out of a total above zero.
    package struct Counts: Equatable, Sendable {
        /// Units done, at most `total`.
        package var done: Double
        /// The total, above zero.
        package var total: Double

        /// `done` out of `total`.
        package init(done: Double, total: Double) {
            self.done = done
            self.total = total
        }
    }

    /// A report of `fraction` and/or `message`.
    package init(fraction: Double? = nil, message: String? = nil) {
        self.fraction = fraction
        self.message = message
    }

    /// A report of `done` out of `total` (a total above zero, done at most
    /// it): the fraction and the counts.
    package init(done: Double, total: Double) {
        fraction = done / total
        counts = Counts(done: done, total: total)
    }

    /// What reports `self` then `later` amount to (the later one wins for
    /// each part it sets; the counts go with the fraction they came with).
    func merged(with later: ProgressReport) -> ProgressReport {
        var merged = later.fraction == nil ? self : later
        merged.message = later.message ?? message
        return merged
    }
}
