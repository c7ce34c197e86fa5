import Dispatch
import FoundationEssentials
import Glibc

/// `presenter-host add-bookmark`: the Add Bookmark screen, or, with
/// `--get-title` / `--add`, its two actions for scripts, with no screen:
/// progress goes through the presenter on stderr as in `run` (plain lines
/// off a terminal), the title on stdout.
public enum AddBookmarkCommand {
    /// Runs `add-bookmark` with the arguments that follow it and the
    /// `--plugin-dir` values given before it; returns the exit status.
    public static func execute(_ arguments: [String], pluginDirs: [String]) -> Int32 {
        let options: AddBookmarkOptions
        do {
            switch try AddBookmarkOptions.parse(arguments) {
            case .help:
                return PresenterHostCommand.printing(AddBookmarkOptions.usage + "\n")
            case .run(let parsed):
                options = parsed
            }
        } catch {
            return report(error, withUsage: true)
        }
        do {
            return try run(options, pluginDirs: pluginDirs)
        } catch {
            return report(error, withUsage: false)
        }
    }

    private static func run(_ options: AddBookmarkOptions, pluginDirs: [String]) throws(CommandError) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        if options.mode == .screen {
            // Checked first: nothing is loaded for a screen that cannot be shown.
            guard TerminalShim.isTerminal(.standardInput), TerminalShim.isTerminal(.standardError),
                BackendFactory.mode(for: .standardError, environment: environment) == .terminal
            else {
                throw .usage(
                    "the Add Bookmark screen needs a terminal (stdin and stderr, TERM set and not dumb, CI unset); in scripts use --get-title or --add"
                )
            }
        }
        let messages = try options.messagesFile.map { path throws(CommandError) in
            try MessagesFile.load(path: path).progressMessages
        }
        let log = try RunLog(verbose: options.verbose, path: options.logFile)
        defer { log.flush() }
        let presenter = options.presenter ?? "addbookmark"
        let registry = try RunCommand.loadRegistry(
            pluginDirs: pluginDirs + options.pluginDirs, presenter: presenter,
            inProcess: options.inProcess, environment: environment)
        let store = BookmarkStore(path: BookmarkStore.path(store: options.store, environment: environment))
        let unicode = TerminalEnvironment.isUnicode(environment)
        let isolation: PresenterRuntime.Isolation =
            options.inProcess
            ? .inProcess : .presenterProcess(PresenterProcess.Configuration(hookTimeout: options.hookTimeout))
        let pluginOptions = [
            "failure-hold-ms": "3000",
            "outcome-limit-ms": CommandRuntime.milliseconds(CommandRuntime.outcomeLimit),
            "min-show-ms": "500",
        ]
        let note: @Sendable (String) -> Void = {
            log.write(PresenterLogEntry(level: .info, presenterId: nil, message: $0))
        }
        switch options.mode {
        case .screen:
            log.hold()
            let configuration = AddBookmarkScreen.Configuration(
                registry: registry, presenter: presenter, messages: messages, store: store, timeout: options.timeout,
                color: options.color.isEnabled(environment: environment), unicode: unicode, isolation: isolation,
                pluginOptions: pluginOptions, environment: environment,
                log: log.isEnabled ? { log.write($0) } : nil, note: log.isEnabled ? note : nil)
            let form = BookmarkForm(url: options.url ?? "", title: options.title ?? "")
            do throws(AddBookmarkScreen.StartFailure) {
                return try AddBookmarkScreen(configuration: configuration, form: form).run()
            } catch {
                switch error {
                case .attach(let failure): throw .failure("\(failure)")
                case .signalPipe(let failure): throw .startUpPipe("the signal pipe", failure)
                }
            }
        case .getTitle, .add:
            let backend = BackendFactory.make(for: .standardError, environment: environment, colorMode: options.color)
            let runtime = PresenterRuntime(
                registry: registry, backend: backend, options: pluginOptions, isolation: isolation,
                log: log.isEnabled ? { log.write($0) } : nil,
                onPresenterFailure: { failure, current in
                    CommandRuntime.fallBack(after: failure, from: current, unicode: unicode, log: log)
                })
            if !(backend is PlainBackend) { log.show(above: runtime) }
            let script = BookmarkScript(
                runtime: runtime, terminal: !(backend is PlainBackend),
                view: AddBookmarkView(
                    form: BookmarkForm(), layout: .line, presenter: presenter,
                    messages: messages),
                timeout: options.timeout, environment: environment, note: log.isEnabled ? note : nil)
            return try script.run(
                url: options.url ?? "", title: options.mode == .add ? options.title : nil,
                save: options.mode == .add ? store : nil)
        }
    }

    /// Prints `error` as `Error: ...` on stderr (with the usage lines for a
    /// bad flag) and returns its exit status.
    static func report(_ error: CommandError, withUsage: Bool) -> Int32 {
        PresenterHostCommand.report(
            error,
            usage: withUsage
                ? "Usage: presenter-host add-bookmark [<options>]\nSee 'presenter-host add-bookmark --help'.\n" : "")
    }
}
