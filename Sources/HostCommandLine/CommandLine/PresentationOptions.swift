import HostEngine
import HostRuntime

/// The options every command that shows a presenter shares (`run`, `drive`,
/// `add-bookmark`): which presenter, its messages, colour, plugins, times,
/// isolation and log. One group, read in one place, that each command's
/// own options hold beside theirs (as swift-argument-parser's
/// `@OptionGroup`), and all a ``PresenterSession`` needs to begin.
package struct PresentationOptions: Equatable, Sendable {
    /// `--presenter`: the presenter's id (``DefaultPresenter`` when not given).
    package var presenter = "mbhud"
    /// Whether `--presenter` was given: the user's default does not apply.
    package var presenterChosen = false
    /// Where ``presenter`` came from when the user's default chose it
    /// (`PRESENTER_HOST_PRESENTER`, the settings file's path), else nil:
    /// such a presenter that is not installed gives way to mbhud.
    package var presenterSource: String?
    /// `--option <key>=<value>`, and the settings file's: what
    /// presenters read through `option` ("spinner", or "line.spinner" for
    /// one presenter), under the host's own keys.
    package var presenterOptions: [String: String] = [:]
    /// `--messages`: a JSON messages file.
    package var messagesFile: String?
    /// `--color`.
    package var color = ColorMode.auto
    /// `--terminal-progress`: OSC 9;4 to the terminal (``TerminalProgress``).
    package var terminalProgress = TerminalProgressMode.auto
    /// The plugin options (``PluginOptions``), before the command's name or after it.
    var plugins = PluginOptions()
    /// `--plugin-dir`, in the order given.
    package var pluginDirs: [String] {
        get { plugins.pluginDirs }
        set { plugins.pluginDirs = newValue }
    }
    /// `--min-show`, in seconds: once shown, the presenter stays at least
    /// so long while the work goes on; the end never waits for it (but with
    /// `run --linger`).
    package var minShow = 0.0
    /// `--hook-timeout`, in seconds: how long a presenter's hook may take.
    package var hookTimeout = PresenterProcessConfiguration.defaultHookTimeout
    /// `--in-process`: run the presenter in this process (for debugging a plugin).
    package var inProcess = false
    /// `-v`, `--verbose`: the presenters' log and the host's decisions about them on stderr.
    package var verbose = false
    /// `--log`: a file that gets the same log, with timestamps.
    package var logFile: String?

    /// The defaults.
    package init() {}

    /// The group's options among `parsed` (a command's arguments, checked
    /// against its ``CommandSpec``); `presenter` unless `--presenter` says
    /// otherwise. An option the command does not take keeps its default.
    init(_ parsed: ParsedArguments, presenter: String = "mbhud") {
        self.presenter = parsed.last("--presenter") ?? presenter
        presenterChosen = parsed.has("--presenter")
        for option in parsed.all("--option") {
            guard let equals = option.firstIndex(of: "=") else { continue }
            presenterOptions[String(option[..<equals])] = String(option[option.index(after: equals)...])
        }
        messagesFile = parsed.last("--messages")
        color = parsed.last("--color").flatMap(ColorMode.init) ?? color
        terminalProgress = parsed.last("--terminal-progress").flatMap(TerminalProgressMode.init) ?? terminalProgress
        plugins = PluginOptions(parsed)
        minShow = parsed.seconds("--min-show") ?? minShow
        hookTimeout = parsed.seconds("--hook-timeout") ?? hookTimeout
        inProcess = parsed.has("--in-process")
        verbose = parsed.has("--verbose")
        logFile = parsed.last("--log")
    }

    /// The longest `--min-show` and `--grace`, in seconds (1 day): more is
    /// surely a mistake, and presenters get milliseconds that fit any integer.
    package static let longestHold: Double = 86_400
    /// The longest `--hook-timeout`, in seconds: a hook that takes longer
    /// than a minute is not drawing progress.
    package static let longestHookTimeout: Double = 60
}

/// `--terminal-progress`: when to write OSC 9;4 (see ``TerminalProgress``).
package typealias TerminalProgressMode = TerminalProgress.Mode
