/// The line protocol a scan helper speaks on its report channel (see
/// `PluginScanner`). Version 3, one line each, UTF-8, `\n`-terminated:
///
///     presenter-host-scan 3     first: the protocol version
///     sandbox <layer> <state> <detail>
///                               then one line a layer: the sandbox it entered
///                               (``ConfinementReport``), before any plugin code
///     begin <index>             about to load file <index> (0-based, in argument order)
///     result <index> <record>   what loading it gave, one record line each (`LoadRecords`)
///     done <index>              file <index> was loaded (whether or not it is a valid plugin)
///
/// Indices, not paths, so a file name can never break a line (records hold
/// no path and no newline). A helper that ends while a file is begun and not
/// done was killed by that file. The host takes the records as the file's
/// results and loads nothing itself.
enum ScanProtocol {
    /// Bumped whenever a line is added or changes meaning.
    static let version = 3
    /// The longest line a helper may send (a record with every string at its limit is under 4 KiB).
    static let maxLineBytes = 65536

    /// One line of the protocol.
    enum Line: Equatable {
        case header(version: Int)
        /// One layer of the sandbox the helper entered (its tabs are spaces in the line).
        case sandbox(ConfinementReport.Entry)
        case begin(Int)
        case result(Int, String)
        case done(Int)

        /// The line's text, without its newline.
        var text: String {
            switch self {
            case .header(let version): return "presenter-host-scan \(version)"
            case .sandbox(let entry):
                let detail = entry.detail.replacingEvery("\n", with: " ")
                return "sandbox \(entry.layer.rawValue) \(entry.state.rawValue) \(detail)"
            case .begin(let index): return "begin \(index)"
            case .result(let index, let record): return "result \(index) \(record)"
            case .done(let index): return "done \(index)"
            }
        }

        /// Parses one line (without its newline); nil for anything else.
        init?(_ text: Substring) {
            if text.hasPrefix("sandbox ") {
                let words = text.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard words.count >= 3, let layer = ConfinementReport.Layer(rawValue: String(words[1])),
                    let state = ConfinementReport.State(rawValue: String(words[2]))
                else { return nil }
                self = .sandbox(.init(layer: layer, state: state, detail: words.count == 4 ? String(words[3]) : ""))
                return
            }
            if text.hasPrefix("result ") {
                let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard words.count == 3, let number = Int(words[1]), number >= 0, !words[2].isEmpty else { return nil }
                self = .result(number, String(words[2]))
                return
            }
            let words = text.split(separator: " ", omittingEmptySubsequences: false)
            guard words.count == 2, let number = Int(words[1]), number >= 0 else { return nil }
            switch words[0] {
            case "presenter-host-scan": self = .header(version: number)
            case "begin": self = .begin(number)
            case "done": self = .done(number)
            default: return nil
            }
        }
    }
}
