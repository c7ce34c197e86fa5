import Glibc

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

    /// Whether the directory exists now (a missing one is skipped silently).
    public var exists: Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
