import HostSystem
import Dispatch
import HostEngine
import HostPlugins

/// `presenter-host run`: runs a command as an action under a presenter.
///
/// The order matters: bad flags, a bad messages file and an unknown
/// presenter are reported before anything runs; the presenter is attached
/// before the command starts (so a presenter that cannot start runs nothing),
/// and a command that cannot be started shows no presenter at all.
package enum RunCommand {
    /// Runs `run` with its options (the plugin options given before the
    /// word `run` among them); returns how the host ends (see
    /// ``RunSession/ending(of:interruptedBy:timedOut:)``).
    static func execute(_ options: RunOptions) -> ProcessEnd.Status {
        // The presenter process starts now, while the registry loads and the
        // command starts: it is a second Swift process, and the run waits
        // for it at the end (docs/BENCHMARKS.md). An error before the run
        // ends it unused.
        let launch =
            options.inProcess
            ? nil
            : PresenterProcessLaunch(CommandRuntime.presenterProcess(options: options))
        do {
            let environment = ProcessEnvironment.current
            let file = try options.messagesFile.map { path throws(CommandError) in try MessagesFile.load(path: path) }
            // Tracing goes to the --log file, or else to stderr as -v would.
            let tracing = EngineNote.tracingEnabled(environment)
            let log = try RunLog(verbose: options.verbose || (tracing && options.logFile == nil), path: options.logFile)
            let events = try RunEvents(path: options.eventsFile, log: log, environment: environment)
            let (registry, presenter) = try loadRegistry(
                options.plugins, presenter: options.presenter, inProcess: options.inProcess,
                verbose: options.verbose, environment: environment, log: tracing ? log : nil)
            let session = RunSession(
                options: options, view: RunView(options: options, file: file),
                environment: environment)
            return try session.run(
                registry: registry, presenter: presenter, log: log, events: events, launch: launch)
        } catch {
            return .exit(PresenterHostCommand.report(error))
        }
    }

    /// Loads the plugins and resolves the chosen presenter: the one lookup
    /// of its id, whose chain then goes on to the runtime and the engine
    /// (every command attaches its views with it). A warm start runs no
    /// plugin code here: the presenter process loads the files it needs;
    /// `inProcess` loads the chain's here (the registry's other presenters
    /// stay unloaded). With a `log`, every discovery decision goes to it
    /// (tracing).
    static func loadRegistry(
        _ plugins: PluginOptions, presenter: String, inProcess: Bool,
        verbose: Bool = false, environment: [String: String], log: RunLog? = nil
    ) throws(CommandError) -> (registry: PresenterRegistry, presenter: PresenterChain) {
        if inProcess && plugins.requiresSandbox {
            throw .usage(
                "--in-process runs presenters in presenter-host itself, outside the sandbox: it cannot be combined with --sandbox require"
            )
        }
        let registry = plugins.loadRegistry(
            environment: environment, verbose: verbose, trusting: inProcess, needing: presenter)
        for line in log.map({ _ in DiscoveryTrace.lines(registry) }) ?? [] {
            log?.write(PresenterLogEntry(level: .debug, presenterId: nil, message: line))
        }
        let chain: PresenterChain
        do throws(UnknownPresenter) {
            chain = try registry.resolve(presenter)
        } catch {
            throw .usage(error.description)
        }
        guard inProcess else { return (registry, chain) }
        do throws(PluginLoadError) {
            return (registry, try RegistryPipeline(policy: plugins.policy).loadingInProcess(chain))
        } catch {
            throw .failure("\(error)")
        }
    }
}
