import Dispatch
import Glibc
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem

/// One `run`: the command as a child process, its action on the presenter,
/// its output, its timeout and the signals that interrupt it, from start to
/// a clean screen.
///
/// Output (`CMD`'s stdout and stderr):
/// - plain mode (stderr is not a terminal, `TERM=dumb`, `CI`, `--static`,
///   `ACCESSIBLE=1`): both pass straight through; the host prints plain
///   lines only, and no presenter runs.
/// - terminal mode: stderr, and stdout when it is the terminal too, go into
///   one pipe (their order kept). With `--show-output` each whole line is
///   printed above the presenter's region; without it the output is kept and
///   written after the region is gone if `CMD` fails (it is dropped when
///   `CMD` succeeds, as `gum spin` does). A stdout that is not a terminal
///   (a pipe, a file) cannot tear a region drawn on stderr, so it is passed
///   straight through.
/// - `--pty`: what would go into the pipe goes into a pseudo-terminal
///   (``OutputTerminal``), read the same way; what passes straight through
///   (a stdout that is not a terminal, plain mode's output) still does.
///
/// Signals: SIGINT, SIGTERM, SIGHUP and SIGQUIT are caught
/// (``SignalTrap/trapped``); SIGTSTP (Ctrl-Z) takes the region off the
/// screen before the host stops, and it is drawn again when the host is
/// continued. One that the terminal sent has already reached `CMD` and
/// what it started, which run in our foreground process group; one sent
/// to the host alone (kill(1)) is forwarded once to `CMD` and its
/// descendants (see ``ProcessTree``), as the terminal would have delivered
/// it. A second interrupting signal kills them (SIGKILL). Whatever ends
/// `CMD`, the host clears its region, restores the cursor and ends as
/// `CMD` did (``ending(of:interruptedBy:timedOut:)``): with its exit
/// status, or dying of the signal that killed it, so that a shell sees
/// what it would without the host. Once `CMD` has ended, a signal only
/// cuts `--linger`'s wait short.
///
/// The end: `run` returns when `CMD` ends. The presenter is told the outcome
/// and, when it has a message or `CMD` failed, draws its final look, which
/// stays on the screen (``PresenterRuntime/shutdown(keepingOutcome:)``);
/// `--linger` first waits for the presenter to have shown it for its time.
///
/// `--timeout`: SIGTERM to `CMD`'s tree (stopped while it is read, so
/// nothing forks unseen), SIGKILL `killGrace` later to what is left of it,
/// including processes that outlived `CMD`; exit 124.
///
/// In a terminal the presenter runs in a presenter process
/// (``PresenterProcess``; in the host with `--in-process`), which starts
/// while `CMD` does and never holds its start. When it fails
/// (crash, exit, a hook past `--hook-timeout`, a broken protocol, a failed
/// create, a file that no longer loads), the region is taken off, one line says why, and plain lines
/// take over (``PresenterSession/fallBack(after:from:unicode:log:)``); `CMD` is not touched.
/// If the host itself crashes, ``CrashRescue`` restores the terminal and
/// hangs up `CMD`.
final class RunSession: Sendable {
    /// How long `CMD` gets between SIGTERM and SIGKILL after `--timeout`.
    static let killGrace: Double = 2
    /// The interactor type presenters are told about.
    static let interactorType = "CommandInteractor"

    // Internal, not private: its extensions (RunSignals, RunTimeout,
    // RunErrors) share it. Nothing outside `run`'s files touches it.
    let options: RunOptions
    let session: PresenterSession
    let view: RunView
    /// What the signals' queue, the timeout and the run share.
    let state = LockedValue(State())

    struct State {
        var child: ChildProcess?
        /// The first interrupting signal that came before `CMD` ended.
        var interruption: Int32?
        /// `CMD` was reaped: its status is the exit status from now on.
        var ended = false
        var timedOut = false
        /// What the timeout's SIGTERM reached, and when (on ``MonotonicTime``, in seconds).
        var terminated = ProcessTree.empty
        var terminatedAt = 0.0
    }

    init(options: RunOptions, session: PresenterSession) {
        self.options = options
        self.session = session
        view = RunView(options: options, file: session.messages)
    }

    /// Runs the command under the presenter; returns how the host ends
    /// (``ending(of:interruptedBy:timedOut:)``: the command's exit status,
    /// or the signal that killed it).
    ///
    /// The composition of the run's parts, each in its own step below: the
    /// command found, the session shown (``PresenterSession/show(on:grace:interrupted:passingOn:_:)``:
    /// the runtime made, the signals trapped), the command and its
    /// presenter started (``start(_:on:events:working:)``), the command's
    /// end awaited (``awaitEnd(of:on:)``), its outcome presented
    /// (``presentOutcome(_:of:interruptedBy:on:events:)``), the runtime
    /// shut down, then the output of a failed command replayed. The side
    /// effects keep the order the soak hardened them in.
    func run(events: RunEvents) throws(CommandError) -> ProcessEnd.Status {
        // A command that cannot start (missing, not executable, a #! line
        // naming a missing interpreter) is reported before anything is shown.
        let workingMessage =
            view.progressMessages[options.action]?[.working]
            ?? view.progressMessages[ScreenletView.defaultAction]?[.working]
        let executable: String
        do {
            executable = try ChildProcess.resolve(options.command[0], path: session.environment["PATH"])
        } catch {
            throw cannotStart(error, startEvent: true, working: workingMessage, events: events)
        }
        return try session.show(
            on: .lines(tail: view.tailRows),
            grace: options.grace, interrupted: { [self] in interrupted(by: $0) }, passingOn: { [self] in passOn($0) }
        ) { stage throws(CommandError) in
            try run(executable, on: stage, events: events, working: workingMessage)
        }
    }

    /// ``run(events:)`` once the session shows.
    private func run(
        _ executable: String, on stage: PresenterSession.Stage, events: RunEvents, working workingMessage: String?
    ) throws(CommandError) -> ProcessEnd.Status {
        let runtime = stage.runtime
        if stage.mode == .terminal { events.show(above: runtime) }
        let started = try start(executable, on: stage, events: events, working: workingMessage)
        let termination = awaitEnd(of: started, on: stage)

        let (interruptedBy, didTimeOut) = state.withLock { ($0.interruption, $0.timedOut) }
        if didTimeOut { endSurvivors() }
        let outcome = Self.outcome(
            of: termination, interruptedBy: interruptedBy, timedOutAfter: didTimeOut ? options.timeout ?? 0 : nil)
        presentOutcome(outcome, of: started, interruptedBy: interruptedBy, on: stage, events: events)
        // The outcome stays unless a signal ended the command: the user
        // asked to stop, and the region goes as it came. What the command
        // left of a streamed line comes after it, the cursor as it left it.
        runtime.shutdown(keepingOutcome: interruptedBy == nil)
        events.finish()
        started.output.finishStream(to: .standardError)

        // A timeout is said by the failure's line, which stays in a
        // terminal as it is printed in plain mode: nothing after it.
        if outcome.status != 0 { started.output.replay(to: .standardError) }
        // Once the command has ended its status stands: a signal then only
        // cut --linger's wait short.
        return Self.ending(of: termination, interruptedBy: interruptedBy, timedOut: didTimeOut)
    }

    /// A started run: the command, what reads and times it, and its action
    /// on the presenter, from ``start(_:on:events:working:)`` to the end of
    /// ``run(events:)``.
    private struct Started {
        let child: ChildProcess
        let channel: ProgressChannel
        let output: RunOutputSink
        let pump: OutputPump?
        /// `--pty`'s terminal following the caller's size.
        let resizes: OutputTerminal?
        let timer: DispatchSourceTimer?
        let handle: InteractorHandle
        /// When the command was about to start, on ``MonotonicTime``, in seconds.
        let startedAt: Double
    }

    /// The events of a command that could not start, and its error.
    private func cannotStart(
        _ error: ChildProcess.SpawnError, startEvent: Bool, working workingMessage: String?, events: RunEvents
    ) -> CommandError {
        let failure = Self.commandError(error)
        if startEvent { events.started(action: options.action, message: workingMessage, command: options.command) }
        events.ended(success: false, status: failure.exitCode.rawValue, reason: failure.message, duration: 0)
        return failure
    }

    /// Starts the command and its action on the presenter, in the order
    /// each mode needs. Plain mode: the working line is out before the
    /// command can print. Terminal mode: the command starts first, then the
    /// presenter (its process starts meanwhile), which appears once the
    /// command has started (its output waits in the pipe meanwhile), so a
    /// command that cannot start never flashes a box before its error.
    /// Whatever fails, the runtime is shut down and no command is left running.
    private func start(
        _ executable: String, on stage: PresenterSession.Stage, events: RunEvents, working workingMessage: String?
    ) throws(CommandError) -> Started {
        let (runtime, mode) = (stage.runtime, stage.mode)
        var early: InteractorHandle?
        if mode == .plain {
            let handle = try present(on: runtime)
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
        let channel = try openProgressChannel(relay: relay)
        // Before the command can report anything.
        let startedAt = MonotonicTime.seconds()
        events.started(action: options.action, message: workingMessage, command: options.command)
        let child = try spawn(
            executable, capture: capture, channel: channel, runtime: runtime, events: events,
            working: workingMessage)
        CrashRescue.setCommand(child.pid)
        state.withLock { state in
            state.child = child
            // A signal that came before the child existed is forwarded now
            // (frozen, as ``RunSignals`` forwards: nothing forks unseen).
            if let signal = state.interruption { child.sendToTree(signal, freeze: true) }
        }
        // The command's output flows, and its timeout runs, from its start,
        // whatever the presenter takes to start.
        // Read in plain mode only to be hidden or moved off stdout: shown as it comes.
        let output = RunOutputSink(
            mode: mode == .terminal || options.output == .hide ? options.output : .stream,
            terminal: mode == .terminal, followsOutput: options.workingFromOutput, runtime: runtime, relay: relay,
            log: session.log, show: { [view] in view.show($0, live: $1) })
        // Weak: the relay reaches the view through its interactor.
        view.followOutput { [weak relay] in relay?.deliver(ProgressReport(message: $0)) }
        let resizes = options.pty ? Self.followResizes(of: child) : nil
        let pump = child.outputFD.map { fd in OutputPump(fd: fd) { output.receive($0) } }
        let timer = options.timeout.map { startTimer(seconds: $0, child: child, on: stage.control) }
        let handle: InteractorHandle
        if let early {
            handle = early
        } else {
            handle = try presentLate(on: runtime, child: child, relay: relay)
        }
        return Started(
            child: child, channel: channel, output: output, pump: pump, resizes: resizes, timer: timer,
            handle: handle, startedAt: startedAt)
    }

    /// `--pty`: the command's terminal takes the caller's size after each
    /// resize, and the command a SIGWINCH then (``OutputTerminal`` says why).
    private static func followResizes(of child: ChildProcess) -> OutputTerminal? {
        guard let leader = child.outputFD, let terminal = OutputTerminal.callersTerminal else { return nil }
        return OutputTerminal.follow(terminal, onto: leader) { child.sendToTree(SIGWINCH, freeze: false) }
    }

    /// Attaches the run's view with its presenter and starts its action on it.
    /// When the view cannot be attached, the runtime is shut down.
    private func present(on runtime: PresenterRuntime) throws(CommandError) -> InteractorHandle {
        let screenlet = try runtime.attachForCommand(view, presenter: session.presenter)
        view.attached(to: screenlet)
        return screenlet.perform(action: options.action, interactorType: Self.interactorType)
    }

    /// Terminal mode's presenter, shown once the command has started.
    private func presentLate(
        on runtime: PresenterRuntime, child: ChildProcess, relay: ProgressRelay
    ) throws(CommandError) -> InteractorHandle {
        do throws(CommandError) {
            let handle = try present(on: runtime)
            relay.attach(handle)
            return handle
        } catch {
            // Never leave the command running on its own.
            child.sendToTree(SIGKILL, freeze: true)
            _ = child.wait()
            throw error
        }
    }

    /// The command's progress channel; what it cannot read is logged as a
    /// warning.
    private func openProgressChannel(relay: ProgressRelay) throws(CommandError) -> ProgressChannel {
        let (presenterId, log) = (session.presenter.id, session.log)
        do throws(Errno) {
            return try ProgressChannel(relay: relay) { reason in
                log.write(PresenterLogEntry(level: .warning, presenterId: presenterId, message: reason))
            }
        } catch {
            throw .startUpPipe("the progress channel's pipe", error)
        }
    }

    /// Spawns the command with the progress channel's end passed on, its
    /// output captured as `capture` says. When it cannot start, the channel
    /// is finished, the runtime shut down and the events told.
    private func spawn(
        _ executable: String, capture: Bool, channel: ProgressChannel, runtime: PresenterRuntime,
        events: RunEvents, working workingMessage: String?
    ) throws(CommandError) -> ChildProcess {
        // The user's environment as it is, with the channel's number and,
        // under --trace, the session's PRESENTER_HOST_DEBUG.
        var setting = [ProgressChannel.environmentVariable: String(channel.childFD.rawValue)]
        setting[EngineNote.debugVariable] = session.environment[EngineNote.debugVariable]
        do {
            let child = try ChildProcess.spawn(
                executable, options.command,
                captureStdout: (capture && TerminalShim.isTerminal(.standardOutput)) || events.usesStandardOutput,
                captureStderr: capture, pseudoTerminal: options.pty,
                passing: [channel.childFD: channel.writeFD],
                environment: ProcessEnvironment.entries(setting: setting))
            channel.commandStarted()
            return child
        } catch {
            channel.finish()
            // Plain mode: the working line is followed by the error line alone
            // (shutdown ends the interactor with no message).
            runtime.shutdown()
            throw cannotStart(error, startEvent: false, working: workingMessage, events: events)
        }
    }

    /// Waits for the command to end, then lets go of what watched it: the
    /// crash rescue's pid, a presenter still starting, the signals that
    /// came meanwhile, the timer, and the output and progress it left.
    private func awaitEnd(of started: Started, on stage: PresenterSession.Stage) -> ChildProcess.Termination {
        let termination = started.child.wait()
        CrashRescue.setCommand(0)
        // A presenter still starting must not hold the end of the run.
        stage.runtime.hurryPresenters()
        // A Ctrl-C that ended the command reached the host as it reached the
        // command: handle it as one that came while the command ran.
        stage.handlePendingSignals()
        state.withLock { $0.ended = true }
        started.timer?.cancel()
        started.resizes?.stop()
        started.pump?.finish()
        started.channel.finish()
        started.output.flush()
        return termination
    }

    /// The outcome on the presenter (success, or failure with its message)
    /// and in the events. Nothing waits for it: the shutdown that follows
    /// at once leaves it on the screen as the presenter's final look
    /// (``PresenterRuntime/shutdown(keepingOutcome:)``), so the prompt is
    /// back with the command's end. With `--linger`, in a terminal, the
    /// presenter is let show it for its own time first.
    private func presentOutcome(
        _ outcome: (status: Int32, failure: InteractorError?), of started: Started, interruptedBy: Int32?,
        on stage: PresenterSession.Stage, events: RunEvents
    ) {
        let (status, failure) = outcome
        let messages =
            view.progressMessages[options.action] ?? view.progressMessages[ScreenletView.defaultAction] ?? [:]
        // Nothing of the presenter will be seen any more (no outcome stays,
        // nothing lingers): it is let go rather than waited for, unless its
        // log is wanted (-v, --log, --trace), where its last hooks are what
        // one reads.
        let lingers = options.linger && interruptedBy == nil
        let staysNothing =
            interruptedBy != nil || (failure == nil && OutcomeLine(message: messages[.success], error: nil) == nil)
        if staysNothing && !lingers && !session.log.isEnabled {
            stage.runtime.dismissPresenters()
        }
        if let failure { started.handle.fail(failure) } else { started.handle.succeed() }
        let reason = failure?.message
        events.ended(
            success: status == 0, status: status, reason: reason,
            duration: MonotonicTime.seconds() - started.startedAt,
            message: messages[status == 0 ? .success : .failure])
        // --linger: let the check mark or the failure message be seen for
        // its time, unless the user asked to stop, for at most the outcome
        // bound. Plain lines are printed at once: no waiting.
        if options.linger && interruptedBy == nil && stage.mode == .terminal {
            let bound = options.presentation.minShow + PresenterSession.outcomeLimit
            if !stage.settle(within: bound) {
                session.log.write(
                    PresenterLogEntry(
                        level: .warning, presenterId: session.presenter.id,
                        message: "still drawing \(Self.seconds(bound)) after the command ended; ending the run"))
            }
        }
    }
}
