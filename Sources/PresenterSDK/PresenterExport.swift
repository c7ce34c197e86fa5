import PresenterABI
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Builds the C descriptors a plugin exports. Call it from the plugin's entry point:
///
/// ```swift
/// @c public func presenter_plugin_descriptor(_ index: UInt32) -> UnsafePointer<presenter_descriptor>? {
///     PresenterExport.descriptor(at: index, of: [MyPresenter.self])
/// }
/// ```
/// (`@_cdecl("presenter_plugin_descriptor")` works too on older compilers.)
public enum PresenterExport {
    /// The descriptor of `types[index]`, or `nil` past the end (which ends the
    /// host's enumeration). The descriptor and its strings are built once and
    /// live for the rest of the process, as the ABI requires. Only hooks listed
    /// in ``PresenterInfo/hooks`` get a function; the others are NULL, so the
    /// host runs the base presenter's hook.
    public static func descriptor(at index: UInt32, of types: [any Presenter.Type]) -> UnsafePointer<
        presenter_descriptor
    >? {
        guard Int(index) < types.count else { return nil }
        let type = types[Int(index)]
        let address = registry.withLock { registry in
            if let existing = registry.descriptors[ObjectIdentifier(type)] { return existing }
            let pointer = UnsafeMutablePointer<presenter_descriptor>.allocate(capacity: 1)
            pointer.initialize(to: makeDescriptor(type.info))
            let address = UInt(bitPattern: pointer)
            registry.descriptors[ObjectIdentifier(type)] = address
            registry.types[address] = type
            return address
        }
        return UnsafePointer(bitPattern: address)
    }

    /// The presenter type a descriptor built here stands for.
    static func type(of descriptor: UnsafePointer<presenter_descriptor>) -> (any Presenter.Type)? {
        registry.withLock { $0.types[UInt(bitPattern: descriptor)] }
    }

    private static func makeDescriptor(_ info: PresenterInfo) -> presenter_descriptor {
        var d = presenter_descriptor()
        d.struct_size = UInt32(MemoryLayout<presenter_descriptor>.size)
        d.abi_major = UInt16(PRESENTER_ABI_MAJOR)
        d.abi_minor = UInt16(PRESENTER_ABI_MINOR)
        d.id = permanent(info.id)
        d.name = permanent(info.name)
        d.version = permanent(info.version)
        d.description = info.description.flatMap(permanent)
        d.author = info.author.flatMap(permanent)
        d.license = info.license.flatMap(permanent)
        d.extends = info.extends.flatMap(permanent)
        d.capabilities = info.capabilities.rawValue
        d.create = HookThunks.create
        d.destroy = HookThunks.destroy
        d.show = info.hooks.contains(.show) ? HookThunks.show : nil
        d.hide = info.hooks.contains(.hide) ? HookThunks.hide : nil
        d.progress = info.hooks.contains(.progress) ? HookThunks.progress : nil
        d.render = info.hooks.contains(.render) ? HookThunks.render : nil
        d.key = info.hooks.contains(.key) ? HookThunks.key : nil
        return d
    }

    /// A copy of `string` that is never freed: descriptor strings must outlive every caller.
    private static func permanent(_ string: String) -> UnsafePointer<CChar>? {
        UnsafePointer(strdup(string))
    }

    /// Descriptors built so far, both ways, by address (a plain number, so
    /// the lock's state is Sendable). A descriptor is never freed nor changed
    /// once built.
    private struct Registry {
        var descriptors: [ObjectIdentifier: UInt] = [:]
        var types: [UInt: any Presenter.Type] = [:]
    }

    // The entry point may be called from any thread, so the cache is locked.
    private static let registry = Mutex(Registry())
}
