import HostSandbox
import HostText

/// The line protocol a scan helper speaks on its report channel (see
/// `PluginScanner`). Version 4, one line each, `\n`-terminated:
///
///     presenter-host-scan 4     first: the protocol version
///     sandbox <layer> <state> <detail>
///                               then one line a layer: the sandbox it entered
///                               (``ConfinementReport``), before any plugin code
///     begin                     about to load its file (a helper loads one)
///     result <record>           what loading it gave, one record line each (`LoadRecords`)
///     done                      the file was loaded (whether or not it is a valid plugin)
///
/// A helper that ends after `begin` and before `done` was killed by its
/// file. The helper writes everything up to `begin` before any plugin code
/// runs; after it, plugin code can write lines too (a constructor may find
/// the channel among its descriptors), so the host reads what follows as
/// the file's own word about itself, by the rules of `LoadRecords`, and a
/// helper loads one file: no report can speak of another's.
enum ScanProtocol {
    /// Bumped whenever a line is added or changes meaning.
    static let version = 4
    /// The longest line a helper may send: a `result` of the longest record.
    static let maxLineBytes = "result ".utf8.count + LoadRecords.maxRecordBytes

    /// One line of the protocol.
    enum Line: Equatable {
        case header(version: Int)
        /// One layer of the sandbox the helper entered (its tabs are spaces in the line).
        case sandbox(ConfinementReport.Entry)
        case begin
        /// A record's bytes, read by `LoadRecords` when the file is done.
        case result(ArraySlice<UInt8>)
        case done

        /// The line's bytes, without its newline.
        var bytes: [UInt8] {
            switch self {
            case .header(let version): return Array("presenter-host-scan \(version)".utf8)
            case .sandbox(let entry):
                let detail = entry.detail.replacingEvery("\n", with: " ")
                return Array("sandbox \(entry.layer.rawValue) \(entry.state.rawValue) \(detail)".utf8)
            case .begin: return Array("begin".utf8)
            case .result(let record): return Array("result ".utf8) + record
            case .done: return Array("done".utf8)
            }
        }

        /// Parses one line (without its newline); nil for anything else.
        init?(_ line: ArraySlice<UInt8>) {
            let result = "result ".utf8
            if line.starts(with: result) {
                let record = line.dropFirst(result.count)
                guard !record.isEmpty else { return nil }
                self = .result(record)
                return
            }
            guard let text = String(validating: line, as: UTF8.self) else { return nil }
            if text.hasPrefix("sandbox ") {
                let words = text.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard words.count >= 3, let layer = ConfinementReport.Layer(rawValue: String(words[1])),
                    let state = ConfinementReport.State(rawValue: String(words[2]))
                else { return nil }
                self = .sandbox(.init(layer: layer, state: state, detail: words.count == 4 ? String(words[3]) : ""))
                return
            }
            switch text {
            case "begin": self = .begin
            case "done": self = .done
            default:
                let words = text.split(separator: " ", omittingEmptySubsequences: false)
                guard words.count == 2, words[0] == "presenter-host-scan", words[1].utf8.count <= 9,
                    words[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(words[1])
                else { return nil }
                self = .header(version: number)
            }
        }
    }
}
