import HostSystem

/// Builds a `PresenterRegistry` from a search path: the one owner of the
/// stages, which it runs in order, each on what the one before produced.
///
/// 1. Discovery (`DiscoveredFile.all`): the candidate files of each
///    directory, checked (links, the owner and mode policy), each real file
///    once.
/// 2. The registry cache: a file whose identity the cache remembers is not
///    loaded; its presenters come from the cache (`PresenterPlugin.cached`),
///    or its failure does.
/// 3. Loading (`PluginLoader`): the other files, in the scan helper when a
///    scanner is given (the bundled ones, and any the helper could not
///    scan, in this process, unless this process loads no library:
///    presenter-host, `DynamicLibrary.opensLibraries`). Loading runs plugin code (constructors and
///    the entry point): callers that print results should divert stdout
///    first (`StandardOutputDiversion`). The cache is then rewritten if
///    anything changed.
/// 4. Resolution (`PresenterResolution`): one usable presenter per id, the
///    first in search order; a later one is reported as shadowed.
///
/// What each stage refuses becomes a `PluginLoadError` carrying that
/// stage's failure, in search order; a broken file never stops the others.
public struct RegistryPipeline {
    /// Loads files in a helper process first, or nil to load every file in this process.
    let scanner: PluginScanner?
    /// The owner and mode rules files are discovered and loaded under.
    let policy: PluginPolicy
    /// What earlier scans gave, per file identity; nil for none.
    let cache: RegistryCache?

    /// A pipeline without a cache. `scanner` has no default: with one, a
    /// file without a description is loaded in its sandboxed helper;
    /// `nil` loads every such file in this process, trusting it (its
    /// constructors run here), a choice a library user makes in so many words.
    public init(scanner: PluginScanner?, policy: PluginPolicy = .strict) {
        self.init(scanner: scanner, policy: policy, cache: nil)
    }

    /// A pipeline that reads and updates `cache`. Within the package, no
    /// scanner by default: tests, whose executable is not presenter-host,
    /// and `run --in-process`, which runs its plugins here anyway.
    package init(scanner: PluginScanner? = nil, policy: PluginPolicy = .strict, cache: RegistryCache? = nil) {
        self.scanner = scanner
        self.policy = policy
        self.cache = cache
    }

    /// The registry of every candidate file of `searchPath`, in order.
    public func load(_ searchPath: [SearchPathEntry]) -> PresenterRegistry {
        load(searchPath, needing: nil)
    }

    /// The registry of the candidate files of `searchPath`, for a command
    /// that will run the presenter `id` (nil: every file, as `--list`).
    /// Scanning a file runs its code in a helper, and a hostile or broken
    /// file can hold that for its whole deadline: so with an `id`, a file
    /// that neither describes itself nor is known to the cache is scanned
    /// only when the files known without it do not give `id`'s chain. Such
    /// a file is then left out of the registry (and of the cache):
    /// `--list` scans it.
    package func load(_ searchPath: [SearchPathEntry], needing id: String?) -> PresenterRegistry {
        let files = DiscoveredFile.all(on: searchPath, policy: policy)
        let (outcomes, notScanned) = load(files, needing: id, searchPath: searchPath)
        var registry = resolve(files, outcomes: outcomes, searchPath: searchPath)
        registry.notScanned = notScanned
        registry.policy = policy
        return registry
    }

    /// What loading each file discovery accepted gave, by its index (nil
    /// for a file discovery refused): from the cache when it knows the file
    /// as it is, else loaded; the cache then remembers the outcomes that last.
    private func load(
        _ files: [DiscoveredFile], needing id: String?, searchPath: [SearchPathEntry]
    ) -> (outcomes: [PluginLibrary.Outcome?], notScanned: [String]) {
        var outcomes = [PluginLibrary.Outcome?](repeating: nil, count: files.count)
        var notScanned: [String] = []
        var remembered: [(path: String, entry: RegistryCacheFormat.Entry)] = []
        var pending: [(index: Int, real: DiscoveredFile.Real)] = []
        for (index, file) in files.enumerated() {
            guard case .success(let real) = file.checked else { continue }
            if let entry = cache?.entries[real.path], entry.identity == real.identity {
                outcomes[index] = entry.contents
                remembered.append((real.path, entry))
            } else {
                pending.append((index, real))
            }
        }
        // A bundled file is loaded here when it has no description, unless
        // this process loads no libraries (presenter-host: then a helper).
        let pendingFiles = pending.map {
            (path: $0.real.path, trusted: files[$0.index].bundled && DynamicLibrary.opensLibraries)
        }
        var loaded = [PluginLibrary.Outcome?](repeating: nil, count: pending.count)
        if let scanner {
            let reading = PluginLoader.read(pendingFiles.map(\.path), policy: policy)
            for (index, outcome) in reading.outcomes.merging(
                PluginLoader.loadTrusted(pendingFiles, reading: reading, policy: policy),
                uniquingKeysWith: { a, _ in a })
            {
                loaded[index] = outcome
            }
            // With an id, a file is scanned only while the id's chain does
            // not resolve without it: not at all when it does already, and
            // the scan ends (its helpers killed) as soon as it does.
            let undescribed = reading.undescribed.filter { !pendingFiles[$0].trusted }
            func resolves(_ id: String, with scanned: [Int: PluginLibrary.Outcome]) -> Bool {
                var all = outcomes
                for (position, (index, _)) in pending.enumerated() {
                    all[index] = scanned[position] ?? loaded[position]
                }
                return (try? resolve(files, outcomes: all, searchPath: searchPath).resolve(id)) != nil
            }
            if let id, resolves(id, with: [:]) {
                notScanned = undescribed.map { pendingFiles[$0].path }
            } else {
                let scanned = PluginLoader.scan(
                    undescribed, of: pendingFiles, scanner: scanner, policy: policy,
                    until: id.map { id in { resolves(id, with: $0) } })
                for (index, outcome) in scanned { loaded[index] = outcome }
                notScanned = undescribed.filter { scanned[$0] == nil }.map { pendingFiles[$0].path }
            }
        } else {
            loaded = PluginLoader.loadInProcess(pendingFiles.map(\.path), policy: policy)
        }
        var changed = false
        for ((index, real), outcome) in zip(pending, loaded) {
            guard let outcome else { continue }
            outcomes[index] = outcome
            if outcome.isLasting {
                remembered.append((real.path, .init(identity: real.identity, contents: outcome)))
                changed = true
            }
        }
        // Every entry from the cache as it was, and as many as it holds: it
        // would be written again as it is (`store` says so too, at the cost
        // of a dictionary of every entry on each warm start).
        guard let cache, changed || cache.ignored != nil || remembered.count != cache.entries.count else {
            return (outcomes, notScanned)
        }
        // Discovery gave each real path once.
        cache.store(Dictionary(remembered, uniquingKeysWith: { first, _ in first }))
        return (outcomes, notScanned)
    }

    /// The registry: the presenters resolution keeps, and every refusal in
    /// search order (by file, then descriptor).
    private func resolve(
        _ files: [DiscoveredFile], outcomes: [PluginLibrary.Outcome?], searchPath: [SearchPathEntry]
    ) -> PresenterRegistry {
        var errors: [(key: [Int], error: PluginLoadError)] = []
        var candidates: [PresenterResolution.Candidate] = []
        var candidateKeys: [[Int]] = []
        var refusedIds: [String: String] = [:]
        for (fileIndex, file) in files.enumerated() {
            let path = file.path
            switch (file.checked, outcomes[fileIndex]) {
            case (.failure(let failure), _):
                errors.append(([fileIndex, -1], PluginLoadError(path: path, failure: .discovery(failure))))
            case (.success, .failure(let failure)?):
                errors.append(([fileIndex, -1], PluginLoadError(path: path, failure: .loading(failure))))
            case (.success, .success(let results)?):
                for (index, result) in results.enumerated() {
                    switch result {
                    case .success(let plugin):
                        candidates.append(.init(plugin: PresenterPlugin(plugin, foundAt: path), index: index))
                        candidateKeys.append([fileIndex, index])
                    case .failure(let failure):
                        if case .descriptor(_, let id?, _) = failure, refusedIds[id] == nil { refusedIds[id] = path }
                        errors.append(([fileIndex, index], PluginLoadError(path: path, failure: .loading(failure))))
                    }
                }
            case (.success, nil):
                break
            }
        }

        let resolution = PresenterResolution(candidates, refusedIds: refusedIds)
        for (position, failure) in resolution.refusals {
            errors.append(
                (
                    candidateKeys[position],
                    PluginLoadError(path: candidates[position].plugin.path, failure: .resolution(failure))
                ))
        }
        errors.sort { $0.key.lexicographicallyPrecedes($1.key) }
        return PresenterRegistry(plugins: resolution.plugins, errors: errors.map(\.error), searchPath: searchPath)
    }
}

extension Result where Success == PluginLibrary.Contents, Failure == PluginLoadFailure {
    /// Whether the outcome lasts as long as the file does, and may be
    /// cached: not a file that vanished, could not be opened or changed
    /// under the checks, nor one not loaded for want of a scan helper or
    /// of a complete sandbox (those are about this moment, not about the
    /// file).
    fileprivate var isLasting: Bool {
        switch self {
        case .success: return true
        case .failure(.file), .failure(.replacedByLink), .failure(.sandboxIncomplete), .failure(.unscanned):
            return false
        case .failure: return true
        }
    }
}
