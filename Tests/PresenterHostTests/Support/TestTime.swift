import Foundation

/// Where the tests' time limits come from, for a build that runs slower
/// than normal: a sanitized one (`scripts/sanitize`) starts processes and
/// runs code several times slower, and a limit meant for a normal build
/// (a run ends within its command's time plus slack, a page is fetched
/// within 0.5 s, a wait gives up after 10 s) would fail there for that
/// reason alone.
///
/// Every such limit is `TestTime.scaled(seconds)`: `seconds` times
/// `PRESENTER_TEST_TIME_SCALE` (a number of at least 1; 1 when unset or
/// not a number, so a normal run is exactly as strict as written).
/// `scripts/sanitize` sets it for each sanitizer. Measurements are not
/// scaled (a 2 s window of wake-ups stays 2 s): a test whose subject
/// cannot hold under a sanitizer is disabled there instead, with
/// ``Sanitizer/current``.
enum TestTime {
    /// The environment variable with the factor.
    static let variable = "PRESENTER_TEST_TIME_SCALE"

    /// The factor: `PRESENTER_TEST_TIME_SCALE`, or 1.
    static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment[variable], let value = Double(text),
            value.isFinite, value >= 1
        else { return 1 }
        return value
    }()

    /// `seconds`, scaled.
    static func scaled(_ seconds: Double) -> Double { seconds * scale }

    /// `milliseconds`, scaled, as a whole number (for `PRESENTER_SCAN_TIMEOUT_MS` and the like).
    static func scaled(milliseconds: Int) -> Int { Int((Double(milliseconds) * scale).rounded()) }
}

/// The sanitizer the tests were built with: `PRESENTER_SANITIZER`, which
/// `scripts/sanitize` sets (`thread` or `address`); `nil` in a normal run.
/// For `.disabled(if: Sanitizer.current == .thread, "why")` on a test that
/// cannot mean anything under one (its reason says why; scripts/sanitize's
/// header lists them).
enum Sanitizer: String {
    case thread, address

    static let current: Sanitizer? = ProcessInfo.processInfo.environment["PRESENTER_SANITIZER"].flatMap(Sanitizer.init)

    /// The exit status of a process that calls `exit(status)` inside
    /// `dlopen` (a library's constructor): under ThreadSanitizer its
    /// `dlopen` interceptor's ignores are still on then, so it reports
    /// "main thread finished with ignores enabled" and ends the process
    /// with its own exit code, which scripts/sanitize sets to 0.
    static func statusOfExitInsideDlopen(_ status: Int32) -> Int32 { current == .thread ? 0 : status }
}
