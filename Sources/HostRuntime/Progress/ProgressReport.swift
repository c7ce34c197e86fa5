/// One report of progress from the work itself: a progress line of `run`'s
/// progress channel, or an OSC 9;4 sequence in the command's output. Given
/// to ``InteractorHandle/report(fraction:message:)``.
package struct ProgressReport: Equatable, Sendable {
    /// The completed fraction in 0...1, negative for "unknown again", `nil`
    /// to leave it as it is.
    package var fraction: Double?
    /// A working message that replaces the current one; `nil` leaves it.
    package var message: String?

    /// A report of `fraction` and/or `message`.
    package init(fraction: Double? = nil, message: String? = nil) {
        self.fraction = fraction
        self.message = message
    }

    /// What reports `self` then `later` amount to (the later one wins for
    /// each part it sets).
    func merged(with later: ProgressReport) -> ProgressReport {
        ProgressReport(fraction: later.fraction ?? fraction, message: later.message ?? message)
    }
}
