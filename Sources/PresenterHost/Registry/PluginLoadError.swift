/// A plugin file, or a presenter in it, that the host did not load.
public struct PluginLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The library file.
    public let path: String
    /// What is wrong.
    public let failure: PluginLoadFailure

    /// Creates an error for the file at `path`.
    public init(path: String, failure: PluginLoadFailure) {
        self.path = path
        self.failure = failure
    }

    /// The one-line reason: what is wrong and what to do.
    public var reason: String { failure.description }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
