import Glibc

/// The presenters found on the search path, by id, with the files that failed.
///
/// Only usable presenters are in `plugins`: valid descriptors whose
/// extension chain is complete and free of cycles. Everything else is in
/// `errors`, one line per problem; a broken file never stops the others.
public struct PresenterRegistry: Sendable {
    /// Usable presenters in search order, shadowed duplicates removed.
    public var plugins: [PresenterPlugin]
    /// What failed to load, and the presenters refused, in search order.
    public var errors: [PluginLoadError]
    /// The directories searched, in order, with their origin.
    public var searchPath: [SearchPathEntry]

    /// Creates a registry from parts (for tests and tools).
    public init(plugins: [PresenterPlugin], errors: [PluginLoadError] = [], searchPath: [SearchPathEntry] = []) {
        self.plugins = plugins
        self.errors = errors
        self.searchPath = searchPath
    }

    /// The presenter with `id`, if loaded.
    public func plugin(id: String) -> PresenterPlugin? {
        plugins.first { $0.id == id }
    }

    /// `[plugin, its base, the base's base, ...]`, or nil when `id` is not
    /// loaded or its chain is broken (a missing base or a cycle).
    public func chain(for id: String) -> [PresenterPlugin]? {
        guard var current = plugin(id: id) else { return nil }
        var chain = [current]
        while let base = current.extends {
            guard !chain.contains(where: { $0.id == base }), let next = plugin(id: base) else { return nil }
            chain.append(next)
            current = next
        }
        return chain
    }

    /// Loads every candidate file of `searchPath`, in order.
    ///
    /// A file reached twice (the same directory twice on the path, or a link
    /// to a file already loaded) is loaded once. For a duplicate id the first
    /// usable presenter in search order wins and a later one is reported as
    /// shadowed (`PresenterResolution`). Loading runs plugin code
    /// (constructors and the entry point): callers that print results should
    /// divert stdout first (`StandardOutputDiversion`).
    ///
    /// - Parameter scanner: when given, the files (all but the bundled ones)
    ///   are first loaded in a helper process, and those that crash or hang
    ///   it are reported instead of being loaded here (`PluginScanner`). The
    ///   command line passes one; without one (tests, whose executable is not
    ///   presenter-host), every file is loaded in this process.
    public static func load(_ searchPath: [SearchPathEntry], scanner: PluginScanner? = nil) -> PresenterRegistry {
        let (files, bundled) = candidateFiles(searchPath)
        // The bundled libraries were built with this executable: scanning
        // them would only cost a helper start when nothing else is installed.
        let scanned = files.indices.filter { files[$0].problem == nil && !bundled.contains($0) }
        let blamed = scanned.isEmpty ? [:] : scanner?.scan(scanned.map { files[$0].path }) ?? [:]
        var problems: [Int: PluginLoadFailure] = [:]
        for (scanIndex, fileIndex) in scanned.enumerated() { problems[fileIndex] = blamed[scanIndex] }

        // Errors are kept with (file, descriptor) keys so they come out in search order.
        var errors: [(key: [Int], error: PluginLoadError)] = []
        var candidates: [PresenterResolution.Candidate] = []
        var candidateKeys: [[Int]] = []
        var refusedIds: [String: String] = [:]
        for (fileIndex, file) in files.enumerated() {
            if let problem = file.problem ?? problems[fileIndex] {
                errors.append(([fileIndex, -1], PluginLoadError(path: file.path, failure: problem)))
                continue
            }
            do {
                for (index, result) in try PluginLibrary.load(file.path).enumerated() {
                    switch result {
                    case .success(let plugin):
                        candidates.append(.init(plugin: plugin, index: index))
                        candidateKeys.append([fileIndex, index])
                    case .failure(let failure):
                        if case .descriptor(_, let id?, _) = failure, refusedIds[id] == nil { refusedIds[id] = file.path }
                        errors.append(([fileIndex, index], PluginLoadError(path: file.path, failure: failure)))
                    }
                }
            } catch {
                errors.append(([fileIndex, -1], PluginLoadError(path: file.path, failure: error)))
            }
        }

        let resolution = PresenterResolution(candidates, refusedIds: refusedIds)
        for (position, failure) in resolution.refusals {
            errors.append((candidateKeys[position], PluginLoadError(path: candidates[position].plugin.path, failure: failure)))
        }
        errors.sort { $0.key.lexicographicallyPrecedes($1.key) }
        return PresenterRegistry(plugins: resolution.plugins, errors: errors.map(\.error), searchPath: searchPath)
    }

    /// The candidate files of every directory on the path, each file once,
    /// and the indices of those in the bundled directory.
    private static func candidateFiles(_ searchPath: [SearchPathEntry]) -> ([PluginDirectory.Candidate], Set<Int>) {
        var files: [PluginDirectory.Candidate] = []
        var bundled = Set<Int>()
        var seen = Set<String>()
        for entry in searchPath where entry.status == .directory {
            for file in PluginDirectory.candidates(in: entry) where file.problem != nil || seen.insert(canonical(file.path)).inserted {
                if entry.origin == .bundled { bundled.insert(files.count) }
                files.append(file)
            }
        }
        return (files, bundled)
    }

    /// The resolved path, so a file reached by two names loads once.
    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
