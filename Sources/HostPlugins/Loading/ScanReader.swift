import HostSandbox

/// What one scan helper's report lines say, read line by line as
/// `PluginScanner` reads them (`ScanProtocol`): the header and the sandbox
/// it entered, then `begin`, its file's `result` records and `done`.
///
/// Up to `begin` the helper alone has written: a line out of turn there
/// makes the helper unusable. After it, plugin code may have written too,
/// so whatever breaks the rules (a line out of turn, one too long, too many
/// records, records `LoadRecords` refuses) refuses the file. Apart from the
/// process, so the fuzzer reads lines with this very code.
struct ScanReader {
    /// What one line made of the session.
    enum Step: Equatable {
        /// Read; more to come.
        case more
        /// The file is done: loading it gave `contents` (or its report broke
        /// the rules, and it is refused for that).
        case loaded(PluginLibrary.Outcome)
        /// Not the protocol, before the file began: nothing after it is to be believed.
        case broken
    }

    /// The real path of the helper's file; nil for a helper given none
    /// (`PluginScanner.probe`).
    let path: String?
    /// Whether the header (of this host's version) came.
    private(set) var started = false
    /// The sandbox the helper said it entered, layer by layer (after the header).
    private(set) var sandbox: [ConfinementReport.Entry] = []
    /// Whether the file began loading: then a helper that ends was killed by it.
    private(set) var begun = false
    /// The file's record lines so far.
    private var records: [ArraySlice<UInt8>] = []

    init(path: String?) { self.path = path }

    /// Reads one line (without its newline; cut at `ScanProtocol.maxLineBytes`
    /// + 1 bytes when it had none by then). After `.loaded` or `.broken`
    /// nothing more is to be read.
    mutating func read(_ line: ArraySlice<UInt8>) -> Step {
        guard line.count <= ScanProtocol.maxLineBytes else {
            return begun ? refused(.lineTooLong(limit: ScanProtocol.maxLineBytes)) : .broken
        }
        switch (ScanProtocol.Line(line), begun) {
        case (.header(ScanProtocol.version)?, false) where !started:
            started = true
        case (.sandbox(let entry)?, false) where started && sandbox.count < ConfinementReport.Layer.allCases.count:
            sandbox.append(entry)
        case (.begin?, false) where started && path != nil:
            begun = true
        case (.result(let record)?, true):
            guard records.count < PluginLibrary.maxPresenters else {
                return refused(.tooManyRecords(limit: PluginLibrary.maxPresenters))
            }
            records.append(record)
        case (.done?, true):
            do throws(LoadRecords.Invalid) {
                return .loaded(try LoadRecords.outcome(records, file: path ?? "", cached: false))
            } catch {
                return .loaded(.failure(error.failure))
            }
        case (_, true):
            return refused(.notTheProtocol)
        default:
            return .broken
        }
        return .more
    }

    /// The file refused for its report.
    private func refused(_ problem: PluginLoadFailure.ReportProblem) -> Step {
        .loaded(.failure(.untrustedReport(record: nil, problem)))
    }
}
