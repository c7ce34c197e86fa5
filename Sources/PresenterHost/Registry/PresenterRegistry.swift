/// The presenters found on the search path, by id, with the files that
/// failed: what `RegistryPipeline` builds.
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

    /// The same registry with the presenters of `id`'s chain (of every
    /// presenter when `id` is nil) really loaded in this process (their
    /// hooks present) where they came from the cache or the scan helper:
    /// what running them in this process needs. Throws why one of their
    /// files no longer loads as the cache said.
    func loading(chainOf id: String?, policy: PluginPolicy) throws(PluginLoadError) -> PresenterRegistry {
        var copy = self
        for plugin in (id.map { chain(for: $0) ?? [] } ?? plugins) where !plugin.isLoaded {
            let loaded: PluginLibrary.Contents
            do throws(PluginLoadFailure) {
                loaded = try PluginLibrary.load(plugin.file, policy: policy)
            } catch {
                throw PluginLoadError(path: plugin.path, failure: .loading(error))
            }
            guard var fresh = loaded.lazy.compactMap({ try? $0.get() }).first(where: { $0.id == plugin.id }),
                let position = copy.plugins.firstIndex(where: { $0.id == plugin.id })
            else {
                throw PluginLoadError(path: plugin.path, failure: .loading(.file(.missing)))
            }
            fresh.path = plugin.path
            copy.plugins[position] = fresh
        }
        return copy
    }
}
