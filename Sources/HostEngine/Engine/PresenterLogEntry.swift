import HostText

/// One line of the runtime's log: a plugin's `log` call, or a hook that
/// failed. Given to the runtime's log sink on the presenter thread.
public struct PresenterLogEntry: Equatable, Sendable {
    /// How serious it is (`PRESENTER_LOG_*`).
    public enum Level: Int32, Sendable, Comparable {
        /// The header's levels, least serious first, with their values.
        case debug = 0, info = 1, warning = 2, error = 3
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        /// The level for a `PRESENTER_LOG_*` value; unknown values count as errors.
        public init(abi: Int32) { self = Level(rawValue: abi) ?? .error }
    }

    /// How serious; a log sink may filter on it.
    public var level: Level
    /// The presenter it is about, when there is one.
    public var presenterId: String?
    /// The text as the plugin gave it (or the host's words for a failed hook);
    /// escape it before a terminal shows it (``line``).
    public var message: String

    /// An entry about `presenterId` (nil: the host's own).
    public init(level: Level, presenterId: String?, message: String) {
        self.level = level
        self.presenterId = presenterId
        self.message = message
    }

    /// `presenter-host: mbhud: warning: message`, one line, as `-v` shows
    /// it and `--log` keeps it: the id and the message escaped
    /// (`PrintableText`), so a plugin's C1 CSI, OSC 52 or right-to-left
    /// override never reaches the terminal or the file, and the line shows
    /// that it was there.
    public var line: String {
        "presenter-host: " + (presenterId.map { "\(PrintableText.escaping($0)): " } ?? "") + "\(level): "
            + PrintableText.escaping(message)
    }
}
