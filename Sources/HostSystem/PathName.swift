#if canImport(Glibc)
    import Glibc
#endif

/// Paths as text, and what the system says of a path: the working
/// directory, the running executable, a link's target, a real path. Every
/// layer that names files (the search path, discovery, the bookmark store,
/// get-title's fetcher, `check`) uses these, so they live below all of them.
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

    /// The working directory (`/` when it cannot be read: removed, or a
    /// folder above it may not be searched).
    package static func currentDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "/" }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// The running executable's path (`/proc/self/exe`'s target), if it can be read.
    package static func readExecutableLink() -> String? {
        linkTarget(of: "/proc/self/exe")
    }

    /// What the symbolic link at `path` points to, as it is written in the
    /// link (`readlink`: relative or absolute, not resolved); nil when
    /// `path` is no link or cannot be read. A target is read as UTF-8, a
    /// byte that is not shown as U+FFFD: the text is for messages and
    /// paths the host made.
    package static func linkTarget(of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = readlink(path, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// `path` with every symbolic link, `.` and `..` in it resolved, from
    /// the root (`realpath`): the one name a file has however it is
    /// reached, which is what discovery counts a file by and checks a
    /// link's target against.
    /// - Throws: `realpath` and its errno (ENOENT for a dangling link,
    ///   ELOOP for a loop).
    package static func realPath(_ path: String) throws(Errno) -> String {
        guard let resolved = realpath(path, nil) else { throw Errno(call: "realpath", code: errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
