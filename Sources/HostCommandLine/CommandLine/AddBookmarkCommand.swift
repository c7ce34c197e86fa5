import FoundationEssentials
import HostBookmarks
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem

/// `presenter-host add-bookmark`: the Add Bookmark screen, or, with
/// `--get-title` / `--add`, its two actions for scripts, with no screen:
/// progress goes through the presenter on stderr as in `run` (plain lines
/// off a terminal), the title on stdout.
package enum AddBookmarkCommand {
    /// Runs `add-bookmark` with its options (the plugin options given
    /// before the word `add-bookmark` among them); returns how the host ends.
    static func execute(_ options: AddBookmarkOptions) -> ProcessEnd.Status {
        do {
            return try run(options)
        } catch {
            return .exit(PresenterHostCommand.report(error))
        }
    }

    private static func run(_ options: AddBookmarkOptions) throws(CommandError) -> ProcessEnd.Status {
        let environment = ProcessEnvironment.current
        if options.mode == .screen {
            // Checked first: nothing is loaded for a screen that cannot be shown.
            guard TerminalShim.isTerminal(.standardInput), TerminalShim.isTerminal(.standardError),
                BackendFactory.mode(for: .standardError, environment: environment) == .terminal
            else {
                throw .usage(
                    "the Add Bookmark screen needs a terminal (stdin and stderr, TERM set and not dumb, CI unset, empty, 0 or false); in scripts use --get-title or --add"
                )
            }
        }
        let messages = try options.messagesFile.map { path throws(CommandError) in
            try MessagesFile.load(path: path).progressMessages
        }
        // Tracing goes to the --log file, or else to stderr as -v would (as run's).
        let tracing = EngineNote.tracingEnabled(environment)
        let log = try RunLog(verbose: options.verbose || (tracing && options.logFile == nil), path: options.logFile)
        defer { log.flush() }
        let presentation = options.presentation
        let (registry, presenter) = try RunCommand.loadRegistry(
            options.plugins, presenter: presentation.presenter, inProcess: options.inProcess,
            environment: environment, log: tracing ? log : nil)
        let store = BookmarkStore(path: BookmarkStore.path(store: options.store, environment: environment))
        let note: @Sendable (String) -> Void = {
            log.write(PresenterLogEntry(level: .info, presenterId: nil, message: $0))
        }
        switch options.mode {
        case .screen:
            log.hold()
            let screen = AddBookmarkScreen.Configuration(
                registry: registry, presenter: presenter, messages: messages, store: store, timeout: options.timeout,
                color: options.color.isEnabled(environment: environment),
                unicode: TerminalEnvironment.isUnicode(environment),
                isolation: CommandRuntime.isolation(options: presentation),
                pluginOptions: CommandRuntime.pluginOptions(presentation), environment: environment,
                log: log.isEnabled ? { log.write($0) } : nil, note: log.isEnabled ? note : nil)
            let form = BookmarkForm(url: options.url ?? "", title: options.title ?? "")
            do throws(AddBookmarkScreen.StartFailure) {
                return try AddBookmarkScreen(configuration: screen, form: form).run()
            } catch {
                switch error {
                case .attach(let failure): throw .failure("\(failure)")
                case .signalPipe(let failure): throw .startUpPipe("the signal pipe", failure)
                }
            }
        case .getTitle, .add:
            let (runtime, mode) = CommandRuntime.make(
                registry: registry, options: presentation, environment: environment, log: log)
            let script = BookmarkScript(
                runtime: runtime, terminal: mode == .terminal,
                view: AddBookmarkView(
                    form: BookmarkForm(), layout: .line, presenter: presenter.id,
                    messages: messages),
                presenter: presenter, timeout: options.timeout, environment: environment,
                note: log.isEnabled ? note : nil)
            return try script.run(
                url: options.url ?? "", title: options.mode == .add ? options.title : nil,
                save: options.mode == .add ? store : nil)
        }
    }
}
