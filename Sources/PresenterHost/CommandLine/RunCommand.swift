/// `presenter-host run`: runs a command as an action under a presenter.
/// (Stub: implemented by the runtime issue.)
public enum RunCommand {
    /// Runs `run` with the arguments that follow the word `run`; returns the exit status.
    public static func execute(_ arguments: [String]) -> Int32 {
        ExitCode.software.rawValue
    }
}
