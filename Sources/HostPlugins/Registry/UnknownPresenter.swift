import HostText

/// No usable presenter has the id a command asked for: the one line that
/// says why, as ``PresenterRegistry/resolve(_:)`` found it.
public struct UnknownPresenter: Error, CustomStringConvertible {
    /// The id asked for, as given.
    public let id: String
    /// Why: the file that declares it and why it was refused, or the ids
    /// there are (and the files that failed to load, with why), and where to look.
    /// One line, escaped (`PrintableText`): it names the id the user typed
    /// and the ids the plugin files declared, neither of them the host's.
    public let description: String

    init(id: String, description: String) {
        self.id = id
        self.description = PrintableText.escaping(description)
    }

    /// No file declares `id`: the ids there are, and the files that failed
    /// to load, since the id may be in one refused before its id was read
    /// (another ABI major, a crash). Each failed file is named with its
    /// first reason as `--list` prints it (the path escaped), the first
    /// ``namedFailures`` of them, then `and N more`.
    init(id: String, available ids: [String], failed errors: [PluginLoadError]) {
        let available = ids.isEmpty ? "none were found" : "available: " + ids.sorted().joined(separator: ", ")
        var firsts: [PluginLoadError] = []
        for error in errors where !firsts.contains(where: { $0.path == error.path }) { firsts.append(error) }
        var failed = ""
        if !firsts.isEmpty {
            let named = firsts.prefix(Self.namedFailures).map { "\(PrintableText.escaping($0.path)) (\($0.reason))" }
            let more = firsts.count > Self.namedFailures ? " and \(firsts.count - Self.namedFailures) more" : ""
            let count = "\(firsts.count) plugin file\(firsts.count == 1 ? "" : "s")"
            failed = "; \(count) failed to load: \(named.joined(separator: ", "))\(more)"
        }
        self.init(id: id, description: "no presenter '\(id)' (\(available))\(failed); see presenter-host --list")
    }

    /// How many failed files the error names: enough for the usual one or
    /// two, few enough for one line.
    static let namedFailures = 3
}
