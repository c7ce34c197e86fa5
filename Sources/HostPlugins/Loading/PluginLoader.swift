/// Loading, the stage after discovery: what each plugin file holds.
///
/// With a scanner, no plugin code runs in this process. A file that
/// describes itself (ABI 1.3, ``PluginDescription``) is read as data: its
/// description is what it holds. The others are loaded in sandboxed scan
/// helpers (`PluginScanner`): one that crashes, hangs or breaks the
/// sandbox's rules is blamed, and the host goes on; a file no helper could
/// load is refused (``PluginLoadFailure/unscanned``), unless the scanner
/// ``PluginScanner/trustsUnscanned`` (`--in-process`, which runs the
/// plugins here anyway). Trusted files without a description (bundled
/// presenters built with the executable, before they had one) are loaded
/// in this process by the same `PluginLibrary.load`, as is every file
/// without a scanner (the library's in-process use, which trusts its
/// plugins: they are described by loading them, and the engine loads the
/// chain's files again at attach, which ld.so maps once).
enum PluginLoader {
    /// What reading the files gave before any plugin code ran: each file's
    /// outcome when reading told it (a description, or why the file cannot
    /// be a plugin), and the files that must be loaded to know.
    struct Reading {
        /// By index in the files read.
        var outcomes: [Int: PluginLibrary.Outcome] = [:]
        /// The indices of the files without a description, in order.
        var undescribed: [Int] = []
    }

    /// Reads `files` (real paths) under `policy`: their descriptions, and
    /// the checks every load makes first. Runs no plugin code.
    static func read(_ files: [String], policy: PluginPolicy) -> Reading {
        var reading = Reading()
        for (index, path) in files.enumerated() {
            do throws(PluginLoadFailure) {
                if let description = try PluginFile.describe(path, policy: policy) {
                    reading.outcomes[index] = .success(description.contents)
                } else {
                    reading.undescribed.append(index)
                }
            } catch {
                reading.outcomes[index] = .failure(error)
            }
        }
        return reading
    }

    /// What loading each of `files` (real paths) under `policy` gave, in
    /// this process: a pipeline without a scanner (the library's in-process
    /// use, which trusts its plugins), for their descriptions.
    static func loadInProcess(_ files: [String], policy: PluginPolicy) -> [PluginLibrary.Outcome] {
        files.map { PluginLibrary.outcome($0, policy: policy) }
    }

    /// The files of `reading` that only their code can tell about, loaded
    /// in this process because they are `trusted` (built with the
    /// executable); by index.
    static func loadTrusted(
        _ files: [(path: String, trusted: Bool)], reading: Reading, policy: PluginPolicy
    ) -> [Int: PluginLibrary.Outcome] {
        var outcomes: [Int: PluginLibrary.Outcome] = [:]
        for index in reading.undescribed where files[index].trusted {
            outcomes[index] = PluginLibrary.outcome(files[index].path, policy: policy)
        }
        return outcomes
    }

    /// The files `indices` (undescribed, not trusted) scanned by `scanner`,
    /// by index. A file no helper reported on is refused
    /// (``PluginLoadFailure/unscanned``), or loaded in this process when the
    /// scanner ``PluginScanner/trustsUnscanned``.
    /// `enough`, given the outcomes so far (by index in `files`), ends the
    /// scan early: the files it did not reach are left out.
    static func scan(
        _ indices: [Int], of files: [(path: String, trusted: Bool)], scanner: PluginScanner,
        policy: PluginPolicy, until enough: (([Int: PluginLibrary.Outcome]) -> Bool)? = nil
    ) -> [Int: PluginLibrary.Outcome] {
        guard !indices.isEmpty else { return [:] }
        func byFile(_ reported: [Int: PluginLibrary.Outcome]) -> [Int: PluginLibrary.Outcome] {
            Dictionary(uniqueKeysWithValues: reported.map { (indices[$0.key], $0.value) })
        }
        var stopped = false
        let reported = scanner.scan(
            indices.map { files[$0].path }, policy: policy,
            until: enough.map { enough in
                { reported in
                    stopped = enough(byFile(reported))
                    return stopped
                }
            })
        var outcomes = byFile(reported)
        guard !stopped else { return outcomes }
        for fileIndex in indices where outcomes[fileIndex] == nil {
            outcomes[fileIndex] =
                scanner.trustsUnscanned
                ? PluginLibrary.outcome(files[fileIndex].path, policy: policy) : .failure(.unscanned)
        }
        return outcomes
    }
}
