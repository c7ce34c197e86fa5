import Glibc

/// The directory walk: which files of a search path entry are candidate plugins.
///
/// In an ordinary entry every name ending in `.so` (and not starting with a
/// dot) is a candidate, whatever its type: a directory or a dangling link
/// named `x.so` is reported by the ELF pre-check rather than skipped, so a
/// user sees why it did not load. Versioned names (`libx.so.1`) are not
/// candidates: they are usually links to the same library as `libx.so`.
/// In the bundled entry only `SearchPath.bundledLibraryNames` are considered.
enum PluginDirectory {
    /// The candidate files of `entry`, sorted by name (bytewise) so the
    /// order, and thus which duplicate wins, is reproducible. A missing or
    /// unreadable directory has none.
    static func candidates(in entry: SearchPathEntry) -> [String] {
        let names: [String]
        if entry.origin == .bundled {
            names = SearchPath.bundledLibraryNames.filter { exists(entry.path + "/" + $0) }
        } else {
            names = list(entry.path).filter { $0.hasSuffix(".so") && !$0.hasPrefix(".") }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { entry.path == "/" ? "/" + $0 : entry.path + "/" + $0 }
    }

    private static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// True when something (even a dangling link) has this name.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
