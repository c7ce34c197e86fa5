import Foundation
import PresenterABI

// Support for the plugin and SDK tests: a real plugin library loaded with
// dlopen (this file), and a fake host that records every service call, draws
// into a character grid and runs on a clock the test moves by hand
// (FakeHost, FakeView, PluginInstance).

/// A plugin library loaded for real, as the host loads it.
struct LoadedPlugin {
    let path: String
    let descriptors: [UnsafePointer<presenter_descriptor>]

    /// Loads the built product `lib<name>.so`. With `privateCopy`, loads a copy
    /// of the file instead, so that the library's statics (such as
    /// NetActivity's shared counter) belong to this test alone.
    static func load(_ name: String, privateCopy: Bool = false) throws -> LoadedPlugin {
        var url = TestPaths.library(name)
        if privateCopy {
            let copy = TestPaths.temporaryDirectory("plugin").appendingPathComponent(url.lastPathComponent)
            try FileManager.default.copyItem(at: url, to: copy)
            url = copy
        }
        return try load(file: url)
    }

    /// Loads the library at `url` (a plugin a test compiled).
    static func load(file url: URL) throws -> LoadedPlugin {
        // Never dlclosed: the host never unloads code either.
        guard let handle = dlopen(url.path, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadError(message: String(cString: dlerror()))
        }
        guard let symbol = dlsym(handle, PRESENTER_ENTRY_SYMBOL) else {
            throw LoadError(message: "\(url.path): no \(PRESENTER_ENTRY_SYMBOL)")
        }
        let entry = unsafeBitCast(symbol, to: presenter_descriptor_fn.self)
        var descriptors: [UnsafePointer<presenter_descriptor>] = []
        while let descriptor = entry(UInt32(descriptors.count)) { descriptors.append(descriptor) }
        return LoadedPlugin(path: url.path, descriptors: descriptors)
    }

    /// The first (in these plugins, the only) descriptor.
    var descriptor: UnsafePointer<presenter_descriptor> { descriptors[0] }

    struct LoadError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
