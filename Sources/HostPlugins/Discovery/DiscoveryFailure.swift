import Glibc
import HostSystem

/// Why discovery refuses a candidate file before anything reads it: its
/// name, where its links lead, whether it can be reached, and the owner
/// and mode rules. `description` is the one-line reason shown after the
/// file's path: what is wrong (`reason`), then what to do (`advice`),
/// kept apart so that `check` can give its own advice.
public enum DiscoveryFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Nothing has this name (any more).
    case missing
    /// The file's name is not valid UTF-8 (the path shows the bad bytes as `\xNN`).
    case nameNotUTF8
    /// A symbolic link whose target does not exist.
    case danglingLink(target: String)
    /// A symbolic link that leads back to itself (ELOOP).
    case symlinkLoop
    /// The file cannot be reached or read; carries `strerror`'s text.
    case unreadable(String)
    /// A symbolic link whose real file is outside the link's plugin directory.
    case linkOutsideDirectory(target: String)
    /// The file, or the directory it is in, could be written by someone
    /// other than root and this user (see `PluginPolicy`).
    case insecure(PluginPolicy.Violation)

    /// Why reaching `path` failed with `error` (an errno), as a user should read it.
    init(reaching path: String, error: Int32) {
        if error == ELOOP {
            self = .symlinkLoop
        } else if error == ENOENT, FileStatus.isSymbolicLink(path) {
            self = .danglingLink(target: PathName.linkTarget(of: path) ?? "?")
        } else if error == ENOENT {
            self = .missing
        } else {
            self = .unreadable(errnoText(error))
        }
    }

    /// What is wrong with the file.
    public var reason: String { parts.reason }
    /// What to do about it; nil when the reason says it (the owner and
    /// mode rules name the command that fixes them).
    public var advice: String? { parts.advice }
    /// One line: the reason, then the advice.
    public var description: String { advice.map { "\(reason); \($0)" } ?? reason }

    private var parts: (reason: String, advice: String?) {
        let fixLink = "fix or remove the link"
        switch self {
        case .missing:
            return ("disappeared while plugins were being loaded", "run the command again")
        case .nameNotUTF8:
            return ("file name is not valid UTF-8", "rename it")
        case .danglingLink(let target):
            return ("is a dangling symbolic link to '\(target)'", fixLink)
        case .symlinkLoop:
            return ("is a symbolic link loop (it leads back to itself)", fixLink)
        case .unreadable(let reason):
            return ("cannot be read: \(reason)", "check its permissions")
        case .linkOutsideDirectory(let target):
            return (
                "is a symbolic link to '\(target)', outside its plugin directory",
                "copy the library into the directory or put its own directory on the search path"
            )
        case .insecure(let problem):
            return (problem.description, nil)
        }
    }
}
