import HostEngine
import HostRuntime
import HostText

/// The flags of `presenter-host run` and the command to run, as parsed:
/// what every presenter command shares (``presentation``) and run's own.
package struct RunOptions: Equatable, Sendable {
    /// `--presenter`, `--messages`, `--color`, `--terminal-progress`, the
    /// plugin options, `--min-show`, `--hook-timeout`, `--in-process`, `-v`, `--log`.
    package var presentation = PresentationOptions()
    /// `--action`: the action whose messages apply.
    package var action = "run"
    /// `--working`: shown while the command runs.
    package var working: String?
    /// `--success`: shown when the command exits 0.
    package var success: String?
    /// `--failure`: shown when the command fails.
    package var failure: String?
    /// `--timeout`, in seconds.
    package var timeout: Double?
    /// `--output` (`--show-output` is `.stream`).
    package var output = OutputMode.onFailure
    /// `--output tail=N`: how many of the last lines the view shows.
    package var tailLines = RunOptions.defaultTailLines
    /// The lines `--output tail` shows without `=N`.
    package static let defaultTailLines = 5
    /// The most lines `--output tail=N` may show.
    package static let longestTail = 50
    /// `--show-output`, the same as `--output stream`.
    package var showOutput: Bool { output == .stream }
    /// `--working-from-output`: in a terminal, the command's latest line
    /// becomes the working message.
    package var workingFromOutput = false
    /// `--static` (or `ACCESSIBLE=1`): one line per state change, no
    /// animation and no redraws, even in a terminal.
    package var staticMode = false
    /// `--events`: a file for one JSON line per state change; "-" is stdout.
    package var eventsFile: String?
    /// `--grace`, in seconds.
    package var grace = 0.0
    /// `--linger`: `run` waits, before it ends, for the presenter to have
    /// shown the outcome for its time (mbhud: a success 1.5 s plus 10 ms a
    /// character, a failure 3 s), as the original's HUD does in an app that
    /// goes on; by default `run` ends with the command.
    package var linger = false
    /// `--pty`: the output `run` reads goes to a pseudo-terminal, not a
    /// pipe, so that the command sees a terminal (``OutputTerminal``).
    package var pty = false
    /// The command and its arguments; never empty after parsing.
    package var command: [String] = []

    /// An empty set of options (the defaults).
    package init() {}

    /// The options `parsed` (checked against ``CommandTable/run``) give.
    init(_ parsed: ParsedArguments) throws(CommandError) {
        presentation = PresentationOptions(parsed)
        action = parsed.last("--action") ?? action
        working = parsed.last("--working")
        success = parsed.last("--success")
        failure = parsed.last("--failure")
        timeout = parsed.seconds("--timeout")
        if let output = parsed.last("--output") {
            let (mode, lines) = Self.output(output)
            self.output = mode
            tailLines = lines ?? tailLines
        }
        staticMode = parsed.has("--static")
        workingFromOutput = parsed.has("--working-from-output")
        eventsFile = parsed.last("--events")
        grace = parsed.seconds("--grace") ?? grace
        linger = parsed.has("--linger")
        pty = parsed.has("--pty")
        command = parsed.operands
        if workingFromOutput && output == .hide {
            throw .usage("--working-from-output shows what --output hide hides: use one or the other")
        }
        if presentation.messagesFile != nil && (working != nil || success != nil || failure != nil) {
            throw .usage(
                "--messages cannot be combined with --working, --success or --failure; put all the messages in the file"
            )
        }
    }

    /// `--output`'s value, checked: hide, stream, on-failure, tail or tail=N.
    static func checkOutput(_ name: String, _ text: String) throws(CommandError) {
        if text == "tail" || OutputMode(rawValue: text) != nil { return }
        guard text.hasPrefix("tail=") else {
            throw .usage("\(name): '\(PrintableText.escaping(text))' is not hide, stream, on-failure or tail[=N]")
        }
        guard let lines = Int(text.dropFirst("tail=".count)), (1...longestTail).contains(lines) else {
            throw .usage(
                "\(name): '\(PrintableText.escaping(text))': tail=N needs a number of lines from 1 to \(longestTail)")
        }
    }

    /// A checked `--output` value as a mode, and tail=N's N.
    private static func output(_ text: String) -> (OutputMode, Int?) {
        guard text.hasPrefix("tail=") else { return (OutputMode(rawValue: text) ?? .onFailure, nil) }
        return (.tail, Int(text.dropFirst("tail=".count)))
    }

    /// The longest `--timeout`, in seconds (30 days).
    package static let longestTimeout: Double = 2_592_000
}

/// What `run` does with the command's output in a terminal (`--output`).
package enum OutputMode: String, Equatable, Sendable {
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
    package var commandLine: String {
        command.map(ShellWord.quoted).joined(separator: " ")
    }
}
