import FoundationEssentials
import HostBookmarks
import HostEngine
import HostRuntime
import HostText

/// The flags of `presenter-host add-bookmark`, as parsed.
package struct AddBookmarkOptions: Equatable, Sendable {
    /// What the command does.
    package enum Mode: Equatable, Sendable {
        /// The full-screen form.
        case screen
        /// `--get-title`: print the page's title on stdout.
        case getTitle
        /// `--add`: save the bookmark (fetching its title when none is given).
        case add
    }

    package var mode = Mode.screen
    /// `--presenter`: overrides the screen's own (addbookmark).
    package var presenter: String?
    package var url: String?
    package var title: String?
    /// `--store`: the bookmarks file.
    package var store: String?
    /// `--messages`: a JSON messages file (the format of `run`'s).
    package var messagesFile: String?
    /// `--timeout`: for fetching a title, in seconds.
    package var timeout = WebTitleFetch.defaultTimeout
    package var color = ColorMode.auto
    /// The plugin options (``PluginOptions``), before `add-bookmark` or after it.
    var plugins = PluginOptions()
    /// `--in-process`: the presenter in this process (to debug a plugin).
    package var inProcess = false
    /// `--hook-timeout`: how long one of the presenter's hooks may take, in seconds.
    package var hookTimeout = PresenterProcess.Configuration.defaultHookTimeout
    /// `--log`: the presenter log, with timestamps.
    package var logFile: String?
    /// `-v`, `--verbose`: the presenter log and get-title's decisions (an
    /// https attempt that failed, the http one after it) on stderr.
    package var verbose = false

    package init() {}

    /// What add-bookmark's presenter shares with run's, for
    /// ``CommandRuntime``: the presenter (addbookmark unless told), colour,
    /// plugins, isolation, hook budget and log; run's --min-show, and no
    /// OSC 9;4 (add-bookmark has no --terminal-progress).
    var presentation: RunOptions {
        var options = RunOptions()
        options.presenter = presenter ?? "addbookmark"
        options.color = color
        options.plugins = plugins
        options.inProcess = inProcess
        options.hookTimeout = hookTimeout
        options.logFile = logFile
        options.verbose = verbose
        options.terminalProgress = .never
        return options
    }

    /// The options `parsed` (checked against ``CommandTable/addBookmark``) give.
    init(_ parsed: ParsedArguments) throws(CommandError) {
        var options = AddBookmarkOptions()
        options.mode = parsed.has("--add") ? .add : parsed.has("--get-title") ? .getTitle : .screen
        options.presenter = parsed.last("--presenter")
        options.url = parsed.last("--url")
        options.title = parsed.last("--title")
        options.store = parsed.last("--store")
        options.messagesFile = parsed.last("--messages")
        options.timeout = parsed.seconds("--timeout") ?? options.timeout
        options.color = parsed.last("--color").flatMap(ColorMode.init) ?? options.color
        options.plugins = PluginOptions(parsed)
        options.inProcess = parsed.has("--in-process")
        options.hookTimeout = parsed.seconds("--hook-timeout") ?? options.hookTimeout
        options.logFile = parsed.last("--log")
        options.verbose = parsed.has("--verbose")
        if options.mode != .screen && (options.url ?? "").trimmingWhitespace().isEmpty {
            throw .usage("\(options.mode == .add ? "--add" : "--get-title") needs --url <url>")
        }
        if options.mode == .getTitle && options.title != nil {
            throw .usage("--title cannot be combined with --get-title")
        }
        self = options
    }
}
