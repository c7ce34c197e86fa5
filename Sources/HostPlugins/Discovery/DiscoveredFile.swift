/// One candidate plugin file as discovery hands it on: found in a directory
/// of the search path and checked (`CandidateCheck`), but not yet opened.
struct DiscoveredFile: Sendable {
    /// The path as found on the search path (for messages; it may hold any
    /// character but NUL).
    let path: String
    /// Whether it is in the bundled directory: built with the executable,
    /// so trusted to load in this process.
    let bundled: Bool
    /// The real file, or why the file is refused.
    let checked: Result<Real, DiscoveryFailure>

    /// A file that passed the checks.
    struct Real: Sendable {
        /// Its real path (no symbolic link in it): what is loaded.
        let path: String
        /// Which version of the file it is, for the registry cache.
        let identity: FileIdentity
    }

    /// Discovery: the candidate files of every directory of `searchPath`, in
    /// search order, each checked under `policy`, each real file once (a
    /// directory twice on the path, or a link to a file already seen, adds
    /// nothing). Reads only names and file status, never file contents.
    static func all(on searchPath: [SearchPathEntry], policy: PluginPolicy) -> [DiscoveredFile] {
        var files: [DiscoveredFile] = []
        var seen = Set<String>()
        let check = CandidateCheck(policy: policy)
        for entry in searchPath where entry.status() == .directory {
            for candidate in PluginDirectory.candidates(in: entry) {
                let file = check.check(candidate, in: entry)
                if case .success(let real) = file.checked, !seen.insert(real.path).inserted { continue }
                files.append(file)
            }
        }
        return files
    }
}
