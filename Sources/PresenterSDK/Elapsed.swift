/// Durations as people who use indicatif or gum expect to read them: `5s`,
/// `1m05s`, `1h02m`. For an elapsed time (``InteractorInfo/startedAt``)
/// and a time left (``InteractorInfo/eta``) alike, so every presenter
/// shows time the same way without writing it again.
public enum Elapsed {
    /// `seconds`, whole seconds counted (a negative or NaN value is `0s`):
    /// under a minute `42s`; under an hour minutes and two-digit seconds,
    /// `1m05s`; then hours and two-digit minutes, `1h02m` (`26h00m` past a day).
    public static func format(seconds: Double) -> String {
        // Capped far above any run (about 114 years), so the Int never overflows.
        let whole = seconds.isNaN ? 0 : Int(min(max(seconds, 0), 3.6e9))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m" + twoDigits(whole % 60) + "s" }
        return "\(whole / 3600)h" + twoDigits(whole / 60 % 60) + "m"
    }

    /// The time from `start` to `now`, nanoseconds on the host's clock
    /// (``Host/now``), formatted as ``format(seconds:)``; `0s` when `now`
    /// is before `start`.
    public static func format(from start: UInt64, to now: UInt64) -> String {
        format(seconds: now > start ? Double(now - start) / 1e9 : 0)
    }

    /// When the text of an elapsed time that started at `start` next
    /// changes after `now`: the next whole second since `start`. Ask a
    /// frame for then (``Host/requestFrame(at:)``) rather than every frame.
    public static func nextChange(from start: UInt64, after now: UInt64) -> UInt64 {
        guard now >= start else { return start }
        let second: UInt64 = 1_000_000_000
        let (next, overflow) = ((now - start) / second + 1).multipliedReportingOverflow(by: second)
        let (at, beyond) = start.addingReportingOverflow(next)
        return overflow || beyond ? .max : at
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
