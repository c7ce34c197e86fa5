import HostSystem
import HostText

/// Builds the plugin search path, in the order plugins are looked up:
///
/// 1. each `--plugin-dir` (relative ones are resolved against the working
///    directory: the user typed them);
/// 2. each entry of `PRESENTER_PLUGIN_PATH` (colon-separated; relative and
///    empty entries are ignored with a warning, so the working directory
///    never matters);
/// 3. the per-user directory `$XDG_DATA_HOME/presenter-host/plugins`
///    (default `~/.local/share/presenter-host/plugins`);
/// 4. the system directory `<prefix>/lib/presenter-host/plugins`, when the
///    executable lives in `<prefix>/bin` (`make install`) or is
///    `<prefix>/lib/presenter-host/presenter-host` (the Debian package's
///    relocatable layout, which `/usr/bin/presenter-host` links to), or is
///    `<prefix>/libexec/presenter-host/presenter-host-plugins` (which
///    `make install`'s presenter-host starts: its search path is the
///    host's, so `--in-process` finds what `run` finds and both read one
///    registry cache);
/// 5. the bundled plugins, where only the bundled names are considered: the
///    executable's own directory, so that a fresh `swift build` works
///    without flags, or in the package's layout the system directory again
///    (its files were found as system ones already; this entry is what
///    `--bundled-only` keeps).
///
/// The current directory is never searched implicitly. A directory the
/// user named (1, 2) that cannot be searched gets a warning; missing default
/// directories (3, 4) are normal and silent.
public enum SearchPath {
    /// The only files considered in the bundled (executable's) directory.
    /// Other libraries there, such as test fixtures or example products, are
    /// not plugins of this installation.
    public static let bundledLibraryNames = ["libMBHud.so", "libNetActivity.so", "libAddBookmark.so", "libLine.so"]

    /// The name of the colon-separated search path variable.
    public static let environmentVariable = "PRESENTER_PLUGIN_PATH"

    /// Resolves the search path.
    ///
    /// - Parameters:
    ///   - pluginDirs: the `--plugin-dir` values, in the order given.
    ///   - environment: the process environment (`PRESENTER_PLUGIN_PATH`,
    ///     `XDG_DATA_HOME`, `HOME`).
    ///   - executablePath: the running executable; `nil` reads `/proc/self/exe`.
    /// - Returns: the entries in search order (missing directories included:
    ///   loading skips them) and warnings, each a complete line for stderr:
    ///   ignored environment entries, then each `--plugin-dir` or environment
    ///   directory that is missing, not a directory or unreadable.
    public static func resolve(
        pluginDirs: [String], environment: [String: String],
        executablePath: String?
    ) -> (entries: [SearchPathEntry], warnings: [String]) {
        var entries: [SearchPathEntry] = []
        var warnings: [String] = []

        for dir in pluginDirs where !dir.isEmpty {
            entries.append(SearchPathEntry(path: PathName.absolute(dir), origin: .flag))
        }

        // An empty variable means no entries; an empty entry inside one (a::b,
        // a trailing colon) would mean the current directory to a shell: ignored.
        let variable = environment[environmentVariable] ?? ""
        for item in variable.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        where !variable.isEmpty {
            if item.hasPrefix("/") {
                entries.append(SearchPathEntry(path: PathName.trimmed(item), origin: .env))
            } else if item.isEmpty {
                warnings.append(
                    "presenter-host: warning: ignoring an empty entry in \(environmentVariable); separate absolute directories with single colons"
                )
            } else {
                warnings.append(
                    "presenter-host: warning: ignoring relative entry '\(PrintableText.escaping(item))' in \(environmentVariable); use an absolute path"
                )
            }
        }

        if let dataHome = XDGDirectories.dataHome(environment) {
            entries.append(SearchPathEntry(path: dataHome + "/presenter-host/plugins", origin: .user))
        }

        if let executable = executablePath ?? PathName.readExecutableLink() {
            var binDir = PathName(executable).parent
            if isInstalledLibexec(binDir) {
                binDir = PathName(PathName(binDir).parent).parent + "/bin"
            }
            if PathName(binDir).lastComponent == "bin" {
                entries.append(
                    SearchPathEntry(path: PathName(binDir).parent + "/lib/presenter-host/plugins", origin: .system))
                entries.append(SearchPathEntry(path: binDir, origin: .bundled))
            } else if isPackageLayout(binDir) {
                entries.append(SearchPathEntry(path: binDir + "/plugins", origin: .system))
                entries.append(SearchPathEntry(path: binDir + "/plugins", origin: .bundled))
            } else {
                entries.append(SearchPathEntry(path: binDir, origin: .bundled))
            }
        }
        return (entries, warnings + entries.compactMap(\.warning))
    }

    /// The directories of `entries`, each once, in search order (in the
    /// package's layout the system directory is also the bundled one).
    public static func directories(_ entries: [SearchPathEntry]) -> [String] {
        var seen = Set<String>()
        return entries.map(\.path).filter { seen.insert($0).inserted }
    }

    /// True for `<prefix>/lib/presenter-host`, where the package puts the
    /// executable, its fetcher, `plugins/` and `swift-runtime/`.
    /// Whether `directory` is `<prefix>/libexec/presenter-host`.
    private static func isInstalledLibexec(_ directory: String) -> Bool {
        PathName(directory).lastComponent == "presenter-host"
            && PathName(PathName(directory).parent).lastComponent == "libexec"
    }

    private static func isPackageLayout(_ directory: String) -> Bool {
        PathName(directory).lastComponent == "presenter-host"
            && PathName(PathName(directory).parent).lastComponent == "lib"
    }
}
