import Foundation

/// One `run`: the command as a child process, its action on the presenter,
/// its output, its timeout and the signals that interrupt it, from start to
/// a clean screen.
///
/// Output (`CMD`'s stdout and stderr):
/// - plain mode (stderr is not a terminal, `TERM=dumb`, `CI`): both pass
///   straight through; the presenter prints plain lines only.
/// - terminal mode: stderr, and stdout when it is the terminal too, go into
///   one pipe (their order kept). With `--show-output` each whole line is
///   printed above the presenter's region; without it the output is kept and
///   written after the region is gone if `CMD` fails (it is dropped when
///   `CMD` succeeds, as `gum spin` does). A stdout that is not a terminal
///   (a pipe, a file) cannot tear a region drawn on stderr, so it is passed
///   straight through.
///
/// Signals: SIGINT, SIGTERM, SIGHUP and SIGQUIT are caught (see
/// ``SignalTrap``); SIGTSTP (Ctrl-Z) takes the region off the screen before
/// the host stops, and it is drawn again when the host is continued. One
/// that the terminal sent has already reached `CMD` and what it started,
/// which run in our foreground process group; one sent to the host alone
/// (kill(1)) is forwarded once to `CMD` and its descendants (see
/// ``ProcessTree``), as the terminal would have delivered it. A second
/// interrupting signal kills them (SIGKILL). The host then clears its
/// region, restores the cursor and exits with 128 + the first signal's
/// number. Once `CMD` has ended, its status is the exit status: a signal
/// then only cuts the last message short.
///
/// `--timeout`: SIGTERM to `CMD`'s tree (stopped while it is read, so
/// nothing forks unseen), SIGKILL `killGrace` later to what is left of it,
/// including processes that outlived `CMD`; exit 124.
///
/// The presenter runs in a presenter process (``PresenterProcess``; in the
/// host with `--in-process`), which starts while `CMD` does. When it fails
/// (crash, exit, a hook past `--hook-timeout`, a broken protocol, a failed
/// create), the region is taken off, one line says why, and plain lines
/// take over (``fallBack(after:from:unicode:log:)``); `CMD` is not touched.
/// If the host itself crashes, ``CrashRescue`` restores the terminal and
/// hangs up `CMD`.
// Safe: every `var` below is read and written under `condition`; the rest is immutable.
final class RunSession: @unchecked Sendable {
    /// How long `CMD` gets between SIGTERM and SIGKILL after `--timeout`.
    static let killGrace: TimeInterval = 2
    /// How long the presenter's outcome (the success or failure message)
    /// may stay once it shows, in seconds: after the command ends, `run`
    /// waits at most `--min-show` + this for the presenter to be done, then
    /// ends whatever is drawn. Presenters get it as the `outcome-limit-ms` option.
    static let outcomeLimit: Double = 5
    /// The interactor type presenters are told about.
    static let interactorType = "CommandInteractor"

    // Internal, not private: its extensions (RunSignals, RunTimeout,
    // RunErrors) share it. Nothing outside `run`'s files touches it.
    let options: RunOptions
    let view: RunView
    let environment: [String: String]
    let control = DispatchQueue(label: "presenter-host.run.control")
    /// Guards the state below; signalled when `settled` or `cutShort` is set.
    let condition = NSCondition()
    var child: ChildProcess?
    /// The first interrupting signal that came before `CMD` ended.
    var interruption: Int32?
    /// `CMD` was reaped: its status is the exit status from now on.
    var ended = false
    /// An interrupting signal came after `CMD` ended: the last message is cut short.
    var cutShort = false
    /// The presenter showed its last message (or gave up waiting).
    var settled = false
    /// The presenter was done before the outcome bound.
    var settledInTime = false
    var timedOut = false
    /// What the timeout's SIGTERM reached, and when.
    var terminated = ProcessTree.empty
    var terminatedAt = DispatchTime.now()

    init(options: RunOptions, view: RunView, environment: [String: String]) {
        self.options = options
        self.view = view
        self.environment = environment
    }

    /// Runs the command under the presenter; returns the exit status.
    /// `log` gets the presenter log (`--verbose`, `--log`).
    /// The presenter process loads its files under `policy`.
    func run(registry: PresenterRegistry, policy: PluginPolicy, log: RunLog, events: RunEvents) throws(CommandError)
        -> Int32
    {
        // A command that cannot start (missing, not executable, a #! line
        // naming a missing interpreter) is reported before anything is shown.
        let workingMessage =
            view.progressMessages[options.action]?[.working]
            ?? view.progressMessages[ScreenletView.defaultAction]?[.working]
        /// The events of a command that could not start, and its error.
        func cannotStart(_ error: ChildProcess.SpawnError, startEvent: Bool) -> CommandError {
            let failure = Self.commandError(error)
            if startEvent { events.started(action: options.action, message: workingMessage, command: options.command) }
            events.ended(success: false, status: failure.exitCode.rawValue, reason: failure.message, duration: 0)
            return failure
        }
        let executable: String
        do {
            executable = try ChildProcess.resolve(options.command[0], path: environment["PATH"])
        } catch {
            throw cannotStart(error, startEvent: true)
        }
        let (runtime, mode) = Self.makeRuntime(
            registry: registry, options: options, environment: environment, log: log,
            policy: policy)
        defer { log.flush() }

        // A closed stdout or stderr must not kill the host before it has
        // restored the terminal; the child gets SIGPIPE's default back.
        signal(SIGPIPE, SIG_IGN)
        CrashRescue.install(
            terminal: mode == .terminal ? .standardError : nil,
            terminalProgress: TerminalProgress.isWanted(options.terminalProgress, environment: environment))
        let trap: SignalTrap
        do throws(Errno) {
            trap = try SignalTrap(signals: [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP], queue: control) {
                [self] event in
                if event.signal == SIGTSTP { suspend(runtime, for: event) } else { interrupted(by: event) }
            }
        } catch {
            runtime.shutdown()
            throw .startUpPipe("the signal pipe", error)
        }
        defer { trap.cancel() }

        // Plain mode: the working line is out before the command can print.
        // Terminal mode: the command starts first, then the presenter (its
        // process starts meanwhile), which appears once the command has
        // started (its output waits in the pipe meanwhile), so a command
        // that cannot start never flashes a box before its error.
        let attach = { () throws(CommandError) -> Screenlet in
            let screenlet = try runtime.attachForCommand(self.view)
            self.view.attached(to: screenlet)
            return screenlet
        }
        let perform = { (screenlet: Screenlet) in
            screenlet.perform(action: self.options.action, interactorType: Self.interactorType)
        }
        var early: InteractorHandle?
        if mode == .plain {
            let handle = perform(try attach())
            // Only the line: a hook that is slow to answer must not hold the command back.
            handle.waitUntilAnnounced()
            early = handle
        }
        // The output is read in a terminal, and whenever it must not reach
        // the caller as it is (--output hide; --events - takes stdout).
        let capture = mode == .terminal || options.output == .hide || events.usesStandardOutput
        // The command's own progress reports (its progress channel, and
        // OSC 9;4 in its output) reach the interactor through the relay.
        let relay = ProgressRelay(observer: { events.reported($0) })
        if let early { relay.attach(early) }
        let presenterId = options.presenter
        let channel: ProgressChannel
        do throws(Errno) {
            channel = try ProgressChannel(relay: relay) { reason in
                log.write(PresenterLogEntry(level: .warning, presenterId: presenterId, message: reason))
            }
        } catch {
            runtime.shutdown()
            throw .startUpPipe("the progress channel's pipe", error)
        }
        // Before the command can report anything.
        let startedAt = DispatchTime.now()
        events.started(action: options.action, message: workingMessage, command: options.command)
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                executable, options.command,
                captureStdout: (capture && TerminalShim.isTerminal(.standardOutput)) || events.usesStandardOutput,
                captureStderr: capture,
                passing: [channel.childFD: channel.writeFD],
                environment: Spawn.environment(
                    setting: ProgressChannel.environmentVariable, to: String(channel.childFD.rawValue)))
            channel.commandStarted()
        } catch {
            channel.finish()
            // Plain mode: the working line is followed by the error line alone
            // (shutdown ends the interactor with no message).
            runtime.shutdown()
            throw cannotStart(error, startEvent: false)
        }
        CrashRescue.setCommand(child.pid)
        condition.withLock {
            self.child = child
            // A signal that came before the child existed is forwarded now.
            if let signal = interruption { child.sendToTree(signal, freeze: false) }
        }
        // The command's output flows, and its timeout runs, from its start,
        // whatever the presenter takes to start.
        // Read in plain mode only to be hidden or moved off stdout: shown as it comes.
        let output = RunOutputSink(
            mode: mode == .terminal || options.output == .hide ? options.output : .stream,
            runtime: runtime, relay: relay, log: log, tail: { [view] in view.appendTail($0) })
        let pump = child.outputFD.map { fd in OutputPump(fd: fd) { output.receive($0) } }
        let timer = options.timeout.map { startTimer(seconds: $0, child: child) }
        let handle: InteractorHandle
        if let early {
            handle = early
        } else {
            do throws(CommandError) {
                handle = perform(try attach())
                relay.attach(handle)
            } catch {
                // Never leave the command running on its own.
                child.sendToTree(SIGKILL, freeze: true)
                _ = child.wait()
                throw error
            }
        }

        let termination = child.wait()
        CrashRescue.setCommand(0)
        // A presenter still starting must not hold the end of the run.
        runtime.hurryPresenters()
        // A Ctrl-C that ended the command reached the host as it reached the
        // command: handle it as one that came while the command ran.
        trap.flush()
        condition.withLock { ended = true }
        timer?.cancel()
        pump?.finish()
        channel.finish()
        output.flush()

        let (interruptedBy, didTimeOut) = condition.withLock { (interruption, timedOut) }
        if didTimeOut { endSurvivors() }
        let status: Int32
        if let signal = interruptedBy {
            handle.fail(
                InteractorError(
                    code: Int64(128 + signal), domain: "signal",
                    message: "interrupted by \(SignalName.of(signal))"))
            status = 128 + signal
        } else if didTimeOut {
            handle.fail(
                InteractorError(
                    code: Int64(ExitCode.timedOut.rawValue), domain: "timeout",
                    message: "timed out after \(Self.seconds(options.timeout ?? 0))"))
            status = ExitCode.timedOut.rawValue
        } else if termination == .exited(0) {
            handle.succeed()
            status = 0
        } else {
            handle.fail(
                InteractorError(
                    code: Int64(termination.shellStatus), domain: "process",
                    message: Self.describe(termination)))
            status = termination.shellStatus
        }
        let reason =
            status == 0
            ? nil
            : interruptedBy.map { "interrupted by \(SignalName.of($0))" }
                ?? (didTimeOut ? "timed out after \(Self.seconds(options.timeout ?? 0))" : Self.describe(termination))
        let messages =
            view.progressMessages[options.action] ?? view.progressMessages[ScreenletView.defaultAction] ?? [:]
        events.ended(
            success: status == 0, status: status, reason: reason,
            duration: Double(DispatchTime.now().uptimeNanoseconds - startedAt.uptimeNanoseconds) / 1e9,
            message: messages[status == 0 ? .success : .failure])
        // Let the check mark or the failure message be seen, unless the
        // user asked to stop, for at most the outcome bound. Plain lines
        // are printed at once: no waiting.
        if interruptedBy == nil && mode == .terminal {
            let bound = options.minShow + Self.outcomeLimit
            if !settle(runtime, within: bound) {
                log.write(
                    PresenterLogEntry(
                        level: .warning, presenterId: options.presenter,
                        message: "still drawing \(Self.seconds(bound)) after the command ended; ending the run"))
            }
        }
        runtime.shutdown()

        if status != 0 {
            output.replay(to: .standardError)
            if didTimeOut && mode == .terminal {
                PresenterHostCommand.writeStandardError(
                    "presenter-host: timed out after \(Self.seconds(options.timeout ?? 0)): \(options.commandLine)\n")
            }
        }
        // Once the command has ended its status stands: a signal then only
        // cut the last message short.
        return status
    }

    /// The runtime of a `run` (or a `drive`, which shares its presenter
    /// options) on stderr: a terminal region or plain lines, the presenter
    /// in its process (or in this one with `--in-process`), plain lines
    /// when it fails, the log above the region. Returns the mode too.
    static func makeRuntime(
        registry: PresenterRegistry, options: RunOptions, environment: [String: String],
        log: RunLog, policy: PluginPolicy = .strict
    ) -> (PresenterRuntime, BackendFactory.Mode) {
        let unicode = TerminalEnvironment.isUnicode(environment)
        // Static (--static, ACCESSIBLE=1): plain lines even in a terminal.
        let accessible = options.staticMode || TerminalEnvironment.wantsStatic(environment)
        let mode = accessible ? .plain : BackendFactory.mode(for: .standardError, environment: environment)
        // --output tail: the command's last lines below the presenter's rows.
        let tailRows = mode == .terminal && options.output == .tail ? options.tailLines : 0
        let backend: RenderBackend =
            accessible
            ? PlainBackend(fd: .standardError, unicode: unicode)
            : BackendFactory.make(
                for: .standardError, environment: environment, colorMode: options.color,
                regionRows: 5 + tailRows, interactive: false,
                terminalProgress: TerminalProgress.isWanted(options.terminalProgress, environment: environment))
        var configuration = PresenterProcess.Configuration(hookTimeout: options.hookTimeout)
        configuration.policy = policy
        let isolation: PresenterRuntime.Isolation = options.inProcess ? .inProcess : .presenterProcess(configuration)
        let runtime = PresenterRuntime(
            registry: registry, backend: backend, options: pluginOptions(options), reservedRows: tailRows,
            isolation: isolation,
            log: log.isEnabled ? { log.write($0) } : nil,
            onPresenterFailure: { failure, current in
                Self.fallBack(after: failure, from: current, unicode: unicode, log: log)
            })
        if mode == .terminal { log.show(above: runtime) }
        return (runtime, mode)
    }

    /// The options presenters read through `option()` (see docs/ABI.md).
    private static func pluginOptions(_ options: RunOptions) -> [String: String] {
        [
            "failure-hold-ms": "3000",
            "outcome-limit-ms": Self.milliseconds(Self.outcomeLimit),
            "min-show-ms": Self.milliseconds(options.minShow),
            "grace-ms": Self.milliseconds(options.grace),
        ]
    }

    /// `seconds` as whole milliseconds, within 0...``RunOptions/longestHold``
    /// whatever the caller set (the library's options are not parsed).
    static func milliseconds(_ seconds: Double) -> String {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), RunOptions.longestHold)
        return String(Int((bounded * 1000).rounded()))
    }

    /// Waits until the presenter has shown its last message, a signal cuts
    /// it short, or `seconds` have passed; false when the presenter was
    /// still drawing then. The runtime's wait blocks on the runtime's own
    /// condition, so a helper waits there and signals ours, which a signal
    /// also signals: this thread sleeps until either happens (no polling
    /// while the final message stands). The helper returns at the latest
    /// when the runtime shuts down. It holds the runtime weakly, and
    /// strongly only while it waits: a dispatch thread that still held it
    /// after `run` returned would free it while the process exits.
    private func settle(_ runtime: PresenterRuntime, within seconds: Double) -> Bool {
        DispatchQueue.global().async { [self, weak runtime] in
            let done = runtime?.waitUntilSettled(timeout: seconds) ?? true
            condition.withLock {
                settledInTime = done
                settled = true
                condition.broadcast()
            }
        }
        return condition.withLock {
            while !settled && !cutShort { condition.wait() }
            return settledInTime || cutShort
        }
    }

    /// A presenter failed for good: the terminal region is taken off (the
    /// cursor and echo restored), one line says what happened, and plain
    /// lines take over. The command is not touched.
    static func fallBack(
        after failure: PresenterFailure, from current: RenderBackend, unicode: Bool,
        log: RunLog
    ) -> RenderBackend {
        current.finish()
        let plain = current as? PlainBackend
        let line =
            "presenter-host: \(failure); "
            + (plain == nil ? "going on with plain progress lines" : "going on without it")
        PresenterHostCommand.writeStandardError(line + "\n")
        log.record(line)
        return plain ?? PlainBackend(fd: .standardError, unicode: unicode)
    }

}
