/// The `presenter-host` command line: parses arguments, runs a subcommand and
/// maps every error to an exit status in one place.
public enum PresenterHostCommand {
    /// Runs the command with `arguments` (without the program name) and
    /// returns the process exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        ExitCode.software.rawValue
    }
}
