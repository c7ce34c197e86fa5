import Synchronization
import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// A shared library loaded into this process: the one place the host calls
/// `dlopen`, `dlsym`, `dladdr` and `dlerror` (plugins, through
/// `PluginFile`; which Swift runtime the process runs on, for
/// `SwiftToolchain`).
///
/// A library is opened with `RTLD_NOW | RTLD_LOCAL`: an undefined symbol
/// fails at once with the symbol named, and plugins cannot see each other's
/// symbols. It is never closed (no `dlclose`): hooks of a loaded presenter
/// may run until the process exits, Swift libraries cannot be unloaded
/// safely, and a library that turned out not to be a plugin costs only its
/// mapping.
package struct DynamicLibrary {
    private let handle: UnsafeMutableRawPointer

    /// Why `dlopen` refused a library: `dlerror`'s text (a missing
    /// dependency, an undefined symbol, not an ELF file...).
    package struct OpenFailure: Error {
        /// The text, without the path it often starts with (which the user
        /// sees anyway, beside it).
        package let message: String
    }

    /// Whether this process refuses to open libraries
    /// (``refuseInThisProcess()``).
    private static let refused = Atomic(false)

    /// From now on, ``open(_:)`` refuses every library: what
    /// `presenter-host` says first, as it links the Swift runtime
    /// statically and a Swift plugin loaded there would bring a second
    /// runtime into the process (its code runs in `presenter-host-plugins`).
    package static func refuseInThisProcess() {
        refused.store(true, ordering: .relaxed)
    }

    /// Whether ``open(_:)`` may open libraries in this process: false in
    /// presenter-host (``refuseInThisProcess()``), where even a trusted
    /// file goes to a helper.
    package static var opensLibraries: Bool { !refused.load(ordering: .relaxed) }

    /// Opens `path` (`/proc/PID/fd/N` for a plugin: see `PluginFile`),
    /// running the library's constructors.
    /// - Throws: `dlerror`'s text, or that this process loads no library
    ///   (``refuseInThisProcess()``).
    package static func open(_ path: String) throws(OpenFailure) -> DynamicLibrary {
        guard !refused.load(ordering: .relaxed) else {
            throw OpenFailure(message: "presenter-host loads no plugin code; presenter-host-plugins does")
        }
        _ = dlerror()  // clear a stale message
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let message = lastError() ?? "dlopen failed"
            throw OpenFailure(
                message: message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message)
        }
        return DynamicLibrary(handle: handle)
    }

    /// The address of `name`, or nil when the library does not define it.
    package func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, name)
    }

    /// The file of the library loaded in this process that defines `name`
    /// (`dlsym(RTLD_DEFAULT)`, then the loaded object whose segments hold
    /// that address): which `libswiftCore.so` the
    /// process runs on, say. Nil when no loaded object defines it.
    package static func loadedFile(defining name: String) -> String? {
        ph_object_path_of(ph_default_symbol(name)).map { String(cString: $0) }
    }

    private static func lastError() -> String? {
        dlerror().map { String(cString: $0) }
    }
}
