import Dispatch
import FoundationEssentials
import Glibc

/// The flags of `presenter-host run` and the command to run, as parsed.
public struct RunOptions: Equatable, Sendable {
    /// `--presenter`: the presenter's id.
    public var presenter = "mbhud"
    /// `--action`: the action whose messages apply.
    public var action = "run"
    /// `--messages`: a JSON messages file.
    public var messagesFile: String?
    /// `--working`: shown while the command runs.
    public var working: String?
    /// `--success`: shown when the command exits 0.
    public var success: String?
    /// `--failure`: shown when the command fails.
    public var failure: String?
    /// `--timeout`, in seconds.
    public var timeout: Double?
    /// `--output` (`--show-output` is `.stream`).
    public var output = OutputMode.onFailure
    /// `--output tail=N`: how many of the last lines the view shows.
    public var tailLines = RunOptions.defaultTailLines
    /// The lines `--output tail` shows without `=N`.
    public static let defaultTailLines = 5
    /// The most lines `--output tail=N` may show.
    public static let longestTail = 50
    /// `--show-output`, the same as `--output stream`.
    public var showOutput: Bool { output == .stream }
    /// `--static` (or `ACCESSIBLE=1`): one line per state change, no
    /// animation and no redraws, even in a terminal.
    public var staticMode = false
    /// `--events`: a file for one JSON line per state change; "-" is stdout.
    public var eventsFile: String?
    /// `--terminal-progress`: OSC 9;4 to the terminal (``TerminalProgress``).
    public var terminalProgress = TerminalProgressMode.auto
    /// `--color`.
    public var color = ColorMode.auto
    /// `--plugin-dir`, in the order given.
    public var pluginDirs: [String] = []
    /// `--min-show`, in seconds.
    public var minShow = 0.5
    /// `--grace`, in seconds.
    public var grace = 0.0
    /// `--hook-timeout`, in seconds: how long a presenter's hook may take.
    public var hookTimeout = PresenterProcess.Configuration.defaultHookTimeout
    /// `--in-process`: run the presenter in this process (for debugging a plugin).
    public var inProcess = false
    /// `-v`, `--verbose`: the presenters' log and the host's decisions about them on stderr.
    public var verbose = false
    /// `--log`: a file that gets the same log, with timestamps.
    public var logFile: String?
    /// The command and its arguments; never empty after parsing.
    public var command: [String] = []

    /// An empty set of options (the defaults).
    public init() {}

    /// What the command line asked for.
    public enum Parsed: Equatable, Sendable {
        case run(RunOptions)
        /// `--help` / `-h`: print `usage` to stdout and exit 0.
        case help
    }

    /// The help text of `run`.
    public static let usage = """
        Usage: presenter-host run [<options>] [--] <command> [<argument>...]

        Runs <command> as an action under a progress presenter and exits with its status.

        Options:
          --presenter <id>       The presenter to show (default: mbhud; see --list).
          --action <name>        The action whose messages apply (default: run).
          --messages <file>      Messages from a JSON file shaped
                                 {"<action>": {"working": "...", "success": "...", "failure": "..."}};
                                 an action missing from it uses the "default" action's.
          --working <message>    Shown while <command> runs (default: the command line).
          --success <message>    Shown when <command> exits with status 0 (default: none).
          --failure <message>    Shown when <command> fails (default: none).
          --timeout <seconds>    Stop <command> and what it started after <seconds>
                                 (TERM, KILL 2 s later); exit 124. At most 30 days.
          --output <mode>        What becomes of <command>'s output in a terminal: on-failure
                                 (the default: kept, shown after the presenter only if <command>
                                 fails), stream (whole lines above the presenter as they come),
                                 tail[=N] (the last N lines, default 5, shown below the presenter
                                 as they come, then as on-failure) or hide (never shown, in plain
                                 mode too).
          --show-output          The same as --output stream.
          --static               One line per state change, no animation or redraws, even in
                                 a terminal (for screen readers; also when ACCESSIBLE=1).
          --terminal-progress <when>
                                 Show progress in the terminal's tab and taskbar too (OSC 9;4):
                                 auto (terminals known to understand it, never inside tmux or
                                 screen), always, or never (default: auto).
          --events <file>        Append one JSON line per state change (start, message,
                                 progress, success or failure with the status and the
                                 duration) to <file>; - is stdout (<command>'s stdout then
                                 joins its output).
          --color <when>         auto, always or never (default: auto; NO_COLOR turns colour off).
          --plugin-dir <dir>     Look for plugins in <dir> first. Repeatable.
          --min-show <seconds>   Once shown, keep the presenter at least <seconds> (default: 0.5;
                                 at most 86400).
          --grace <seconds>      Show nothing if <command> ends within <seconds> (default: 0;
                                 at most 86400).
          --hook-timeout <seconds>
                                 How long a presenter's hook may take before the presenter
                                 is stopped and plain lines take over (default: 0.25; at most 60).
          --in-process           Run the presenter inside presenter-host instead of its own
                                 sandboxed process (to debug a plugin under gdb).
          -v, --verbose          Show the presenter's log and what the host did about it.
          --log <file>           Append the same log to <file>, with timestamps.
          -h, --help             Show this help.

        The command starts at '--' or at the first argument that is not an option.
        It may report progress: lines such as 42%, 0.42, 42/100 or
        {"progress": 0.42, "message": "Downloading foo.tar"} written to the descriptor
        numbered in $PRESENTER_PROGRESS_FD (see docs/PROGRESS.md).

        Exit status: <command>'s own (128 + N when signal N killed it); 124 after
        --timeout; 126 <command> cannot be executed; 127 <command> not found;
        129, 130, 131, 143 when interrupted by SIGHUP, SIGINT, SIGQUIT, SIGTERM;
        64 bad option or unknown presenter; 65 bad messages file; 66 unreadable
        messages file; 73 --log file that cannot be written.

        The presenter runs in a sandboxed process of its own: if it crashes, hangs
        or misbehaves, it is stopped and plain progress lines take over; the
        command is never affected.
        """

    /// Parses the arguments that follow `run`. The command starts after `--`
    /// or at the first argument that is not a flag; everything from there on
    /// belongs to it, flags included.
    /// - Throws: `CommandError.usage` naming the flag or value.
    public static func parse(_ arguments: [String]) throws(CommandError) -> Parsed {
        var options = RunOptions()
        var cursor = FlagCursor(arguments, dashDashEndsFlags: true)
        while let (split, argument) = cursor.next() {
            if argument == "--" {
                options.command = cursor.remaining
                break
            }
            // The first word that is not a flag starts the command.
            guard argument.hasPrefix("-"), argument != "-" else {
                options.command = [argument] + cursor.remaining
                break
            }
            let flag = split.name
            switch flag {
            case "-h", "--help":
                return .help
            case "--presenter":
                options.presenter = try cursor.nonEmptyValue(
                    of: split, needs: "a presenter id; see presenter-host --list")
            case "--action":
                options.action = try cursor.nonEmptyValue(of: split, needs: "a non-empty action name")
            case "--messages":
                options.messagesFile = try cursor.value(of: split)
            case "--working":
                options.working = try cursor.value(of: split)
            case "--success":
                options.success = try cursor.value(of: split)
            case "--failure":
                options.failure = try cursor.value(of: split)
            case "--timeout":
                options.timeout = try seconds(
                    flag, try cursor.value(of: split), allowZero: false,
                    longest: longestTimeout, longestName: "30 days")
            case "--min-show":
                options.minShow = try seconds(
                    flag, try cursor.value(of: split), allowZero: true,
                    longest: longestHold, longestName: "1 day")
            case "--grace":
                options.grace = try seconds(
                    flag, try cursor.value(of: split), allowZero: true,
                    longest: longestHold, longestName: "1 day")
            case "--show-output", "--static", "--in-process", "-v", "--verbose":
                try cursor.noValue(for: split)
                switch flag {
                case "--show-output": options.output = .stream
                case "--static": options.staticMode = true
                case "--in-process": options.inProcess = true
                default: options.verbose = true
                }
            case "--output":
                let text = try cursor.value(of: split)
                if text == "tail" || text.hasPrefix("tail=") {
                    options.output = .tail
                    guard text != "tail" else { break }
                    let count = String(text.dropFirst("tail=".count))
                    guard let lines = Int(count), (1...longestTail).contains(lines) else {
                        throw .usage("--output: '\(text)': tail=N needs a number of lines from 1 to \(longestTail)")
                    }
                    options.tailLines = lines
                    break
                }
                guard let mode = OutputMode(rawValue: text) else {
                    throw .usage("--output: '\(text)' is not hide, stream, on-failure or tail[=N]")
                }
                options.output = mode
            case "--terminal-progress":
                options.terminalProgress = try cursor.choice(of: split, "auto, always or never")
            case "--events":
                options.eventsFile = try cursor.nonEmptyValue(of: split, needs: "a file, or - for stdout")
            case "--hook-timeout":
                options.hookTimeout = try seconds(
                    flag, try cursor.value(of: split), allowZero: false,
                    longest: longestHookTimeout, longestName: "1 minute")
            case "--log":
                options.logFile = try cursor.nonEmptyValue(of: split, needs: "a file")
            case "--color":
                options.color = try cursor.color(of: split)
            case "--plugin-dir":
                options.pluginDirs.append(try cursor.nonEmptyValue(of: split, needs: "a directory"))
            default:
                throw .usage("unknown option '\(flag)' for run; put the command after '--' if it is the command's")
            }
        }

        if options.command.isEmpty {
            throw .usage("run needs a command to run, e.g. presenter-host run -- sleep 2")
        }
        if options.messagesFile != nil && (options.working != nil || options.success != nil || options.failure != nil) {
            throw .usage(
                "--messages cannot be combined with --working, --success or --failure; put all the messages in the file"
            )
        }
        return .run(options)
    }

    /// The longest `--min-show` and `--grace`, in seconds (1 day): more is
    /// surely a mistake, and presenters get milliseconds that fit any integer.
    public static let longestHold: Double = 86_400
    /// The longest `--hook-timeout`, in seconds: a hook that takes longer
    /// than a minute is not drawing progress.
    public static let longestHookTimeout: Double = 60
    /// The longest `--timeout`, in seconds (30 days).
    public static let longestTimeout: Double = 2_592_000

    /// A number of seconds: finite, not negative (and above zero unless
    /// `allowZero`), at most `longest`.
    static func seconds(
        _ flag: String, _ text: String, allowZero: Bool, longest: Double,
        longestName: String
    ) throws(CommandError) -> Double {
        guard let value = Double(text), !value.isNaN, value > 0 || (allowZero && value == 0) else {
            throw .usage(
                "\(flag): '\(text)' is not \(allowZero ? "a number of seconds (0 or more)" : "a positive number of seconds")"
            )
        }
        guard value <= longest else {
            throw .usage("\(flag): '\(text)' is too long; give at most \(Int(longest)) seconds (\(longestName))")
        }
        return value
    }
}

/// `--terminal-progress`: when to write OSC 9;4 (see ``TerminalProgress``).
public typealias TerminalProgressMode = TerminalProgress.Mode

/// What `run` does with the command's output in a terminal (`--output`).
public enum OutputMode: String, Equatable, Sendable {
    /// Dropped, even when the command fails.
    case hide
    /// Each whole line printed above the presenter as it comes.
    case stream
    /// Kept, and printed after the presenter is gone only if the command fails.
    case onFailure = "on-failure"
    /// The last ``RunOptions/tailLines`` whole lines shown in the view, below
    /// the presenter, as they come; kept and printed as ``onFailure``.
    case tail
}

extension RunOptions {
    /// The command as a person would type it in a POSIX shell: words that
    /// need it are single-quoted. The default working message.
    public var commandLine: String {
        command.map(Self.shellQuoted).joined(separator: " ")
    }

    /// `word` quoted for a POSIX shell when it holds anything but safe characters.
    static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%_+=:,./-")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingEvery("'", with: "'\\''") + "'"
    }
}
