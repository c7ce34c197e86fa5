/// The presenters found on the search path, by id, with the files that
/// failed: what `RegistryPipeline` builds.
///
/// Only usable presenters are in `plugins`: valid descriptors whose
/// extension chain is complete and free of cycles. Everything else is in
/// `errors`, one line per problem; a broken file never stops the others.
public struct PresenterRegistry: Sendable {
    /// Usable presenters in search order, shadowed duplicates removed.
    package var plugins: [PresenterPlugin]
    /// What failed to load, and the presenters refused, in search order.
    public var errors: [PluginLoadError]
    /// The directories searched, in order, with their origin.
    public var searchPath: [SearchPathEntry]
    /// Plugin files without a description that were not scanned (their
    /// code not run), in search order: a registry loaded for one presenter
    /// (`RegistryPipeline.load(_:needing:)`) leaves out those it did not
    /// need, and their presenters with them.
    package var notScanned: [String] = []
    /// The owner and mode rules its files were discovered under: those an
    /// in-process engine loads them under again.
    package var policy: PluginPolicy = .strict

    /// Creates a registry from parts (for tests and tools).
    package init(plugins: [PresenterPlugin], errors: [PluginLoadError] = [], searchPath: [SearchPathEntry] = []) {
        self.plugins = plugins
        self.errors = errors
        self.searchPath = searchPath
    }

    /// The presenter with `id`, if loaded.
    package func plugin(id: String) -> PresenterPlugin? {
        plugins.first { $0.id == id }
    }

    /// `[plugin, its base, the base's base, ...]`, or nil when `id` is not
    /// loaded or its chain is broken (a missing base or a cycle).
    package func chain(for id: String) -> [PresenterPlugin]? {
        Self.chain(for: id, in: plugin(id:))
    }

    /// What `chain(for:)` gives for each presenter, by id (broken chains
    /// left out), from one table of the presenters: a listing asks for
    /// every chain, and each `chain(for:)` searches the presenters in order.
    package func chains() -> [String: [PresenterPlugin]] {
        // The first presenter of an id, as `plugin(id:)` finds it.
        let byId = Dictionary(plugins.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var chains: [String: [PresenterPlugin]] = [:]
        for id in byId.keys {
            if let chain = Self.chain(for: id, in: { byId[$0] }) { chains[id] = chain }
        }
        return chains
    }

    /// The chain of `id` with presenters found by `find`.
    private static func chain(for id: String, in find: (String) -> PresenterPlugin?) -> [PresenterPlugin]? {
        guard var current = find(id) else { return nil }
        var chain = [current]
        while let base = current.extends {
            guard !chain.contains(where: { $0.id == base }), let next = find(base) else { return nil }
            chain.append(next)
            current = next
        }
        return chain
    }

    /// The chain of presenter `id`, resolved once for whoever runs it.
    /// - Throws: why there is none: a file declares it and was refused
    ///   (that file, and why), or no file declares it (the ids there are,
    ///   and the files that failed to load, since the id may be in one).
    public func resolve(_ id: String) throws(UnknownPresenter) -> PresenterChain {
        if let chain = chain(for: id).flatMap(PresenterChain.init) { return chain }
        if let refusal = errors.lazy.compactMap({ $0.explaining(presenter: id) }).first {
            throw UnknownPresenter(id: id, description: refusal)
        }
        throw UnknownPresenter(id: id, available: plugins.map(\.id), failed: errors)
    }
}
