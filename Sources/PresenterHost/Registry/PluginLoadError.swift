/// A plugin file, or a presenter in it, that the host did not load.
public struct PluginLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The library file, as found (it may hold any character but NUL).
    public let path: String
    /// What is wrong.
    public let failure: PluginLoadFailure

    /// Creates an error for the file at `path`.
    public init(path: String, failure: PluginLoadFailure) {
        self.path = path
        self.failure = failure
    }

    /// The one-line reason: what is wrong and what to do. Control characters
    /// (from a link target, a dependency's name...) are escaped.
    public var reason: String { PrintableText.escaping(failure.description) }

    /// `path: reason`, on one line whatever the path holds.
    public var description: String { "\(PrintableText.escaping(path)): \(reason)" }
}
