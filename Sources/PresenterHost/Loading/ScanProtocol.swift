/// The line protocol a scan helper speaks on its report channel (see
/// `PluginScanner`). Version 1, one line each, ASCII, `\n`-terminated:
///
///     presenter-host-scan 1     first: the protocol version
///     begin <index>             about to load file <index> (0-based, in argument order)
///     done <index>              file <index> was loaded (whether or not it is a valid plugin)
///
/// Indices, not paths, so a file name can never break a line. A helper that
/// ends while a file is begun and not done was killed by that file.
enum ScanProtocol {
    /// Bumped whenever a line is added or changes meaning.
    static let version = 1

    /// One line of the protocol.
    enum Line: Equatable {
        case header(version: Int)
        case begin(Int)
        case done(Int)

        /// The line's text, without its newline.
        var text: String {
            switch self {
            case .header(let version): return "presenter-host-scan \(version)"
            case .begin(let index): return "begin \(index)"
            case .done(let index): return "done \(index)"
            }
        }

        /// Parses one line (without its newline); nil for anything else.
        init?(_ text: Substring) {
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
