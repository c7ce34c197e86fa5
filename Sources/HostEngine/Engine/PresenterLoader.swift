import HostPlugins
import HostSystem

/// How an in-process engine gets the hooks of a resolved presenter: the
/// one place a description (``PresenterPlugin``) becomes a
/// ``LoadedPresenter``, at attach, inside the engine.
///
/// The runtime's is ``files(policy:)``: each presenter's file loaded by its
/// index in this process, under the policy its registry was discovered
/// under, and refused there unless the id is the one resolved. Tests hand
/// the engine presenters built in code through a loader of their own.
package struct PresenterLoader: Sendable {
    /// The loaded presenter of a description, or why it cannot be run.
    package let load: @Sendable (PresenterPlugin) throws(PresenterFailure) -> LoadedPresenter

    /// A loader that calls `load`.
    package init(_ load: @escaping @Sendable (PresenterPlugin) throws(PresenterFailure) -> LoadedPresenter) {
        self.load = load
    }

    /// Loads each presenter's file (its real path) under `policy`, in this
    /// process, and takes its descriptor by index: a file that no longer
    /// loads, or holds no presenter of that id there, could not start.
    /// Each file is loaded once by one loader: a library stays loaded (its
    /// descriptor open, as ld.so knows it by it), whatever attaches it again.
    package static func files(policy: PluginPolicy) -> PresenterLoader {
        let loadedFiles = LockedValue<[String: PluginLibrary.Loaded]>([:])
        return PresenterLoader { plugin throws(PresenterFailure) in
            func refused(_ failure: StartFailure) -> PresenterFailure {
                PresenterFailure(presenterId: plugin.id, hook: nil, reason: .couldNotStart(failure))
            }
            let contents: PluginLibrary.Loaded
            if let known = loadedFiles.withLock({ $0[plugin.file] }) {
                contents = known
            } else {
                do throws(PluginLoadFailure) {
                    contents = try PluginLibrary.load(plugin.file, policy: policy)
                } catch {
                    throw refused(.file(PluginLoadError(path: plugin.file, failure: .loading(error))))
                }
                loadedFiles.withLock { $0[plugin.file] = contents }
            }
            // Named by the file's real path, as the presenter process names it.
            guard contents.indices.contains(plugin.index) else {
                throw refused(.presenterMissing(path: plugin.file, id: plugin.id))
            }
            let loaded: LoadedPresenter
            switch contents[plugin.index] {
            case .failure(let failure):
                throw refused(.file(PluginLoadError(path: plugin.file, failure: .loading(failure))))
            case .success(let found):
                loaded = found
            }
            guard loaded.plugin.id == plugin.id else {
                throw refused(.presenterMissing(path: plugin.file, id: plugin.id))
            }
            // The hooks are the file's as it is now: what it declares must
            // still be what was resolved (a cached description included).
            if let field = loaded.plugin.firstDeclaredDifference(from: plugin) {
                let disagreement = PluginLoadFailure.disagreesWithDescription(
                    index: plugin.index, id: plugin.id, field: field)
                throw refused(.file(PluginLoadError(path: plugin.file, failure: .loading(disagreement))))
            }
            return LoadedPresenter(plugin, hooks: loaded.hooks, descriptor: loaded.descriptor?.pointer)
        }
    }
}
