import HostText

/// No usable presenter has the id a command asked for: the one line that
/// says why, as ``PresenterRegistry/resolve(_:)`` found it.
public struct UnknownPresenter: Error, CustomStringConvertible {
    /// The id asked for, as given.
    public let id: String
    /// Why: the file that declares it and why it was refused, or the ids
    /// there are (and how many files failed to load), and where to look.
    /// One line, escaped (`PrintableText`): it names the id the user typed
    /// and the ids the plugin files declared, neither of them the host's.
    public let description: String

    init(id: String, description: String) {
        self.id = id
        self.description = PrintableText.escaping(description)
    }
}
