#if canImport(Glibc)
    import Glibc
#endif

/// A path as text, split into its folder and its last name in one place
/// (where each caller once split it at its last slash by hand, each with
/// its own idea of a bare name and of the root); and what the system says
/// of a path: the working directory, the running executable, a link's
/// target, a real path. Every layer that names files (the search path,
/// discovery, the registry's cache, the bookmark store, get-title's
/// fetcher, `check`) uses it, so it lives below all of them.
package struct PathName: Hashable, Sendable {
    /// The path as given.
    package let text: String

    /// `text` as a path; nothing is read from the system.
    package init(_ text: String) {
        self.text = text
    }

    /// The folder part: everything before the last slash, trailing slashes
    /// dropped first (the folder that holds ``lastComponent``); `.` for a
    /// bare name, `/` for a name in the root.
    package var parent: String {
        let text = Self.trimmed(text)
        guard let slash = text.lastIndex(of: "/") else { return "." }
        return slash == text.startIndex ? "/" : String(text[..<slash])
    }

    /// Whether ``parent`` is a folder below the root: the path has a slash
    /// that is not its first character.
    package var hasParentBelowRoot: Bool {
        let text = Self.trimmed(text)
        return text.lastIndex(of: "/").map { $0 != text.startIndex } ?? false
    }

    /// The last name (trailing slashes ignored; empty for the root).
    package var lastComponent: Substring {
        text.split(separator: "/").last ?? ""
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

    /// Where presenter-host's companion executable `name` (the fetcher,
    /// presenter-host-plugins) of the program at `executable` may be, in
    /// the order to look: beside it (a build's products, the Debian
    /// package's folder), then in `../libexec/presenter-host/` from it
    /// (`make install`).
    package static func companionCandidates(_ name: String, of executable: String) -> [String] {
        let folder = PathName(executable).parent
        return [folder + "/" + name, PathName(folder).parent + "/libexec/presenter-host/" + name]
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
