/// The `--color` choice: whether frames carry colour (SGR colour codes).
/// Attributes (bold, dim, reverse) and animation do not depend on it.
public enum ColorMode: String, Sendable, CaseIterable {
    /// Colour unless `NO_COLOR` is set non-empty; `CLICOLOR_FORCE` (non-empty,
    /// not "0") forces it on, over `NO_COLOR` (as the CLICOLOR convention has it).
    case auto
    /// Always colour (the flag wins over the environment).
    case always
    /// Never colour (the flag wins over the environment).
    case never

    /// Whether colour is on for this mode in `environment`.
    public func isEnabled(environment: [String: String]) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            return true
        }
    }
}
