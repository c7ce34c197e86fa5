import Glibc

/// The checks every candidate file passes before anything else is done with
/// it (looking it up in the registry cache, scanning, loading), each with
/// its own refusal:
///
/// 1. a symbolic link is resolved, and refused when its real file is
///    outside the link's plugin directory (a link within it is followed);
/// 2. a file already reached by another name (`lib64 -> lib`, a directory
///    twice on the path) counts once: the caller dedupes on `file`;
/// 3. the real file and its directory pass the owner and mode checks
///    (`PluginPolicy`).
///
/// These read only file status (one `lstat` per file, one `stat` per
/// directory), never file contents: they run on every start, warm or cold.
/// `PluginFile` repeats 3 on the descriptor it loads through.
struct CandidateCheck {
    /// A candidate that passed, or why it did not.
    struct Checked {
        /// The path as found on the search path.
        let path: String
        /// The real path (no links); nil when refused before it was known.
        let file: String?
        /// The real file's identity, for the cache; nil when refused.
        let identity: FileIdentity?
        /// Why the file is refused, or nil.
        let problem: PluginLoadFailure?
    }

    let policy: PluginPolicy
    /// The real path of each directory seen, and its status.
    private var directories: [String: (real: String, info: stat)?] = [:]

    init(policy: PluginPolicy) {
        self.policy = policy
    }

    /// Checks `candidate`, found in the search path directory `directory`.
    mutating func check(_ candidate: PluginDirectory.Candidate, in directory: String) -> Checked {
        let path = candidate.path
        if let problem = candidate.problem { return refused(path, problem) }
        guard let (real, directoryInfo) = resolve(directory) else { return refused(path, .missing) }
        var info = stat()
        guard lstat(path, &info) == 0 else { return refused(path, ELFPrecheck.openFailure(path, errno)) }
        var file = real + "/" + String(path.split(separator: "/").last ?? "")
        var fileDirectoryInfo = directoryInfo, fileDirectory = real
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = Self.realPath(path) else { return refused(path, ELFPrecheck.openFailure(path, errno)) }
            guard resolved.hasPrefix(real == "/" ? "/" : real + "/") else {
                return refused(path, .linkOutsideDirectory(target: PrintableText.escaping(resolved)))
            }
            file = resolved
            fileDirectory = String(resolved[..<resolved.lastIndex(of: "/")!])
            guard stat(file, &info) == 0 else { return refused(path, ELFPrecheck.openFailure(path, errno)) }
            if fileDirectory != real {
                guard let (_, subdirectoryInfo) = resolve(fileDirectory) else { return refused(path, .missing) }
                fileDirectoryInfo = subdirectoryInfo
            }
        }
        do throws(PluginLoadFailure) {
            try policy.check(file: info, path: file, directory: fileDirectoryInfo, directoryPath: fileDirectory)
        } catch {
            return refused(path, error)
        }
        return Checked(path: path, file: file, identity: FileIdentity(info), problem: nil)
    }

    private func refused(_ path: String, _ problem: PluginLoadFailure) -> Checked {
        Checked(path: path, file: nil, identity: nil, problem: problem)
    }

    /// The real path and status of `directory`, looked up once.
    private mutating func resolve(_ directory: String) -> (real: String, info: stat)? {
        if let known = directories[directory] { return known }
        var result: (real: String, info: stat)?
        var info = stat()
        if let real = Self.realPath(directory), stat(real, &info) == 0 { result = (real, info) }
        directories[directory] = result
        return result
    }

    /// `realpath(3)`, or nil (errno says why).
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
