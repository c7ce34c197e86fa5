/// What one scan helper's report lines say, read line by line as
/// `PluginScanner` reads them (`ScanProtocol`): the header, then for each
/// file in turn `begin`, its `result` records and `done`. Any other line,
/// or records that are not one file's results, make the rest untrusted.
/// Apart from the process, so the fuzzer reads lines with this very code.
struct ScanReader {
    /// What one line made of the session.
    enum Step: Equatable {
        /// Read; more to come.
        case more
        /// File `index` is done; loading it gave `contents`.
        case loaded(index: Int, contents: PluginLibrary.Outcome)
        /// Not the protocol: nothing after it is to be believed.
        case broken
    }

    /// The real paths of the helper's files, by index.
    let paths: [String]
    /// Whether the header (of this host's version) came.
    private(set) var started = false
    /// The sandbox the helper said it entered, layer by layer (after the header).
    private(set) var sandbox: [ConfinementReport.Entry] = []
    /// The file begun and not done: the one to blame if the helper dies.
    private(set) var current: Int?
    /// How many files are done (they are done in order).
    private(set) var completed = 0
    /// The record lines of `current` so far, split at tabs.
    private var records: [[String]] = []

    init(paths: [String]) { self.paths = paths }

    /// Reads one line (without its newline).
    mutating func read(_ text: Substring) -> Step {
        switch (ScanProtocol.Line(text), current) {
        case (.header(ScanProtocol.version)?, nil) where !started:
            started = true
        case (.sandbox(let entry)?, nil)
        where started && completed == 0 && sandbox.count < ConfinementReport.Layer.allCases.count:
            sandbox.append(entry)
        case (.begin(let index)?, nil) where started && index == completed && index < paths.count:
            current = index
            records = []
        case (.result(let index, let record)?, let begun?) where index == begun:
            records.append(LoadRecords.fields(record.utf8))
        case (.done(let index)?, let begun?) where index == begun:
            guard let contents = try? LoadRecords.outcome(records, file: paths[index], cached: false) else {
                return .broken
            }
            current = nil
            records = []
            completed += 1
            return .loaded(index: index, contents: contents)
        default:
            return .broken
        }
        return .more
    }
}
