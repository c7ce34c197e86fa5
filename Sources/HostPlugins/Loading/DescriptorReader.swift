import Glibc
import PresenterABI

/// Reads and validates one `presenter_descriptor` a plugin returned, copying
/// what it declares into a `PresenterPlugin`, loaded with its hooks.
///
/// Order matters: `struct_size` and the ABI version are read first (they sit
/// at fixed offsets in every version), a foreign major or a newer minor is
/// refused before any other field is looked at, and every later field is read
/// only if it lies within `struct_size` (`BoundedStruct`).
enum DescriptorReader {
    /// The size of the ABI 1.0 descriptor: up to the end of its last field,
    /// `key`. Fixed even when later minors append fields.
    static let minimumSize =
        MemoryLayout<presenter_descriptor>.offset(of: \.key)!
        + MemoryLayout<LoadedPresenter.Hooks.Key?>.size

    /// The largest `struct_size` taken for a descriptor. Later minors grow
    /// it by a few pointers at a time; a size past this is garbage.
    static let maximumSize = 64 * 1024

    /// Reads the descriptor at `pointer`, the `index`th of the library at `path`.
    static func read(_ pointer: UnsafeRawPointer, index: Int, path: String)
        throws(PluginLoadFailure.DescriptorProblem) -> LoadedPresenter
    {
        let descriptor = BoundedStruct<presenter_descriptor>(pointer)
        let size = UInt32(descriptor.declaredSize)
        guard descriptor.declaredSize <= maximumSize else { throw .tooLarge(size: size, limit: maximumSize) }
        guard let major = descriptor.field(\.abi_major), let minor = descriptor.field(\.abi_minor) else {
            throw .tooSmall(size: size, minimum: minimumSize)
        }
        let abi = ABIVersion(major: major, minor: minor)
        try DescriptorRules.checkABI(abi)
        guard descriptor.declaredSize >= minimumSize else { throw .tooSmall(size: size, minimum: minimumSize) }

        typealias Limit = DescriptorRules.Limit
        let id = try required(descriptor.field(\.id) ?? nil, "id", limit: Limit.id)
        try DescriptorRules.checkId(id, field: "id")
        let name = try required(descriptor.field(\.name) ?? nil, "name", limit: Limit.name)
        let version = try required(descriptor.field(\.version) ?? nil, "version", limit: Limit.version)
        let summary = try optional(descriptor.field(\.description) ?? nil, "description", limit: Limit.description)
        let author = try optional(descriptor.field(\.author) ?? nil, "author", limit: Limit.author)
        let license = try optional(descriptor.field(\.license) ?? nil, "license", limit: Limit.license)
        let extends = try optional(descriptor.field(\.extends) ?? nil, "extends", limit: Limit.id)
        if let extends { try DescriptorRules.checkId(extends, field: "extends") }

        let hooks = LoadedPresenter.Hooks(
            create: descriptor.field(\.create) ?? nil, destroy: descriptor.field(\.destroy) ?? nil,
            show: descriptor.field(\.show) ?? nil, hide: descriptor.field(\.hide) ?? nil,
            progress: descriptor.field(\.progress) ?? nil, render: descriptor.field(\.render) ?? nil,
            key: descriptor.field(\.key) ?? nil)
        let plugin = PresenterPlugin(
            id: id, name: name, version: version, description: summary, author: author, license: license,
            extends: extends, capabilities: .init(rawValue: descriptor.field(\.capabilities) ?? 0),
            abiVersion: abi, file: path, index: index, hookNames: hooks.presentNames, source: .loaded)
        return LoadedPresenter(
            plugin, hooks: hooks,
            // Handed back to the plugin's create, never read through by the host.
            descriptor: pointer.assumingMemoryBound(to: presenter_descriptor.self))
    }

    /// The descriptor's id when it can be read and is valid, whatever else is
    /// wrong with the descriptor: error messages name it, and a presenter
    /// that extends it is told that its base did not load rather than that
    /// it does not exist. Nothing is read from a foreign major's layout.
    static func readableId(_ pointer: UnsafeRawPointer) -> String? {
        let descriptor = BoundedStruct<presenter_descriptor>(pointer)
        guard descriptor.declaredSize <= maximumSize, descriptor.field(\.abi_major) == ABIVersion.host.major,
            let id = try? required(descriptor.field(\.id) ?? nil, "id", limit: DescriptorRules.Limit.id),
            (try? DescriptorRules.checkId(id, field: "id")) != nil
        else { return nil }
        return id
    }

    /// A string that must be present and non-empty.
    private static func required(_ pointer: UnsafePointer<CChar>?, _ field: String, limit: Int)
        throws(PluginLoadFailure.DescriptorProblem) -> String
    {
        guard let pointer else { throw .missingField(field) }
        return try DescriptorRules.requiredText(bytes(pointer, limit: limit), field: field, limit: limit)
    }

    /// A string that may be NULL; "" counts as absent.
    private static func optional(_ pointer: UnsafePointer<CChar>?, _ field: String, limit: Int)
        throws(PluginLoadFailure.DescriptorProblem) -> String?
    {
        guard let pointer else { return nil }
        return try DescriptorRules.text(bytes(pointer, limit: limit), field: field, limit: limit)
    }

    /// The string's bytes up to its NUL, but at most `limit + 1` (one more
    /// says it is too long): memory that never holds a NUL is not read for ever.
    private static func bytes(_ pointer: UnsafePointer<CChar>, limit: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: pointer, count: strnlen(pointer, limit + 1))
    }
}
