#if canImport(Glibc)
    import Glibc
#endif

/// The names in a folder, as `readdir` gives them: the plugin folders'
/// candidates, this process's threads and descriptors in /proc. One
/// listing opens the folder, reads it to its end and closes it again, so
/// no directory stream outlives the call.
package enum DirectoryEntries {
    /// The names in the folder at `path` (`.` and `..` left out), in
    /// readdir's order, as raw bytes: a Linux file name need not be UTF-8,
    /// and a name that is not must still be told from others.
    /// - Throws: `opendir` and its errno (the folder is missing, is not
    ///   one, or may not be read). A failure while reading (EIO) ends the
    ///   listing early, as readdir's end.
    package static func names(in path: String) throws(Errno) -> [[UInt8]] {
        guard let directory = opendir(path) else { throw Errno(call: "opendir", code: errno) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            // `.` or `..`, told without making arrays to compare with.
            let isDots = name.count <= 2 && name.allSatisfy { $0 == UInt8(ascii: ".") }
            if !isDots { names.append(name) }
        }
        return names
    }

    /// Checks that the folder at `path` could be listed, by opening it and
    /// closing it again without reading it: what a search path entry's
    /// status needs, at the cost of no listing.
    /// - Throws: `opendir` and its errno.
    package static func checkListable(_ path: String) throws(Errno) {
        guard let directory = opendir(path) else { throw Errno(call: "opendir", code: errno) }
        closedir(directory)
    }
}
