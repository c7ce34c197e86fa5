import Glibc

/// The presenters found on the search path, by id, with the files that failed.
///
/// Only usable presenters are in `plugins`: valid descriptors whose
/// extension chain is complete and free of cycles. Everything else is in
/// `errors`, one line per problem; a broken file never stops the others.
public struct PresenterRegistry: Sendable {
    /// Usable presenters in search order, shadowed duplicates removed.
    public var plugins: [PresenterPlugin]
    /// What failed to load, in search order, then extension problems.
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
    /// presenter in search order wins and the later one is reported as
    /// shadowed. Loading runs plugin code (constructors and the entry point):
    /// callers that print results should divert stdout first
    /// (`StandardOutputDiversion`).
    public static func load(_ searchPath: [SearchPathEntry]) -> PresenterRegistry {
        var plugins: [PresenterPlugin] = []
        var errors: [PluginLoadError] = []
        var files = Set<String>()
        var owners: [String: String] = [:]  // id → the file that provides it

        for entry in searchPath where entry.exists {
            for path in PluginDirectory.candidates(in: entry) where files.insert(canonical(path)).inserted {
                do {
                    for result in try PluginLibrary.load(path) {
                        switch result {
                        case .success(let plugin):
                            if let winner = owners[plugin.id] {
                                errors.append(PluginLoadError(path: path, failure: .shadowed(id: plugin.id, by: winner)))
                            } else {
                                owners[plugin.id] = path
                                plugins.append(plugin)
                            }
                        case .failure(let failure):
                            errors.append(PluginLoadError(path: path, failure: failure))
                        }
                    }
                } catch {
                    errors.append(PluginLoadError(path: path, failure: error))
                }
            }
        }

        let broken = extensionProblems(plugins)
        return PresenterRegistry(
            plugins: plugins.filter { broken[$0.id] == nil },
            errors: errors + plugins.compactMap { plugin in
                broken[plugin.id].map { PluginLoadError(path: plugin.path, failure: $0) }
            },
            searchPath: searchPath)
    }

    /// The presenters whose extension chain is broken, with the reason. A
    /// presenter whose base is itself broken is reported against that base,
    /// so each root cause is named once.
    private static func extensionProblems(_ plugins: [PresenterPlugin]) -> [String: PluginLoadFailure] {
        let byId = Dictionary(plugins.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String: PluginLoadFailure] = [:]
        for plugin in plugins {
            guard let direct = plugin.extends else { continue }
            var visited = [plugin.id]
            var current = plugin
            while let base = current.extends {
                if let start = visited.firstIndex(of: base) {
                    problems[plugin.id] = start == 0
                        ? .extensionCycle(id: plugin.id, cycle: visited + [base])
                        : .baseUnavailable(id: plugin.id, base: direct)
                    break
                }
                guard let next = byId[base] else {
                    problems[plugin.id] = current.id == plugin.id
                        ? .baseNotFound(id: plugin.id, base: base)
                        : .baseUnavailable(id: plugin.id, base: direct)
                    break
                }
                visited.append(base)
                current = next
            }
        }
        return problems
    }

    /// The resolved path, so a file reached by two names loads once.
    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
