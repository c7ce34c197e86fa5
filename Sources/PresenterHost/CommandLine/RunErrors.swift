import Foundation

/// The text of `run`'s errors and outcomes: a command that cannot start,
/// how it ended, durations.
extension RunSession {
    static func commandError(_ error: ChildProcess.SpawnError) -> CommandError {
        switch error {
        case .notFound(let command) where command.contains("/"):
            return .commandNotFound("\(command): no such file; check the path of the command to run")
        case .notFound(let command):
            return .commandNotFound("\(command): command not found in PATH; check its name or give its path")
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
        }
    }

    static func describe(_ termination: ChildProcess.Termination) -> String {
        switch termination {
        case .exited(let status): return "exit status \(status)"
        case .signaled(let signal): return "killed by \(SignalName.of(signal))"
        }
    }

    /// "2 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        let text = String(format: "%g", value)
        return text + " s"
    }
}
