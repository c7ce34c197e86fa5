extension PluginLoadFailure {
    /// What is wrong with a scan helper's report of a file, by the rules
    /// what the host's own loader reports always passes (`LoadRecords`,
    /// `ScanReader`). Plugin code can reach the helper's report channel (a
    /// constructor finds it among its descriptors), so a report is input
    /// like any other: one that breaks a rule was written by the file's own
    /// code, and the file is refused for it.
    public enum ReportProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
        /// A presenter's record breaks a rule of its field, as a descriptor
        /// read in place would (`DescriptorRules`).
        case field(DescriptorProblem)
        /// A record is not one the host writes: its kind, its fields, a
        /// number, or a refusal that does not decode.
        case malformed
        /// A presenter's hooks are not the ABI's, each once, in descriptor order.
        case hooks
        /// A refusal's text holds a control or layout character.
        case failureText
        /// A refusal says what only the host finds of a helper (a crash,
        /// an exit, a timeout, a stop, a file it could not scan).
        case hostFinding
        /// A line longer than the protocol allows.
        case lineTooLong(limit: Int)
        /// More records than a file may hold presenters.
        case tooManyRecords(limit: Int)
        /// A line that is not the scan protocol once the file began loading
        /// (the file done without a record, say).
        case notTheProtocol

        public var description: String {
            switch self {
            case .field(let problem): return problem.description
            case .malformed: return "not a record of the scan protocol"
            case .hooks: return "hooks that are not the ABI's, each once, in descriptor order"
            case .failureText: return "a refusal holding a control or bidirectional formatting character"
            case .hostFinding: return "a refusal only the host can find (a crash, an exit, a timeout or a stop)"
            case .lineTooLong(let limit): return "a line longer than \(limit) bytes"
            case .tooManyRecords(let limit): return "more than \(limit) records"
            case .notTheProtocol: return "a line out of the scan protocol's order"
            }
        }
    }

    /// Whether this is what only the host finds of a scan helper, never
    /// what a helper reports of a file it loaded: how the helper ended, or
    /// that there was none.
    var isHostFinding: Bool {
        switch self {
        case .crashed, .exited, .timedOut, .stopped, .unscanned: return true
        default: return false
        }
    }
}
