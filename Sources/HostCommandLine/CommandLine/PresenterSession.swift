import Dispatch
import Glibc
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem
import HostText

/// The life of the presenter a command shows its work with (`run`,
/// `drive`, `add-bookmark` and its script modes), from the shared options
/// (``PresentationOptions``) to a terminal given back: the one owner of the
/// steps every such command takes, so that no command takes them in
/// another order or misses one (the commands keep only what is theirs: run
/// its command and its output, drive its clients, add-bookmark its fetch
/// and save).
///
/// Beginning (``init(_:on:environment:)``): what the session draws on is
/// decided (``Drawing``); for plain lines no presenter runs (the host
/// prints them itself), otherwise the presenter process starts ahead (it
/// is a second process, ready by the time the work needs it:
/// docs/BENCHMARKS.md); then the `--messages` file and the log are read,
/// the plugins found and the presenter resolved; any of them may refuse
/// before anything is shown. Showing (``show(on:grace:interrupted:passingOn:_:)``):
/// SIGPIPE made harmless, the runtime made, the crash rescue armed and the
/// signals trapped (``SignalTrap/trapped``), before the command leaves
/// anything behind that a signal's default action would leak (a child, a
/// socket file, a region on the screen); then the command's body, then the
/// runtime shut down and the trap let go. Ending (``end()``): the log's
/// last lines written.
final class PresenterSession: Sendable {
    /// How long the presenter's outcome (the success or failure message)
    /// may stay once it shows, in seconds: where a command waits for the
    /// presenter to be done after the work (`run --linger`, add-bookmark's
    /// `--get-title` and `--add`), it waits at most the minimum show time
    /// (`run`'s `--min-show`; add-bookmark's 1 s) + this, then
    /// ends whatever is drawn. Presenters get it as the `outcome-limit-ms`
    /// option. (`run` and `drive` do not wait: the outcome stays as a line.)
    static let outcomeLimit: Double = 5

    /// The process's environment, read once: what the commands pass down.
    let environment: [String: String]
    /// What the session draws on, decided once when it began.
    let drawing: Drawing
    /// The `--messages` file, read and checked, if given.
    let messages: MessagesFile?
    /// The presenter log (`-v`, `--log`, and tracing: `--trace`).
    let log: RunLog
    /// The chosen presenter, resolved once: every view of the command is
    /// attached with it.
    let presenter: PresenterChain
    /// The shared options the session began with: its runtime's colour,
    /// OSC 9;4, `--min-show` and presenter process.
    let presentation: PresentationOptions
    /// The plugins found, for the runtime (which loads what the presenter needs).
    let registry: PresenterRegistry
    /// How the presenter process runs (or in this process, `--in-process`),
    /// with the one started ahead; nil for plain lines: no presenter runs.
    let isolation: PresenterRuntime.Isolation?
    /// Where trapped signals are handled, one at a time.
    private let control = DispatchQueue(label: "presenter-host.session.control")
    private let settling = Settling()

    /// Begins a session with `presentation` on `target` and `environment`
    /// (the one the command line read, which the session passes on):
    /// decides what it draws on, starts the presenter process ahead unless
    /// that is plain lines (an error that follows ends it unused), reads
    /// the messages file, makes the log (tracing goes to the `--log` file,
    /// or else to stderr as `-v` would), finds the plugins and resolves the
    /// presenter.
    /// - Throws: the messages file's, the log file's, or the presenter's
    ///   error (unknown, or `--in-process` with `--sandbox require`).
    init(
        _ presentation: PresentationOptions, on target: Target, environment: [String: String]
    ) throws(CommandError) {
        self.presentation = presentation
        drawing = Drawing.decide(target, environment: environment)
        if drawing == .plainLines {
            isolation = nil
        } else if presentation.inProcess {
            isolation = .inProcess
        } else {
            var configuration = presentation.plugins.presenterProcess(
                hookTimeout: presentation.hookTimeout, environment: environment)
            configuration.launch = PresenterProcessLaunch(configuration)
            isolation = .presenterProcess(configuration)
        }
        self.environment = environment
        messages = try presentation.messagesFile.map { path throws(CommandError) in try MessagesFile.load(path: path) }
        let tracing = EngineNote.tracingEnabled(environment)
        log = try RunLog(
            verbose: presentation.verbose || (tracing && presentation.logFile == nil), path: presentation.logFile)
        (registry, presenter) = try Self.loadRegistry(
            presentation, loadingHere: presentation.inProcess && drawing != .plainLines, environment: environment,
            log: tracing ? log : nil)
    }

    /// Ends the session: what the log still holds is written out (the
    /// lines kept under a full screen, the `--log` file's queue).
    func end() {
        log.flush()
    }

    /// Loads the plugins and resolves the chosen presenter: the one lookup
    /// of its id, whose chain then goes on to the runtime and the engine.
    /// A warm start runs no plugin code here: the engine loads the files
    /// the chain needs when it attaches it (the presenter process, or, for
    /// `--in-process`, the runtime's engine in this process, after the
    /// events file is open). With a `log`, every
    /// discovery decision goes to it (tracing). `loadingHere`: the
    /// presenter will run in this process (`--in-process`, and not plain
    /// lines), so a file no scan helper could load may be loaded here.
    private static func loadRegistry(
        _ presentation: PresentationOptions, loadingHere: Bool, environment: [String: String], log: RunLog?
    ) throws(CommandError) -> (registry: PresenterRegistry, presenter: PresenterChain) {
        let plugins = presentation.plugins
        if presentation.inProcess && plugins.requiresSandbox {
            throw .usage(
                "--in-process runs presenters in presenter-host itself, outside the sandbox: it cannot be combined with --sandbox require"
            )
        }
        let registry = plugins.loadRegistry(
            environment: environment, verbose: presentation.verbose, trusting: loadingHere,
            needing: presentation.presenter)
        for line in log.map({ _ in DiscoveryTrace.lines(registry) }) ?? [] {
            log?.write(PresenterLogEntry(level: .debug, presenterId: nil, message: line))
        }
        let chain: PresenterChain
        do throws(UnknownPresenter) {
            chain = try registry.resolve(presentation.presenter)
        } catch {
            // A default the user set (DefaultPresenter) that is not here
            // never fails the command: one line says so, then mbhud.
            guard let source = presentation.presenterSource,
                let builtIn = try? registry.resolve(DefaultPresenter.builtIn)
            else { throw .usage(error.description) }
            PresenterHostCommand.writeStandardError(
                PrintableText.escaping(
                    "presenter-host: \(source) names a presenter that is not here: \(error.description); going on with \(DefaultPresenter.builtIn)"
                ) + "\n")
            chain = builtIn
        }
        return (registry, chain)
    }

    // MARK: - Showing

    /// How a session lays out what it draws on (``drawing``).
    enum Surface {
        /// stderr (``Target/standardError(static:)``): a region, or plain
        /// lines, as ``drawing`` says; `tail` rows below the presenter's in
        /// a region (`run --output tail`). A presenter that fails gives way
        /// to plain lines (``fallBack(after:from:unicode:log:)``).
        case lines(tail: Int = 0)
        /// The whole terminal (``Target/fullScreen``): the presenter draws
        /// in `presenterRows`; one that fails
        /// is taken off the view, `failed` says so, and the view goes on;
        /// `options` changes the options its presenters read (the screen's
        /// own minimum show time).
        case fullScreen(
            presenterRows: @Sendable (Int) -> Range<Int>, options: ([String: String]) -> [String: String],
            failed: (PresenterFailure) -> Void)
    }

    /// The session's runtime while it shows, for the body of
    /// ``show(on:grace:interrupted:passingOn:_:)``.
    struct Stage {
        let runtime: PresenterRuntime
        /// A terminal region (or the full screen), or plain lines.
        let mode: BackendFactory.Mode
        /// The signals' serial queue: what must not interleave with a
        /// signal's handling runs there (run's `--timeout`, which freezes
        /// and thaws the command's tree, between a passed-on Ctrl-Z and
        /// the host's own stop would restart a command the user stopped).
        let control: DispatchQueue
        fileprivate let settling: Settling
        fileprivate let trap: SignalTrap

        /// Handles every signal received so far before it returns (on the
        /// signals' queue): one that just came may not have been read yet.
        /// Not on the signals' queue.
        func handlePendingSignals() {
            trap.flush()
        }

        /// Waits until the presenter has shown its last message, an
        /// interrupting signal cuts the wait short, or `seconds` have
        /// passed; false when the presenter was still drawing then. The
        /// runtime's wait blocks on the runtime's own condition, so a
        /// helper waits there and wakes this thread, which a signal also
        /// wakes (no polling while the final message stands). The helper
        /// returns at the latest when the runtime shuts down. It holds the
        /// runtime weakly, and strongly only while it waits: a dispatch
        /// thread that still held it after the command returned would free
        /// it while the process exits.
        func settle(within seconds: Double) -> Bool {
            settling.begin()
            DispatchQueue.global().async { [settling, weak runtime] in
                settling.settled(runtime?.waitUntilSettled(timeout: seconds) ?? true)
            }
            return settling.wait()
        }

        /// For Ctrl-Z as a key (raw mode), from any thread: on the signals'
        /// queue, the terminal given back, the host stopped until
        /// continued, the view drawn again. (A SIGTSTP is the trap's,
        /// ``SignalTrap/stopForSuspend()``.)
        var suspendForKey: @Sendable () -> Void {
            { [control, runtime] in
                control.async {
                    runtime.suspend()
                    ProcessSignals.stopUntilContinued()
                    runtime.resume()
                }
            }
        }
    }

    /// Shows the session on `surface` while `body` runs, and returns what it
    /// returns. Before the body: SIGPIPE made harmless (a closed stdout or
    /// stderr must not kill the host before it has restored the terminal;
    /// a child gets SIGPIPE's default back), the runtime made, the crash
    /// rescue armed (``CrashRescue``) and the signals trapped: an
    /// interrupting one (SIGINT, SIGTERM, SIGHUP, SIGQUIT) goes to
    /// `interrupted` on the signals' queue; Ctrl-Z (SIGTSTP) takes the view
    /// off, stops the host as the shell expects and draws the view again
    /// once it is continued (`fg`, `bg`). `passingOn`: where a signal sent
    /// to the host alone (kill(1), not the terminal, which reached the
    /// whole foreground group) is passed on: SIGTSTP before the view goes,
    /// SIGCONT once it is back (`run`: the command's tree). `grace`: run's
    /// `--grace`. After the body, or its error: the runtime shut down
    /// (when the body has not shut it down itself) and the trap let go.
    /// - Throws: the body's error, or `.startUpPipe` when the signal pipe
    ///   cannot be made (nothing shown then).
    func show<Result>(
        on surface: Surface = .lines(), grace: Double = 0,
        interrupted: @escaping (SignalTrap.Event) -> Void, passingOn: ((Int32) -> Void)? = nil,
        _ body: (Stage) throws(CommandError) -> Result
    ) throws(CommandError) -> Result {
        ProcessSignals.ignoreBrokenPipe()
        let (runtime, mode) = makeRuntime(on: surface, grace: grace)
        if case .fullScreen = surface {
            CrashRescue.install(terminal: .standardError, fullScreen: true)
        } else {
            CrashRescue.install(
                terminal: mode == .terminal ? .standardError : nil,
                terminalProgress: TerminalProgress.isWanted(presentation.terminalProgress, environment: environment))
        }
        let trap: SignalTrap
        do throws(Errno) {
            trap = try SignalTrap(queue: control) { [settling] event in
                guard event.signal == SIGTSTP else {
                    settling.interrupt()
                    return interrupted(event)
                }
                let passOn = event.fromTerminal ? nil : passingOn
                // The command first: the presenter must not delay its stop.
                passOn?(SIGTSTP)
                runtime.suspend()
                // Unless a SIGCONT came meanwhile (`kill -TSTP` then `-CONT` at once).
                SignalTrap.stopForSuspend()
                runtime.resume()
                passOn?(SIGCONT)
            }
        } catch {
            runtime.shutdown()
            throw .startUpPipe("the signal pipe", error)
        }
        // The terminal given back before the signals are let go.
        defer {
            runtime.shutdown()
            trap.cancel()
        }
        return try body(Stage(runtime: runtime, mode: mode, control: control, settling: settling, trap: trap))
    }
}

/// What a stage's settle waits for: the runtime settled, or an interrupting
/// signal, whichever comes first: a wait on the state (``ConditionLock``),
/// so one that came before the wait is seen.
private final class Settling: Sendable {
    private struct State {
        var interrupted = false
        /// The runtime's answer, once the helper has it.
        var settled: Bool?
    }
    private let state = ConditionLock(State())

    func begin() { state.withLock { $0.settled = nil } }

    func interrupt() {
        state.withLock { $0.interrupted = true }
        state.broadcast()
    }

    func settled(_ inTime: Bool) {
        state.withLock { $0.settled = inTime }
        state.broadcast()
    }

    /// Blocks until settled or interrupted: true when it settled in time
    /// or a signal cut the wait short.
    func wait() -> Bool {
        state.withLock(waitingUntil: { $0.interrupted || $0.settled != nil }) { state, _ in
            state.interrupted || state.settled == true
        }
    }
}
