import HostEngine
import HostSystem
import HostText

/// The text of `run`'s errors and outcomes: a command that cannot start,
/// how it ended (status, failure and reason, built once), durations.
extension RunSession {
    static func commandError(_ error: ChildProcess.SpawnError) -> CommandError {
        switch error {
        case .notFound(let command) where command.contains("/"):
            return .commandNotFound("\(command): no such file; check the path of the command to run")
        case .notFound(let command):
            return .commandNotFound("\(command): command not found in PATH; check its name or give its path")
        case .isDirectory(let command):
            return .cannotExecute("\(command): is a directory; give the path of a program or script to run")
        case .notExecutable(let command, let reason):
            return .cannotExecute("\(command): cannot execute: \(reason); check that it is an executable file")
        case .interpreterNotFound(let command, let interpreter) where interpreter.hasSuffix("\r"):
            let shown = interpreter.dropLast()
            return .commandNotFound(
                "\(command): cannot execute: its #! line names '\(shown)\\r' (Windows line endings); convert the script to Unix line endings"
            )
        case .interpreterNotFound(let command, let interpreter):
            return .commandNotFound(
                "\(command): cannot execute: its interpreter \(interpreter) (the #! line) was not found; fix the first line of the script"
            )
        case .failed(let command, let reason):
            return .failure("\(command): cannot start: \(reason)")
        case .noPseudoTerminal(let command, let reason):
            return .failure(
                "\(command): cannot start: no pseudo-terminal for --pty (\(reason)); mount /dev/pts or run it without --pty"
            )
        }
    }

    /// How the host ends after a run, by the rule shells rely on (the
    /// "wait and cooperative exit" rule, see ``ProcessEnd/killed(by:)``):
    /// as the command ended. A command that exited N (having handled or
    /// ignored a signal too) gives N; one killed by a signal makes the host
    /// die of that signal, so that a Ctrl-C stops a shell loop as it would
    /// without the host. When a signal came before the command ended
    /// (`signal`, the first), a command killed by any signal ends the host
    /// as that signal: what the user sent, not the SIGKILL of a second one
    /// or the timeout's SIGTERM that happened to reach the command first.
    /// Otherwise a `--timeout` that expired gives 124, as timeout(1).
    static func ending(
        of termination: ChildProcess.Termination, interruptedBy signal: Int32?, timedOut: Bool
    ) -> ProcessEnd.Status {
        if signal == nil && timedOut { return .exit(ExitCode.timedOut.rawValue) }
        switch termination {
        case .exited(let status): return .exit(status)
        case .signaled(let killer): return .signal(signal ?? killer)
        }
    }

    /// How a run ended: its exit status (as a shell shows it: 128 + the
    /// signal of a host that dies of one, see ``ending(of:interruptedBy:timedOut:)``),
    /// and the failure its interactor ends with (nil for success), whose
    /// message is the run's one reason (`--events`, the line after a
    /// timeout). The one place these texts are built. A signal before the
    /// command ended comes first, then the timeout (`timeout`, the
    /// `--timeout` that expired), then how the command itself ended.
    static func outcome(
        of termination: ChildProcess.Termination, interruptedBy signal: Int32?, timedOutAfter timeout: Double?
    ) -> (status: Int32, failure: InteractorError?) {
        let status = ending(of: termination, interruptedBy: signal, timedOut: timeout != nil).shellStatus
        if let signal {
            // A command that handled or ignored the signal and exited 0 succeeded.
            guard status != 0 else { return (0, nil) }
            return (
                status,
                InteractorError(
                    code: Int64(status), domain: "signal", message: "interrupted by \(SignalName.of(signal))")
            )
        }
        if let timeout {
            return (
                status,
                InteractorError(code: Int64(status), domain: "timeout", message: timedOut(after: timeout))
            )
        }
        if status == 0 { return (0, nil) }
        return (status, InteractorError(code: Int64(status), domain: "process", message: describe(termination)))
    }

    /// "timed out after 2 s".
    static func timedOut(after timeout: Double) -> String {
        "timed out after \(seconds(timeout))"
    }

    static func describe(_ termination: ChildProcess.Termination) -> String {
        switch termination {
        case .exited(let status): return "exit status \(status)"
        case .signaled(let signal): return "killed by \(SignalName.of(signal))"
        }
    }

    /// "2 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        let text = CFormat.string("%g", value)
        return text + " s"
    }
}
