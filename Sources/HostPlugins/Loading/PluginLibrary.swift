import HostSystem
import PresenterABI

/// Loads one plugin file: opened and checked once (`PluginFile`: the
/// security policy and the ELF pre-check), `dlopen` through that
/// descriptor, the entry point, and every descriptor it returns.
package enum PluginLibrary {
    /// The most descriptors read from one library, so that an entry point
    /// that never returns NULL cannot keep the host looping.
    static let maxPresenters = 256

    /// What one library holds, as described: a result per descriptor, in
    /// index order (a library may hold good and bad presenters).
    package typealias Contents = [Result<PresenterPlugin, PluginLoadFailure>]

    /// What one library loaded in this process holds: its contents with
    /// their hooks, for an engine.
    package typealias Loaded = [Result<LoadedPresenter, PluginLoadFailure>]

    /// What loading one file gave: what it holds, or why the file as a
    /// whole is unusable.
    package typealias Outcome = Result<Contents, PluginLoadFailure>

    /// Loads the file at the real path `path` under `policy`. Throws when
    /// the file as a whole is unusable.
    package static func load(_ path: String, policy: PluginPolicy) throws(PluginLoadFailure) -> Loaded {
        try load(PluginFile.open(path, policy: policy))
    }

    /// What loading the file at the real path `path` under `policy` gave,
    /// as described.
    static func outcome(_ path: String, policy: PluginPolicy) -> Outcome {
        Outcome { () throws(PluginLoadFailure) in contents(of: try load(path, policy: policy)) }
    }

    /// The descriptions of what a library loaded holds.
    static func contents(of loaded: Loaded) -> Contents {
        loaded.map { $0.map(\.plugin) }
    }

    /// Loads a file already opened and checked.
    package static func load(_ file: PluginFile) throws(PluginLoadFailure) -> Loaded {
        let path = file.path
        let library = try file.load()
        guard let symbol = library.symbol(PRESENTER_ENTRY_SYMBOL) else { throw .noEntryPoint }
        let entry = unsafeBitCast(symbol, to: presenter_descriptor_fn.self)

        var descriptors: [UnsafeRawPointer] = []
        while let descriptor = entry(UInt32(descriptors.count)) {
            guard descriptors.count < maxPresenters else { throw .tooManyPresenters(limit: maxPresenters) }
            descriptors.append(UnsafeRawPointer(descriptor))
        }
        guard !descriptors.isEmpty else { throw .noPresenter }

        let numbered = descriptors.count > 1
        let loaded: Loaded = descriptors.enumerated().map { index, descriptor in
            do throws(PluginLoadFailure.DescriptorProblem) {
                return .success(try DescriptorReader.read(descriptor, index: index, path: path))
            } catch {
                return .failure(
                    .descriptor(
                        index: numbered ? index : nil, id: DescriptorReader.readableId(descriptor),
                        error))
            }
        }
        if let description = file.description { try agree(contents(of: loaded), with: description) }
        return loaded
    }

    /// Throws unless the descriptors a file returned, `live`, are what its
    /// description says: the same number, each presenter's declared
    /// fields the same, and refused where the description's note is.
    static func agree(_ live: Contents, with description: PluginDescription) throws(PluginLoadFailure) {
        guard live.count == description.contents.count else {
            throw .disagreesWithDescription(index: nil, id: nil, field: "presenters")
        }
        let numbered = live.count > 1
        for (index, (loaded, described)) in zip(live, description.contents).enumerated() {
            switch (loaded, described) {
            case (.success(let loaded), .success(let described)):
                if let field = loaded.firstDeclaredDifference(from: described) {
                    throw .disagreesWithDescription(index: numbered ? index : nil, id: loaded.id, field: field)
                }
            case (.failure, .failure):
                continue
            case (.success(let loaded), .failure):
                throw .disagreesWithDescription(index: numbered ? index : nil, id: loaded.id, field: "presenter")
            case (.failure(let failure), .success):
                throw .disagreesWithDescription(
                    index: numbered ? index : nil, id: failure.presenterId, field: "presenter")
            }
        }
    }
}

extension PresenterPlugin {
    /// The first of the fields a descriptor declares (hooks by presence,
    /// capabilities the host knows) in which this presenter and `other`
    /// differ, by its name in a description; nil when they agree.
    package func firstDeclaredDifference(from other: PresenterPlugin) -> String? {
        let known: Capabilities = [.messages, .determinate, .oneRow]
        let fields: [(String, Bool)] = [
            ("abi", abiVersion == other.abiVersion), ("id", id == other.id), ("name", name == other.name),
            ("version", version == other.version), ("description", description == other.description),
            ("author", author == other.author), ("license", license == other.license),
            ("extends", extends == other.extends),
            ("capabilities", capabilities.intersection(known) == other.capabilities.intersection(known)),
            ("hooks", hookNames == other.hookNames),
        ]
        return fields.first { !$0.1 }?.0
    }
}
