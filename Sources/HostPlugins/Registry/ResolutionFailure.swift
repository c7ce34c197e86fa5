/// Why a presenter whose descriptor is valid is not used. `description`
/// is the one-line reason shown after its file's path: what is wrong
/// and what to do.
public enum ResolutionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another file earlier in the search path has a presenter with the same id.
    case shadowed(id: String, by: String)
    /// Two descriptors of one library have the same id; the first one is used.
    case duplicateInLibrary(id: String, index: Int, first: Int)
    /// The presenter extends an id that no presenter has.
    case baseNotFound(id: String, base: String)
    /// The presenter extends one that exists but was refused; `path` is the
    /// file whose error says why.
    case baseUnavailable(id: String, base: String, path: String)
    /// The presenter's extension chain loops; `cycle` starts and ends with the same id.
    case extensionCycle(id: String, cycle: [String])

    /// The presenter it is about.
    public var presenterId: String {
        switch self {
        case .shadowed(let id, _), .duplicateInLibrary(let id, _, _), .baseNotFound(let id, _),
            .baseUnavailable(let id, _, _), .extensionCycle(let id, _):
            return id
        }
    }

    /// What is wrong, said of the presenter: "extends 'b', which was not found; ...".
    public var predicate: String {
        switch self {
        case .shadowed(_, let winner):
            return "is shadowed by \(winner), which comes first in the search path; remove one of them"
        case .duplicateInLibrary(_, let index, let first):
            return "repeats the id of descriptor \(first) in descriptor \(index); give each presenter its own id"
        case .baseNotFound(_, let base):
            return "extends '\(base)', which was not found; install it or put it on the search path"
        case .baseUnavailable(_, let base, let path):
            return "extends '\(base)', which did not load (see the error for \(path)); fix that first"
        case .extensionCycle(_, let cycle):
            return
                "is in an extension cycle (\(cycle.joined(separator: " -> "))); make one of them extend another presenter or none"
        }
    }

    public var description: String {
        switch self {
        case .duplicateInLibrary(let id, let index, let first):
            return
                "descriptor \(index) repeats id '\(id)' of descriptor \(first) in the same file; give each presenter its own id"
        default:
            return "presenter '\(presenterId)' " + predicate
        }
    }
}
