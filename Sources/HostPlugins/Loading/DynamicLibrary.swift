import Glibc
import SystemShims

/// The one place the host calls `dlopen`, `dlsym`, `dladdr` and `dlerror`.
///
/// A library is opened with `RTLD_NOW | RTLD_LOCAL`: an undefined symbol
/// fails at once with the symbol named, and plugins cannot see each other's
/// symbols. It is never closed: hooks of a loaded presenter may run until the
/// process exits, Swift libraries cannot be unloaded safely, and a library
/// that turned out not to be a plugin costs only its mapping.
struct DynamicLibrary {
    private let handle: UnsafeMutableRawPointer

    /// Opens `path` (`/proc/PID/fd/N` for a plugin: see `PluginFile`);
    /// throws `dlerror`'s text (missing dependency, undefined symbol...).
    /// Runs the library's constructors.
    static func open(_ path: String) throws(PluginLoadFailure) -> DynamicLibrary {
        _ = dlerror()  // clear a stale message
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            // dlerror often starts with the path, which the user sees anyway.
            let message = lastError() ?? "dlopen failed"
            throw .dlopen(message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message)
        }
        return DynamicLibrary(handle: handle)
    }

    /// The address of `name`, or nil when the library does not define it.
    func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, name)
    }

    /// The file of the object loaded in this process that defines `name`
    /// (`dlsym(RTLD_DEFAULT)`, then `dladdr`): which `libswiftCore.so` the
    /// process runs on, say. Nil when no loaded object defines it.
    static func loadedFile(defining name: String) -> String? {
        ph_object_path_of(ph_default_symbol(name)).map { String(cString: $0) }
    }

    private static func lastError() -> String? {
        dlerror().map { String(cString: $0) }
    }
}
