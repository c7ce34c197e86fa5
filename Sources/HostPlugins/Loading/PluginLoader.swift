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
/// plugins and needs their hooks).
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
    /// order: read first, then the undescribed ones loaded.
    static func load(
        _ files: [(path: String, trusted: Bool)], scanner: PluginScanner?, policy: PluginPolicy
    ) -> [PluginLibrary.Outcome] {
        guard let scanner else {
            return files.map { PluginLibrary.outcome($0.path, policy: policy) }
        }
        let reading = read(files.map(\.path), policy: policy)
        return load(files, reading: reading, scanner: scanner, policy: policy, scanning: true).map { $0! }
    }

    /// What loading `files` gave, given what reading them gave. Without
    /// `scanning`, a file that only a scan helper could tell about is left
    /// out (nil), and no helper is started.
    static func load(
        _ files: [(path: String, trusted: Bool)], reading: Reading, scanner: PluginScanner, policy: PluginPolicy,
        scanning: Bool
    ) -> [PluginLibrary.Outcome?] {
        var outcomes = reading.outcomes
        let scanned = scanning ? reading.undescribed.filter { !files[$0].trusted } : []
        let reported = scanned.isEmpty ? [:] : scanner.scan(scanned.map { files[$0].path }, policy: policy)
        for (scanIndex, fileIndex) in scanned.enumerated() { outcomes[fileIndex] = reported[scanIndex] }
        return files.indices.map { index in
            if let outcome = outcomes[index] { return outcome }
            if files[index].trusted || (scanning && scanner.trustsUnscanned) {
                return PluginLibrary.outcome(files[index].path, policy: policy)
            }
            // Reading passed its checks, so only its code could tell more.
            return scanning ? .failure(.unscanned) : nil
        }
    }
}
