/// Loading, the stage after discovery: what each plugin file holds.
///
/// With a scanner, files are loaded in scan helpers first (`PluginScanner`):
/// one that crashes or hangs its helper is blamed, and the host goes on.
/// Trusted files (the bundled presenters, built with the executable), and
/// any file the helper could not scan, are loaded in this process by the
/// same `PluginLibrary.load`.
enum PluginLoader {
    /// What loading each of `files` (real paths) under `policy` gave, in order.
    static func load(
        _ files: [(path: String, trusted: Bool)], scanner: PluginScanner?, policy: PluginPolicy
    ) -> [PluginLibrary.Outcome] {
        let scanned = files.indices.filter { !files[$0].trusted }
        let reported = scanned.isEmpty ? [:] : scanner?.scan(scanned.map { files[$0].path }, policy: policy) ?? [:]
        var outcomes: [Int: PluginLibrary.Outcome] = [:]
        for (scanIndex, fileIndex) in scanned.enumerated() { outcomes[fileIndex] = reported[scanIndex] }
        return files.indices.map { outcomes[$0] ?? PluginLibrary.outcome(files[$0].path, policy: policy) }
    }
}
