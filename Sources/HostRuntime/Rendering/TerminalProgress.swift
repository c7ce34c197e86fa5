/// OSC 9;4, the terminal's own progress (the tab and the taskbar: Windows
/// Terminal, ConEmu, Ghostty, iTerm2, VTE, WezTerm), kept in step with the
/// actions a ``TerminalBackend`` shows: indeterminate while any runs, the
/// fraction when the latest report gave one, the error state when the last
/// action failed, and cleared when the view ends, is suspended, or the host
/// crashes (``CrashRescue``).
///
/// Sequences end with ST (`ESC \`): `ESC ] 9 ; 4 ; 3 ESC \` (indeterminate),
/// `ESC ] 9 ; 4 ; 1 ; 42 ESC \` (42 %), `ESC ] 9 ; 4 ; 2 ; 42 ESC \`
/// (error), `ESC ] 9 ; 4 ; 0 ESC \` (cleared). Each is written only when it
/// differs from the last one (so a fraction reported 1,000 times a second
/// costs a sequence per whole percent at most).
package struct TerminalProgress {
    /// `--terminal-progress`.
    package enum Mode: String, Sendable {
        /// Only in a terminal on the allow-list, never inside tmux or screen.
        case auto
        /// In any terminal, tmux and screen included.
        case always
        /// Never.
        case never
    }

    /// The clearing sequence.
    static let clear = sequence("0")

    /// Whether `mode` asks for the sequences in the terminal `environment`
    /// describes (the caller knows it draws on a terminal).
    package static func isWanted(_ mode: Mode, environment: [String: String]) -> Bool {
        switch mode {
        case .never: return false
        case .always: return true
        case .auto:
            // tmux and screen drop or mangle it without passthrough.
            if environment["TMUX"] != nil || environment["STY"] != nil { return false }
            if (environment["TERM"] ?? "").hasPrefix("screen") || (environment["TERM"] ?? "").hasPrefix("tmux") {
                return false
            }
            return isOnAllowList(environment)
        }
    }

    /// The terminals known to understand OSC 9;4 (and not to show it as
    /// something else: older iTerm2 made a notification of each).
    static func isOnAllowList(_ environment: [String: String]) -> Bool {
        if !(environment["WT_SESSION"] ?? "").isEmpty { return true }  // Windows Terminal
        if environment["ConEmuANSI"] == "ON" { return true }  // ConEmu
        switch environment["TERM_PROGRAM"] {
        case "ghostty", "WezTerm": return true
        case "iTerm.app": return features(environment["TERM_FEATURES"] ?? "").contains("P")  // 3.6.6+ reports "P"
        default: break
        }
        // VTE_VERSION is major * 10000 + minor * 100 + micro: 0.79 is 7900.
        if let vte = Int(environment["VTE_VERSION"] ?? ""), vte >= 7900 { return true }
        return false
    }

    /// iTerm2's feature codes: each an upper-case letter and the lower-case
    /// letters and digits after it (`T3LrMSc7` → T3, Lr, M, Sc7).
    private static func features(_ text: String) -> Set<String> {
        var result = Set<String>()
        var current = ""
        for character in text {
            if character.isUppercase {
                if !current.isEmpty { result.insert(current) }
                current = String(character)
            } else if !current.isEmpty {
                current.append(character)
            }
        }
        if !current.isEmpty { result.insert(current) }
        return Set(result.map { String($0.prefix { $0.isUppercase }) })
    }

    private var running = 0
    private var percent: Int?
    private var failed = false
    /// The last sequence written (nil: none yet, or cleared).
    private var shown: [UInt8]?

    /// What to write for `event` (empty when nothing changes).
    mutating func bytes(for event: ProgressEvent) -> [UInt8] {
        switch event {
        case .started:
            running += 1
            failed = false
        case .working:
            break
        case .progressed(_, let fraction):
            percent = fraction.map { Int(($0 * 100).rounded(.down)) }
        case .finished(_, _, let error):
            running = max(0, running - 1)
            failed = error != nil
            if running == 0 { percent = nil }
        }
        return update(to: target)
    }

    /// The view is going (or stopping): the clear sequence if anything is shown.
    mutating func clearing() -> [UInt8] {
        update(to: nil)
    }

    /// After a suspension: what the state calls for, again.
    mutating func restoring() -> [UInt8] {
        update(to: target)
    }

    /// The sequence the state calls for; nil: none (cleared).
    private var target: [UInt8]? {
        if running > 0 { return percent.map { Self.sequence("1;\($0)") } ?? Self.sequence("3") }
        return failed ? Self.sequence("2;100") : nil
    }

    private mutating func update(to next: [UInt8]?) -> [UInt8] {
        guard next != shown else { return [] }
        let previous = shown
        shown = next
        if let next { return next }
        return previous == nil ? [] : Self.clear
    }

    private static func sequence(_ parameters: String) -> [UInt8] {
        Array("\u{1B}]9;4;\(parameters)\u{1B}\\".utf8)
    }
}
