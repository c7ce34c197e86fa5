/// What the environment says about the terminal, read in one place.
package enum TerminalEnvironment {
    /// True when the locale's character set is UTF-8: the first of `LC_ALL`,
    /// `LC_CTYPE`, `LANG` that is set non-empty names UTF-8 (or utf8).
    package static func isUnicode(_ environment: [String: String]) -> Bool {
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let value = environment[key], !value.isEmpty else { continue }
            let lowered = value.lowercased()
            return lowered.contains("utf-8") || lowered.contains("utf8")
        }
        return false
    }

    /// True when progress on a stream must be plain lines, not frames: the
    /// stream is not a terminal, `TERM` is `dumb`, unset or empty (nothing
    /// says the terminal understands escape codes), or we run in CI
    /// (``isCI(_:)``).
    package static func wantsPlainLines(isTerminal: Bool, _ environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return !isTerminal || term.isEmpty || term == "dumb" || isCI(environment)
    }

    /// True when `CI` says we run in CI: set to anything but empty, `0` or
    /// `false` (any case), as CI services set it (`true`, `1`) and as a user
    /// turns it off (`CI=false`, `CI=0`, `CI=`).
    package static func isCI(_ environment: [String: String]) -> Bool {
        let value = environment["CI"] ?? ""
        return !value.isEmpty && value != "0" && value.lowercased() != "false"
    }

    /// True when the user asked for static, accessible output everywhere:
    /// `ACCESSIBLE` is set to anything but empty or `0` (as gum and charm
    /// tools read it).
    package static func wantsStatic(_ environment: [String: String]) -> Bool {
        let value = environment["ACCESSIBLE"] ?? ""
        return !value.isEmpty && value != "0"
    }
}
