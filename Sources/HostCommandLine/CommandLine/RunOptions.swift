import FoundationEssentials
import HostEngine
import HostRuntime
import HostText

/// The flags of `presenter-host run` and the command to run, as parsed.
package struct RunOptions: Equatable, Sendable {
    /// `--presenter`: the presenter's id.
    package var presenter = "mbhud"
    /// `--action`: the action whose messages apply.
    package var action = "run"
    /// `--messages`: a JSON messages file.
    package var messagesFile: String?
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
    /// `--static` (or `ACCESSIBLE=1`): one line per state change, no
    /// animation and no redraws, even in a terminal.
    package var staticMode = false
    /// `--events`: a file for one JSON line per state change; "-" is stdout.
    package var eventsFile: String?
    /// `--terminal-progress`: OSC 9;4 to the terminal (``TerminalProgress``).
    package var terminalProgress = TerminalProgressMode.auto
    /// `--color`.
    package var color = ColorMode.auto
    /// The plugin options (``PluginOptions``), before `run` or after it.
    var plugins = PluginOptions()
    /// `--plugin-dir`, in the order given.
    package var pluginDirs: [String] {
        get { plugins.pluginDirs }
        set { plugins.pluginDirs = newValue }
    }
    /// `--min-show`, in seconds: once shown, the presenter stays at least
    /// so long while the work goes on; the end never waits for it (but with
    /// `--linger`).
    package var minShow = 0.0
    /// `--grace`, in seconds.
    package var grace = 0.0
    /// `--linger`: `run` waits, before it ends, for the presenter to have
    /// shown the outcome for its time (mbhud: a success 1.5 s plus 10 ms a
    /// character, a failure 3 s), as the original's HUD does in an app that
    /// goes on; by default `run` ends with the command.
    package var linger = false
    /// `--hook-timeout`, in seconds: how long a presenter's hook may take.
    package var hookTimeout = PresenterProcess.Configuration.defaultHookTimeout
    /// `--in-process`: run the presenter in this process (for debugging a plugin).
    package var inProcess = false
    /// `-v`, `--verbose`: the presenters' log and the host's decisions about them on stderr.
    package var verbose = false
    /// `--log`: a file that gets the same log, with timestamps.
    package var logFile: String?
    /// The command and its arguments; never empty after parsing.
    package var command: [String] = []

    /// An empty set of options (the defaults).
    package init() {}

    /// The options `parsed` (checked against ``CommandTable/run``) give.
    init(_ parsed: ParsedArguments) throws(CommandError) {
        self.init(presentation: parsed)
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
        eventsFile = parsed.last("--events")
        grace = parsed.seconds("--grace") ?? grace
        linger = parsed.has("--linger")
        command = parsed.operands
        if messagesFile != nil && (working != nil || success != nil || failure != nil) {
            throw .usage(
                "--messages cannot be combined with --working, --success or --failure; put all the messages in the file"
            )
        }
    }

    /// What `run` and `drive` share, from `parsed`: the presenter, its
    /// messages file, colour, plugins, times, isolation and log.
    init(presentation parsed: ParsedArguments) {
        self.init()
        presenter = parsed.last("--presenter") ?? presenter
        messagesFile = parsed.last("--messages")
        terminalProgress = parsed.last("--terminal-progress").flatMap(TerminalProgressMode.init) ?? terminalProgress
        color = parsed.last("--color").flatMap(ColorMode.init) ?? color
        plugins = PluginOptions(parsed)
        minShow = parsed.seconds("--min-show") ?? minShow
        hookTimeout = parsed.seconds("--hook-timeout") ?? hookTimeout
        inProcess = parsed.has("--in-process")
        verbose = parsed.has("--verbose")
        logFile = parsed.last("--log")
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

    /// The longest `--min-show` and `--grace`, in seconds (1 day): more is
    /// surely a mistake, and presenters get milliseconds that fit any integer.
    package static let longestHold: Double = 86_400
    /// The longest `--hook-timeout`, in seconds: a hook that takes longer
    /// than a minute is not drawing progress.
    package static let longestHookTimeout: Double = 60
    /// The longest `--timeout`, in seconds (30 days).
    package static let longestTimeout: Double = 2_592_000
}

/// `--terminal-progress`: when to write OSC 9;4 (see ``TerminalProgress``).
package typealias TerminalProgressMode = TerminalProgress.Mode

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
