/// The result of one conformance check of `presenter-host check`: PASS,
/// FAIL or WARN, why, and what to change.
package struct ConformanceResult: Equatable, Sendable {
    package enum Verdict: String, Sendable, Comparable {
        case pass = "PASS", warn = "WARN", fail = "FAIL"

        private var rank: Int { self == .pass ? 0 : self == .warn ? 1 : 2 }
        package static func < (a: Verdict, b: Verdict) -> Bool { a.rank < b.rank }
    }

    /// The file checked.
    package var path: String
    /// The presenter checked, or nil for a check of the whole file (it loads).
    package var presenterId: String?
    /// The check's name, e.g. "messages".
    package var check: String
    package var verdict: Verdict
    /// What happened (for a PASS, a short summary or nil).
    package var reason: String?
    /// What to change (nil for a PASS).
    package var fix: String?
}

/// What one check found: the worst verdict wins, the first reason of that
/// verdict is the one shown.
struct CheckFindings {
    private(set) var verdict = ConformanceResult.Verdict.pass
    private(set) var reason: String?
    private(set) var fix: String?

    mutating func add(_ verdict: ConformanceResult.Verdict, _ reason: String, fix: String) {
        guard verdict > self.verdict else { return }
        self.verdict = verdict
        self.reason = reason
        self.fix = fix
    }

    mutating func fail(_ reason: String, fix: String) { add(.fail, reason, fix: fix) }
    mutating func warn(_ reason: String, fix: String) { add(.warn, reason, fix: fix) }
}
