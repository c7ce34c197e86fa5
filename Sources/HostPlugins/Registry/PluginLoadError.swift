import HostText

/// A plugin file, or a presenter in it, that the host did not load.
public struct PluginLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The library file, as found (it may hold any character but NUL).
    public let path: String
    /// What is wrong, as the stage that refused it says.
    public let failure: Failure

    /// Which stage refused the file or presenter, and why.
    public enum Failure: Sendable, Hashable, CustomStringConvertible {
        /// Discovery refused the file (its name, its links, its owner and mode).
        case discovery(DiscoveryFailure)
        /// Loading the file, or one of its descriptors, failed.
        case loading(PluginLoadFailure)
        /// The presenter is valid but not used (shadowed, its base missing, a cycle).
        case resolution(ResolutionFailure)

        /// The stage's one-line reason.
        public var description: String {
            switch self {
            case .discovery(let failure): return failure.description
            case .loading(let failure): return failure.description
            case .resolution(let failure): return failure.description
            }
        }
    }

    /// Creates an error for the file at `path`.
    public init(path: String, failure: Failure) {
        self.path = path
        self.failure = failure
    }

    /// The one-line reason: what is wrong and what to do. Control characters
    /// (from a link target, a dependency's name...) are escaped.
    public var reason: String { PrintableText.escaping(failure.description) }

    /// `path: reason`, on one line whatever the path holds.
    public var description: String { "\(PrintableText.escaping(path)): \(reason)" }

    /// When this refusal is about presenter `id` (its descriptor, or its
    /// place among the others), one line that names the presenter, its file
    /// and why: `presenter 'x' in /p/libx.so was refused: name is missing
    /// (NULL); ...`. Nil for another presenter or a failure of a whole file.
    public func explaining(presenter id: String) -> String? {
        let file = PrintableText.escaping(path)
        switch failure {
        case .loading(let failure) where failure.presenterId == id:
            guard case .descriptor(_, _, let problem) = failure else { return nil }
            return PrintableText.escaping("presenter '\(id)' in \(file) was refused: \(problem)")
        case .resolution(let failure) where failure.presenterId == id:
            return PrintableText.escaping("presenter '\(id)' in \(file) \(failure.predicate)")
        default:
            return nil
        }
    }
}
