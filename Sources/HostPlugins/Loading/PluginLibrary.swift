import PresenterABI

/// Loads one plugin file: opened and checked once (`PluginFile`: the
/// security policy and the ELF pre-check), `dlopen` through that
/// descriptor, the entry point, and every descriptor it returns.
package enum PluginLibrary {
    /// The most descriptors read from one library, so that an entry point
    /// that never returns NULL cannot keep the host looping.
    static let maxPresenters = 256

    /// What one library holds: a result per descriptor, in index order (a
    /// library may hold good and bad presenters).
    package typealias Contents = [Result<PresenterPlugin, PluginLoadFailure>]

    /// What loading one file gave: what it holds, or why the file as a
    /// whole is unusable.
    package typealias Outcome = Result<Contents, PluginLoadFailure>

    /// Loads the file at the real path `path` under `policy`. Throws when
    /// the file as a whole is unusable.
    static func load(_ path: String, policy: PluginPolicy) throws(PluginLoadFailure) -> Contents {
        try load(PluginFile.open(path, policy: policy))
    }

    /// What loading the file at the real path `path` under `policy` gave.
    static func outcome(_ path: String, policy: PluginPolicy) -> Outcome {
        Outcome { () throws(PluginLoadFailure) in try load(path, policy: policy) }
    }

    /// Loads a file already opened and checked.
    package static func load(_ file: PluginFile) throws(PluginLoadFailure) -> Contents {
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
        return descriptors.enumerated().map { index, descriptor in
            do throws(PluginLoadFailure.DescriptorProblem) {
                return .success(try DescriptorReader.read(descriptor, path: path))
            } catch {
                return .failure(
                    .descriptor(
                        index: numbered ? index : nil, id: DescriptorReader.readableId(descriptor),
                        error))
            }
        }
    }
}
