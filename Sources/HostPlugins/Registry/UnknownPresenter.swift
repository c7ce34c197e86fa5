/// No usable presenter has the id a command asked for: the one line that
/// says why, as ``PresenterRegistry/resolve(_:)`` found it.
public struct UnknownPresenter: Error, CustomStringConvertible {
    /// The id asked for.
    public let id: String
    /// Why: the file that declares it and why it was refused, or the ids
    /// there are (and how many files failed to load), and where to look.
    public let description: String
}
