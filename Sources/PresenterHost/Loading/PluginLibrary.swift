import PresenterABI

/// Loads one plugin file: ELF pre-check, `dlopen`, the entry point, and
/// every descriptor it returns.
enum PluginLibrary {
    /// The most descriptors read from one library, so that an entry point
    /// that never returns NULL cannot keep the host looping.
    static let maxPresenters = 256

    /// Loads `path`. Throws when the file as a whole is unusable; otherwise
    /// returns one result per descriptor, in index order (a library may hold
    /// good and bad presenters).
    static func load(_ path: String) throws(PluginLoadFailure) -> [Result<PresenterPlugin, PluginLoadFailure>] {
        try ELFPrecheck.check(path)
        let library = try DynamicLibrary.open(path)
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
                return .failure(.descriptor(index: numbered ? index : nil, id: DescriptorReader.readableId(descriptor),
                                            error))
            }
        }
    }
}
