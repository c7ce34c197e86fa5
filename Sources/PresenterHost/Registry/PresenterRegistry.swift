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
    /// Every candidate first passes discovery's checks (`CandidateCheck`:
    /// links, the owner and mode policy); a file reached twice (the same
    /// directory twice on the path, or a link to a file already seen) counts
    /// once. For a duplicate id the first usable presenter in search order
    /// wins and a later one is reported as shadowed (`PresenterResolution`).
    ///
    /// A file whose identity the `cache` remembers is not loaded: its
    /// presenters come from the cache (`PresenterPlugin.cached`, no hooks).
    /// The others are loaded, which runs plugin code (constructors and the
    /// entry point): callers that print results should divert stdout first
    /// (`StandardOutputDiversion`). The cache is then rewritten if anything
    /// changed.
    ///
    /// - Parameter scanner: when given, the files to load (all but the
    ///   bundled ones) are loaded in a helper process instead, which reports
    ///   what they hold, and those that crash or hang it are reported
    ///   (`PluginScanner`). The command line passes one; without one (tests,
    ///   whose executable is not presenter-host), every file is loaded in
    ///   this process.
    static func load(
        _ searchPath: [SearchPathEntry], scanner: PluginScanner?,
        policy: PluginPolicy, cache: RegistryCache?
    ) -> PresenterRegistry {
        let files = checkedFiles(searchPath, policy: policy)
        var contents: [Int: Result<PluginLibrary.Contents, PluginLoadFailure>] = [:]
        var remembered: [String: RegistryCacheFormat.Entry] = [:]
        for (index, file) in files.enumerated() {
            guard let real = file.checked.file, let identity = file.checked.identity,
                let entry = cache?.entries[real], entry.identity == identity
            else { continue }
            contents[index] = entry.contents
            remembered[real] = entry
        }

        // Files not remembered are scanned by the helper (those that crash
        // or hang it are blamed); the bundled ones, and any the helper could
        // not scan, are loaded here.
        let pending = files.indices.filter { files[$0].checked.problem == nil && contents[$0] == nil }
        let scanned = pending.filter { !files[$0].bundled }
        let reported =
            scanned.isEmpty ? [:] : scanner?.scan(scanned.map { files[$0].checked.file! }, policy: policy) ?? [:]
        for (scanIndex, fileIndex) in scanned.enumerated() {
            if let result = reported[scanIndex] { contents[fileIndex] = result }
        }
        for index in pending where contents[index] == nil {
            do throws(PluginLoadFailure) {
                contents[index] = .success(try PluginLibrary.load(files[index].checked.file!, policy: policy))
            } catch {
                contents[index] = .failure(error)
            }
        }
        for index in pending {
            if let result = contents[index], result.isLasting, let real = files[index].checked.file {
                remembered[real] = .init(identity: files[index].checked.identity!, contents: result)
            }
        }
        cache?.store(remembered)

        // Errors are kept with (file, descriptor) keys so they come out in search order.
        var errors: [(key: [Int], error: PluginLoadError)] = []
        var candidates: [PresenterResolution.Candidate] = []
        var candidateKeys: [[Int]] = []
        var refusedIds: [String: String] = [:]
        for (fileIndex, file) in files.enumerated() {
            let path = file.checked.path
            switch file.checked.problem.map({ .failure($0) }) ?? contents[fileIndex] {
            case .failure(let problem):
                errors.append(([fileIndex, -1], PluginLoadError(path: path, failure: problem)))
            case .success(let results):
                for (index, result) in results.enumerated() {
                    switch result {
                    case .success(var plugin):
                        plugin.path = path
                        candidates.append(.init(plugin: plugin, index: index))
                        candidateKeys.append([fileIndex, index])
                    case .failure(let failure):
                        if case .descriptor(_, let id?, _) = failure, refusedIds[id] == nil { refusedIds[id] = path }
                        errors.append(([fileIndex, index], PluginLoadError(path: path, failure: failure)))
                    }
                }
            case nil:
                break
            }
        }

        let resolution = PresenterResolution(candidates, refusedIds: refusedIds)
        for (position, failure) in resolution.refusals {
            errors.append(
                (candidateKeys[position], PluginLoadError(path: candidates[position].plugin.path, failure: failure)))
        }
        errors.sort { $0.key.lexicographicallyPrecedes($1.key) }
        return PresenterRegistry(plugins: resolution.plugins, errors: errors.map(\.error), searchPath: searchPath)
    }

    /// Loads every candidate file of `searchPath` in this process, without a
    /// cache, under the strict policy (for tests and tools).
    public static func load(_ searchPath: [SearchPathEntry], scanner: PluginScanner? = nil) -> PresenterRegistry {
        load(searchPath, scanner: scanner, policy: .strict, cache: nil)
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
                throw PluginLoadError(path: plugin.path, failure: error)
            }
            guard var fresh = loaded.lazy.compactMap({ try? $0.get() }).first(where: { $0.id == plugin.id }),
                let position = copy.plugins.firstIndex(where: { $0.id == plugin.id })
            else {
                throw PluginLoadError(path: plugin.path, failure: .missing)
            }
            fresh.path = plugin.path
            copy.plugins[position] = fresh
        }
        return copy
    }

    /// A candidate file after discovery's checks, and whether it is in the bundled directory.
    private struct File {
        let checked: CandidateCheck.Checked
        let bundled: Bool
    }

    /// The candidate files of every directory on the path, checked, each real file once.
    private static func checkedFiles(_ searchPath: [SearchPathEntry], policy: PluginPolicy) -> [File] {
        var files: [File] = []
        var seen = Set<String>()
        let check = CandidateCheck(policy: policy)
        for entry in searchPath where entry.status == .directory {
            for candidate in PluginDirectory.candidates(in: entry) {
                let checked = check.check(candidate, in: entry.path)
                if let real = checked.file, !seen.insert(real).inserted { continue }
                files.append(File(checked: checked, bundled: entry.origin == .bundled))
            }
        }
        return files
    }
}

private extension Result where Success == PluginLibrary.Contents, Failure == PluginLoadFailure {
    /// Whether the result lasts as long as the file does, and may be cached:
    /// not a file that vanished, could not be opened or changed under the
    /// checks (those are about this moment, not about the file).
    var isLasting: Bool {
        switch self {
        case .success: return true
        case .failure(.missing), .failure(.unreadable), .failure(.replacedByLink), .failure(.insecure),
            .failure(.linkOutsideDirectory), .failure(.danglingLink), .failure(.symlinkLoop):
            return false
        case .failure: return true
        }
    }
}
