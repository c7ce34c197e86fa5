import Glibc
import HostSystem
import HostText

/// One directory of the plugin search path, with where it came from.
public struct SearchPathEntry: Sendable, Equatable {
    /// Why a directory is on the search path.
    public enum Origin: String, Sendable, Equatable, CaseIterable {
        /// A `--plugin-dir` flag.
        case flag
        /// An entry of `PRESENTER_PLUGIN_PATH`.
        case env
        /// The per-user directory, `$XDG_DATA_HOME/presenter-host/plugins`.
        case user
        /// The system directory under the install prefix, `<prefix>/lib/presenter-host/plugins`.
        case system
        /// The executable's own directory, where only the bundled plugins
        /// (`SearchPath.bundledLibraryNames`) are considered.
        case bundled
    }

    /// An absolute directory path.
    public var path: String
    /// Where the entry came from.
    public var origin: Origin

    /// Creates an entry; `path` should be absolute.
    public init(path: String, origin: Origin) {
        self.path = path
        self.origin = origin
    }

    /// What is at `path` now.
    public enum Status: Sendable, Equatable {
        /// A directory the host can list: its plugins are loaded.
        case directory
        /// Nothing has this name.
        case missing
        /// A file (perhaps a plugin itself), not a directory.
        case notDirectory
        /// A directory (or a path) the host may not read; carries `strerror`'s text.
        case unreadable(String)

        /// One or two words for `--list -v` and `--json`.
        public var label: String {
            switch self {
            case .directory: return "exists"
            case .missing: return "missing"
            case .notDirectory: return "not a directory"
            case .unreadable: return "unreadable"
            }
        }
    }

    /// Whether the entry is a readable directory, is missing, is not a
    /// directory or cannot be read: asked of the file system at each call
    /// (a method, as it does I/O; loading skips all but `.directory`).
    public func status() -> Status {
        let info: stat
        do throws(Errno) {
            info = try FileStatus.of(path)
        } catch {
            return error.code == ENOENT || error.code == ENOTDIR ? .missing : .unreadable(errnoText(error.code))
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return .notDirectory }
        do throws(Errno) {
            try DirectoryEntries.checkListable(path)
        } catch {
            return .unreadable(errnoText(error.code))
        }
        return .directory
    }

    /// The warning for an entry the user named (a flag or the environment)
    /// that cannot be searched, or nil. Missing default directories are normal.
    var warning: String? {
        let name: String
        switch origin {
        case .flag: name = "--plugin-dir \(PrintableText.escaping(path))"
        case .env: name = "\(SearchPath.environmentVariable) entry \(PrintableText.escaping(path))"
        case .user, .system, .bundled: return nil
        }
        let problem: String
        switch status() {
        case .directory: return nil
        case .missing: problem = "no such directory; check the path"
        case .notDirectory: problem = "is a file, not a directory; give the directory that holds it"
        case .unreadable(let reason): problem = "cannot be read (\(reason)); check its permissions"
        }
        return "presenter-host: warning: \(name): \(problem)"
    }
}
