/// Loading, the stage after discovery: what each plugin file holds.
///
/// With a scanner, files are loaded in sandboxed scan helpers
/// (`PluginScanner`): one that crashes, hangs or breaks the sandbox's rules
/// is blamed, and the host goes on; a file no helper could load is refused
/// (``PluginLoadFailure/unscanned``), as the host runs no third-party
/// plugin code itself, unless the scanner ``PluginScanner/trustsUnscanned``
/// (`--in-process`, which runs the plugins here anyway). Trusted files (the bundled presenters, built with
/// the executable) are loaded in this process by the same
/// `PluginLibrary.load`, as is every file without a scanner (the library's
/// in-process use, which trusts its plugins).
enum PluginLoader {
    /// What loading each of `files` (real paths) under `policy` gave, in order.
    static func load(
        _ files: [(path: String, trusted: Bool)], scanner: PluginScanner?, policy: PluginPolicy
    ) -> [PluginLibrary.Outcome] {
        let scanned = files.indices.filter { !files[$0].trusted }
        let reported = scanned.isEmpty ? [:] : scanner?.scan(scanned.map { files[$0].path }, policy: policy) ?? [:]
        var outcomes: [Int: PluginLibrary.Outcome] = [:]
        for (scanIndex, fileIndex) in scanned.enumerated() { outcomes[fileIndex] = reported[scanIndex] }
        return files.indices.map { index in
            if let outcome = outcomes[index] { return outcome }
            if let scanner, !scanner.trustsUnscanned, !files[index].trusted {
                // What can be told without running its code still is (not
                // an ELF library, writable by others...); else it is refused.
                return .failure(PluginFile.check(files[index].path, policy: policy) ?? .unscanned)
            }
            return PluginLibrary.outcome(files[index].path, policy: policy)
        }
    }
}
