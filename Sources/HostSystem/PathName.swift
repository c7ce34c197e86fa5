#if canImport(Glibc)
    import Glibc
#endif

/// Paths as text, and the two paths the system gives: the working directory
/// and the running executable. Every layer that names files (the search
/// path, the bookmark store, get-title's fetcher) uses these, so they live
/// below all of them.
package enum PathName {
    /// The folder part of `path` (`.` for a bare name, `/` for the root).
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last name in `path` (trailing slashes ignored).
    package static func lastComponent(of path: String) -> Substring {
        path.split(separator: "/").last ?? ""
    }

    /// Drops trailing slashes (but keeps "/").
    package static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    /// `path` made absolute against the working directory, trailing slashes
    /// dropped.
    package static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return trimmed(path) }
        let cwd = currentDirectory()
        return trimmed(path == "." ? cwd : cwd + "/" + path)
    }

    /// The working directory (`/` when it cannot be read).
    static func currentDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "/" }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// The running executable's path (`/proc/self/exe`'s target), if it can be read.
    package static func readExecutableLink() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
