/// A presenter as resolved for a view: its plugin first, then the base it
/// extends, that one's base, and so on (each base gets its own instance).
///
/// Made by ``PresenterRegistry/resolve(_:)`` once, where a command reads
/// the user's choice, and carried as is from there to the engine that loads
/// the files and creates the instances: nothing on the way looks the id up
/// again, and nothing but the engine loads anything. It holds descriptions
/// (values, no hooks): the engine takes each presenter from its file by its
/// descriptor's index (``PresenterPlugin/index``), refuses it there unless
/// its id is the one resolved, and keeps the loaded presenter to itself (a
/// presenter process answers a handle for it, which `attach` names; the
/// in-process engine loads it at attach).
public struct PresenterChain: Sendable {
    /// The presenter, then its bases; never empty.
    package let plugins: [PresenterPlugin]

    /// The presenter's id (the chain's first).
    public var id: String { plugins[0].id }

    /// The chain of `plugins`, the presenter first; nil when empty.
    package init?(_ plugins: [PresenterPlugin]) {
        guard !plugins.isEmpty else { return nil }
        self.plugins = plugins
    }

    /// The chain of `presenter` over `bases` (its base first), as `check`
    /// puts together the presenter of a file it checks.
    package init(_ presenter: PresenterPlugin, bases: [PresenterPlugin]) {
        plugins = [presenter] + bases
    }
}
