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
/// the host stops, and it is drawn again when the host is continued. One that the terminal sent has already reached `CMD`,
/// which runs in our foreground process group; one sent to the host alone
/// (kill(1)) is forwarded to `CMD` once. A second interrupting signal kills
/// `CMD` (SIGKILL). The host then clears its region, restores the cursor and
/// exits with 128 + the first signal's number.
final class RunSession {
    /// How long `CMD` gets between SIGTERM and SIGKILL after `--timeout`.
    static let killGrace: TimeInterval = 2
    /// The longest wait for the presenter's last message to be seen.
    static let settleLimit: TimeInterval = 15
    /// The interactor type presenters are told about.
    static let interactorType = "CommandInteractor"

    private let options: RunOptions
    private let view: RunView
    private let environment: [String: String]
    private let control = DispatchQueue(label: "presenter-host.run.control")
    private let lock = NSLock()
    private var child: ChildProcess?
    private var interruption: Int32?
    private var timedOut = false

    init(options: RunOptions, view: RunView, environment: [String: String]) {
        self.options = options
        self.view = view
        self.environment = environment
    }

    /// Runs the command under the presenter; returns the exit status.
    func run(registry: PresenterRegistry) throws(CommandError) -> Int32 {
        // A missing command is reported before anything is shown.
        let executable: String
        do {
            executable = try ChildProcess.resolve(options.command[0], path: environment["PATH"])
        } catch {
            throw Self.commandError(error)
        }
        let mode = BackendFactory.mode(for: STDERR_FILENO, environment: environment)
        let backend = BackendFactory.make(for: STDERR_FILENO, environment: environment,
                                          colorMode: options.color, interactive: false)
        let runtime = PresenterRuntime(registry: registry, backend: backend, options: pluginOptions)
        let screenlet: Screenlet
        do {
            screenlet = try runtime.attach(view)
        } catch {
            runtime.shutdown()
            throw .failure("\(error)")
        }

        // A closed stdout or stderr must not kill the host before it has
        // restored the terminal; the child gets SIGPIPE's default back.
        signal(SIGPIPE, SIG_IGN)
        if mode == .terminal { SignalTrap.installCursorRescue(fd: STDERR_FILENO) }
        let trap = SignalTrap(signals: [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP], queue: control) { [self] event in
            if event.signal == SIGTSTP { suspend(runtime, for: event) } else { interrupted(by: event) }
        }
        defer { trap.cancel() }

        // The working line (plain mode) is out before the command can print.
        let handle = screenlet.perform(action: options.action, interactorType: Self.interactorType)
        runtime.sync {}
        let capture = mode == .terminal
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(executable, options.command,
                                           captureStdout: capture && isatty(STDOUT_FILENO) == 1,
                                           captureStderr: capture)
        } catch {
            let commandError = Self.commandError(error)
            handle.fail(InteractorError(code: Int64(commandError.exitCode.rawValue), domain: "process",
                                        message: commandError.message))
            runtime.shutdown()
            throw commandError
        }
        lock.withLock {
            self.child = child
            // A signal that came before the child existed is forwarded now.
            if let signal = interruption { child.send(signal) }
        }

        let output = OutputSink(showOutput: options.showOutput, runtime: runtime)
        let pump = child.outputFD.map { fd in OutputPump(fd: fd) { output.receive($0) } }
        let timer = options.timeout.map { startTimer(seconds: $0, child: child) }

        let termination = child.wait()
        timer?.cancel()
        pump?.finish()
        output.flush()

        let (interruptedBy, didTimeOut) = lock.withLock { (interruption, timedOut) }
        let status: Int32
        if let signal = interruptedBy {
            handle.fail(InteractorError(code: Int64(128 + signal), domain: "signal",
                                        message: "interrupted by \(Self.signalName(signal))"))
            status = 128 + signal
        } else if didTimeOut {
            handle.fail(InteractorError(code: Int64(ExitCode.timedOut.rawValue), domain: "timeout",
                                        message: "timed out after \(Self.seconds(options.timeout ?? 0))"))
            status = ExitCode.timedOut.rawValue
        } else if termination == .exited(0) {
            handle.succeed()
            status = 0
        } else {
            handle.fail(InteractorError(code: Int64(termination.shellStatus), domain: "process",
                                        message: Self.describe(termination)))
            status = termination.shellStatus
        }
        // Let the check mark or the failure message be seen, unless the
        // user asked to stop. Plain lines are printed at once: no waiting.
        if interruptedBy == nil && mode == .terminal { settle(runtime) }
        runtime.shutdown()

        if status != 0 {
            output.replay(to: STDERR_FILENO)
            if didTimeOut && mode == .terminal {
                PresenterHostCommand.writeStandardError(
                    "presenter-host: '\(options.commandLine)' timed out after \(Self.seconds(options.timeout ?? 0))\n")
            }
        }
        let late = lock.withLock { interruption }
        return late.map { 128 + $0 } ?? status
    }

    /// The options presenters read through `option()` (see docs/ABI.md).
    private var pluginOptions: [String: String] {
        [
            "failure-hold-ms": "3000",
            "min-show-ms": String(Int((options.minShow * 1000).rounded())),
            "grace-ms": String(Int((options.grace * 1000).rounded())),
        ]
    }

    /// Waits for the presenter to finish its last message, in short steps so
    /// that an interrupt cuts it short.
    private func settle(_ runtime: PresenterRuntime) {
        let deadline = Date().addingTimeInterval(Self.settleLimit)
        while !runtime.waitUntilSettled(timeout: 0.05) {
            if lock.withLock({ interruption }) != nil || Date() > deadline { return }
        }
    }

    /// On the control queue.
    private func interrupted(by event: SignalTrap.Event) {
        lock.withLock {
            if interruption == nil {
                interruption = event.signal
                if !event.fromTerminal { child?.send(event.signal) }
            } else {
                child?.send(SIGKILL)
            }
        }
    }

    /// On the control queue, for Ctrl-Z: gives the terminal back clean (no
    /// region, cursor shown, echo on), stops the host as the shell expects,
    /// and draws the view again once it is continued (`fg`, `bg`).
    private func suspend(_ runtime: PresenterRuntime, for event: SignalTrap.Event) {
        runtime.suspend()
        // From the terminal, the command was stopped with us; else pass it on.
        if !event.fromTerminal { lock.withLock { child?.send(SIGTSTP) } }
        kill(getpid(), SIGSTOP)
        runtime.resume()
    }

    /// After `seconds`: SIGTERM, then SIGKILL `killGrace` later.
    private func startTimer(seconds: Double, child: ChildProcess) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: control)
        timer.schedule(deadline: .now() + seconds, repeating: Self.killGrace)
        var fired = false
        timer.setEventHandler { [self] in
            if !fired {
                fired = true
                lock.withLock { timedOut = true }
                child.send(SIGTERM)
            } else {
                child.send(SIGKILL)
            }
        }
        timer.resume()
        return timer
    }

    private static func commandError(_ error: ChildProcess.SpawnError) -> CommandError {
        switch error {
        case .notFound(let command) where command.contains("/"):
            return .commandNotFound("\(command): no such file; check the path of the command to run")
        case .notFound(let command):
            return .commandNotFound("\(command): command not found in PATH; check its name or give its path")
        case .notExecutable(let command, let reason):
            return .cannotExecute("\(command): cannot execute: \(reason); check that it is an executable file")
        case .failed(let command, let reason):
            return .failure("\(command): cannot start: \(reason)")
        }
    }

    private static func describe(_ termination: ChildProcess.Termination) -> String {
        switch termination {
        case .exited(let status): return "exit status \(status)"
        case .signaled(let signal): return "killed by \(signalName(signal))"
        }
    }

    /// "SIGINT", or "signal 34" for one without a common name.
    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    /// "2 s", "0.5 s".
    private static func seconds(_ value: Double) -> String {
        let text = String(format: "%g", value)
        return text + " s"
    }
}

/// Where `CMD`'s captured output goes: above the region line by line, or
/// kept for after a failure. Called on the pump's queue; `flush` and
/// `replay` after the pump finished.
private final class OutputSink: @unchecked Sendable {
    private let showOutput: Bool
    private let runtime: PresenterRuntime
    private var lines = OutputLines()
    private let kept = CapturedOutput()

    init(showOutput: Bool, runtime: PresenterRuntime) {
        self.showOutput = showOutput
        self.runtime = runtime
    }

    func receive(_ bytes: [UInt8]) {
        guard showOutput else { return kept.append(bytes) }
        let complete = lines.append(bytes)
        if !complete.isEmpty { runtime.printAbove(complete.joined(separator: "\n") + "\n") }
    }

    /// Prints the unfinished last line.
    func flush() {
        if showOutput, let last = lines.flush() { runtime.printAbove(last + "\n") }
    }

    /// Writes what was kept (nothing with `--show-output`: it was shown).
    func replay(to fd: Int32) {
        kept.write(to: fd)
    }
}
