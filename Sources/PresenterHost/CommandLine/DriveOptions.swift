/// The flags of `presenter-host drive`, as parsed.
public struct DriveOptions: Equatable, Sendable {
    /// What `drive` shares with `run`: `--presenter`, `--messages`,
    /// `--color`, `--plugin-dir`, `--min-show`, `--hook-timeout`,
    /// `--in-process`, `-v`, `--log` (its command stays empty).
    public var presentation = RunOptions()
    /// `--socket`: serve the protocol on this Unix socket instead of stdin.
    public var socket: String?

    /// The defaults.
    public init() {}

    /// What the command line asked for.
    public enum Parsed: Equatable, Sendable {
        case drive(DriveOptions)
        /// `--help` / `-h`.
        case help
    }

    /// The help text of `drive`.
    public static let usage = """
        Usage: presenter-host drive [<options>]

        Shows the actions that JSON lines on stdin (or on a Unix socket) start and end,
        as many at once as are started (protocol version 1, docs/DRIVER.md):
          {"start": "a1", "action": "get-title", "working": "Getting the title..."}
          {"progress": "a1", "fraction": 0.3, "message": "Reading the page"}
          {"succeed": "a1", "message": "Done"}
          {"fail": "a1", "message": "Could not get the title", "reason": "HTTP 404"}
        A bad line is reported on stderr with its line number and skipped. At the
        end of stdin every action still open fails ("the driver went away").

        Options:
          --presenter <id>       The presenter to show (default: mbhud; see --list).
          --messages <file>      Messages for actions whose start line gives none, from a JSON
                                 file as for run; an action missing from it uses "default"'s.
          --socket <path>        Serve the protocol on a Unix socket at <path> for any number of
                                 clients at once instead of reading stdin; ends on SIGTERM,
                                 SIGINT or SIGHUP (each client's open actions fail when it
                                 disconnects). An old socket file nobody listens on is replaced.
          --color <when>         auto, always or never (default: auto; NO_COLOR turns colour off).
          --terminal-progress <when>
                                 OSC 9;4 in the terminal's tab and taskbar: auto, always, never.
          --plugin-dir <dir>     Look for plugins in <dir> first. Repeatable.
          --min-show <seconds>   Once shown, keep the presenter at least <seconds> (default: 0.5).
          --hook-timeout <seconds>
                                 How long a presenter's hook may take (default: 0.25; at most 60).
          --in-process           Run the presenter inside presenter-host (to debug a plugin).
          -v, --verbose          Show the presenter's log and what the host did about it.
          --log <file>           Append the same log to <file>, with timestamps.
          -h, --help             Show this help.

        Exit status: 0 when every action started succeeded; 1 when one failed or was
        left open; 129, 130, 143 when interrupted (reading stdin); 64 bad option or
        unknown presenter; 65 bad messages file; 66 unreadable messages file; 73 --log
        file or --socket path that cannot be created.
        """

    /// Parses the arguments that follow `drive`.
    /// - Throws: `CommandError.usage` naming the flag or value.
    public static func parse(_ arguments: [String]) throws(CommandError) -> Parsed {
        var options = DriveOptions()
        var cursor = FlagCursor(arguments)
        while let (flag, argument) = cursor.next() {
            switch flag.name {
            case "-h", "--help":
                return .help
            case "--presenter":
                options.presentation.presenter = try cursor.nonEmptyValue(
                    of: flag, needs: "a presenter id; see presenter-host --list")
            case "--messages":
                options.presentation.messagesFile = try cursor.value(of: flag)
            case "--socket":
                options.socket = try cursor.nonEmptyValue(of: flag, needs: "a path for the socket")
            case "--color":
                options.presentation.color = try cursor.color(of: flag)
            case "--plugin-dir":
                options.presentation.pluginDirs.append(try cursor.nonEmptyValue(of: flag, needs: "a directory"))
            case "--min-show":
                options.presentation.minShow = try RunOptions.seconds(
                    flag.name, try cursor.value(of: flag), allowZero: true, longest: RunOptions.longestHold,
                    longestName: "1 day")
            case "--hook-timeout":
                options.presentation.hookTimeout = try RunOptions.seconds(
                    flag.name, try cursor.value(of: flag), allowZero: false, longest: RunOptions.longestHookTimeout,
                    longestName: "1 minute")
            case "--terminal-progress":
                let text = try cursor.value(of: flag)
                guard let mode = TerminalProgressMode(rawValue: text) else {
                    throw .usage("--terminal-progress: '\(text)' is not auto, always or never")
                }
                options.presentation.terminalProgress = mode
            case "--log":
                options.presentation.logFile = try cursor.nonEmptyValue(of: flag, needs: "a file")
            case "--in-process", "-v", "--verbose":
                try cursor.noValue(for: flag)
                if flag.name == "--in-process" {
                    options.presentation.inProcess = true
                } else {
                    options.presentation.verbose = true
                }
            default:
                throw .usage("unknown option '\(argument)' for drive; see presenter-host drive --help")
            }
        }
        return .drive(options)
    }
}
