import HostEngine
import HostPlugins
import HostText

/// The discovery decisions of one loading, for tracing (`PRESENTER_HOST_DEBUG=1`,
/// `--trace`): each directory of the search path with its origin and state,
/// and each candidate file in it, taken (with its presenters, and whether
/// the registry cache knew it) or refused and why. Built from the registry after loading, so it costs nothing
/// when tracing is off. Paths, ids and reasons are escaped (`PrintableText`).
enum DiscoveryTrace {
    /// One line each, `trace: discovery: ...`, in search order.
    static func lines(_ registry: PresenterRegistry) -> [String] {
        var lines: [String] = []
        for entry in registry.searchPath {
            let files = entry.status() == .directory ? PluginDirectory.candidates(in: entry) : []
            let which =
                entry.origin == .bundled ? "only \(SearchPath.bundledLibraryNames.joined(separator: ", "))" : "*.so"
            lines.append(
                "directory \(PrintableText.escaping(entry.path)) (\(entry.origin.rawValue)): \(entry.status().label), "
                    + "\(files.count) candidate file\(files.count == 1 ? "" : "s") (\(which))")
            for file in files {
                let plugins = registry.plugins.filter { $0.path == file.path }
                let taken = plugins.map { "'\(PrintableText.escaping($0.id))'" }
                let refused = registry.errors.filter { $0.path == file.path }.map(\.reason)
                let path = PrintableText.escaping(file.path)
                // A hit: the registry cache knew the file as it is, and none of its code ran.
                let cache = plugins.allSatisfy(\.cached) ? "cache hit" : "cache miss, loaded"
                if !taken.isEmpty {
                    lines.append("  taken: \(path): presenter \(taken.joined(separator: ", ")) (\(cache))")
                }
                for reason in refused { lines.append("  refused: \(path): \(reason)") }
                if taken.isEmpty && refused.isEmpty {
                    lines.append("  skipped: \(path): already loaded from an earlier entry")
                }
            }
        }
        return lines.map { EngineNote.traceTag + "discovery: " + $0 }
    }
}
