import HostPlugins
import HostSandbox
import HostSystem

/// How a presenter process is started and how long it may take: what a
/// program using the host as a library gives
/// `PresenterRuntime.Isolation.presenterProcess` to run its plugins'
/// hooks in a sandboxed process, as `presenter-host run` does.
public struct PresenterProcessConfiguration: Sendable, Equatable {
    /// The executable to run: presenter-host-plugins (``PluginExecutable``)
    /// by default.
    public var executable: String
    /// How long a hook may take to answer, in seconds.
    public var hookTimeout: Double
    /// How long starting the process and loading a plugin may take, in seconds.
    public var startTimeout: Double
    /// Variables the process gets, whatever their names, besides those
    /// of the host's that its sandbox passes (the locale, TERM, NO_COLOR:
    /// `PluginConfinement.passes`); the rest of the host's environment
    /// never reaches plugin code.
    public var environment: [String: String]
    /// The host's environment, of which the process gets what its sandbox
    /// passes: the value the command line read and passed down, or, for a
    /// library caller, this process's (read when the configuration is made).
    package var hostEnvironment: [String: String]
    /// The policy the plugin files are checked under (by the host, on
    /// the descriptor it copies them from: `PluginFile.image()`).
    public var policy: PluginPolicy = .strict
    /// A process already started for this engine (``PresenterProcessLaunch``),
    /// taken at the first call; nil: the first call starts one.
    package var launch: PresenterProcessLaunch?
    /// `--sandbox=require`: a presenter from a file outside
    /// ``trustedFolders`` is not run unless every layer of the sandbox is
    /// in force (``PresenterFailure/Reason/sandboxIncomplete(_:)``).
    public var requiresSandbox = false
    /// The folders of the presenters built with presenter-host (the
    /// bundled folder): those `requiresSandbox` does not hold back.
    public var trustedFolders: [String] = []

    /// Whether the plugin file at `path` is in a ``trustedFolders`` folder.
    func isTrusted(_ path: String) -> Bool {
        trustedFolders.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    /// The default budget of a hook: 250 ms.
    public static let defaultHookTimeout = 0.25
    /// The default budget of starting and loading: 5 s, as the scan helper's.
    public static let defaultStartTimeout = 5.0

    /// A configuration that runs `executable --presenter-process`
    /// (nil: presenter-host-plugins, found beside this program or in
    /// `../libexec/presenter-host/` from it: ``PluginExecutable``) with the given budgets, in seconds, and
    /// `environment` added to what its sandbox passes of the host's.
    public init(
        executable: String? = nil, hookTimeout: Double = defaultHookTimeout,
        startTimeout: Double = defaultStartTimeout, environment: [String: String] = [:]
    ) {
        self.executable = executable ?? PluginExecutable.path
        self.hookTimeout = hookTimeout
        self.startTimeout = startTimeout
        self.environment = environment
        hostEnvironment = ProcessEnvironment.current
    }
}
