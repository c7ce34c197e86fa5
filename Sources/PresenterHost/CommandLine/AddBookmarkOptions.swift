import Dispatch
import FoundationEssentials
import Glibc

/// The flags of `presenter-host add-bookmark`, as parsed.
public struct AddBookmarkOptions: Equatable, Sendable {
    /// What the command does.
    public enum Mode: Equatable, Sendable {
        /// The full-screen form.
        case screen
        /// `--get-title`: print the page's title on stdout.
        case getTitle
        /// `--add`: save the bookmark (fetching its title when none is given).
        case add
    }

    public var mode = Mode.screen
    /// `--presenter`: overrides the screen's own (addbookmark).
    public var presenter: String?
    public var url: String?
    public var title: String?
    /// `--store`: the bookmarks file.
    public var store: String?
    /// `--messages`: a JSON messages file (the format of `run`'s).
    public var messagesFile: String?
    /// `--timeout`: for fetching a title, in seconds.
    public var timeout = WebTitleFetch.defaultTimeout
    public var color = ColorMode.auto
    public var pluginDirs: [String] = []
    /// `--in-process`: the presenter in this process (to debug a plugin).
    public var inProcess = false
    /// `--hook-timeout`: how long one of the presenter's hooks may take, in seconds.
    public var hookTimeout = PresenterProcess.Configuration.defaultHookTimeout
    /// `--log`: the presenter log, with timestamps.
    public var logFile: String?
    /// `-v`, `--verbose`: the presenter log and get-title's decisions (an
    /// https attempt that failed, the http one after it) on stderr.
    public var verbose = false

    public init() {}

    /// What the command line asked for.
    public enum Parsed: Equatable, Sendable {
        case run(AddBookmarkOptions)
        case help
    }

    /// The help text of `add-bookmark`.
    public static let usage = """
        Usage: presenter-host add-bookmark [<options>]
               presenter-host add-bookmark --url <url> --get-title
               presenter-host add-bookmark --url <url> [--title <title>] --add

        The Add Bookmark screen of Liferay Screens' sample, in the terminal: a form
        with the site's URL and title, a button that fetches the title of the page
        (leaving the URL field fetches it too), and ADD BOOKMARK, which saves it.
        Tab, Shift-Tab and the arrows move; Enter presses; Esc leaves; Ctrl-C quits (130).

        Options:
          --url <url>            The site's URL; without a scheme, https is tried, then
                                 http if the connection or the TLS handshake fails.
          --title <title>        The bookmark's title.
          --get-title            No screen: print the page's title on stdout.
          --add                  No screen: save the bookmark, fetching its title when
                                 --title is not given.
          --store <file>         The bookmarks file (default: $PRESENTER_BOOKMARKS, else
                                 $XDG_DATA_HOME/presenter-host/bookmarks.json).
          --presenter <id>       Show progress with <id> instead of addbookmark (see --list).
          --messages <file>      Messages from a JSON file, as for run; the actions are
                                 "add-bookmark" and "get-title".
          --timeout <seconds>    How long fetching a title may take (default: 10).
          --color <when>         auto, always or never (default: auto).
          --plugin-dir <dir>     Look for plugins in <dir> first. Repeatable.
          --in-process           Run the presenter inside presenter-host (to debug a plugin).
          --hook-timeout <seconds>
                                 How long one of the presenter's hooks may take before the
                                 presenter is taken off the screen (default: 0.25).
          --log <file>           Append the presenters' log to <file>.
          -v, --verbose          Show the presenter's log and what get-title tried (https,
                                 then http for a URL without a scheme) on stderr; under
                                 the screen, once it closes.
          -h, --help             Show this help.

        Exit status: 0 done (the screen was left with Esc); 1 the title could not be
        fetched or the bookmark not saved (the reason is on stderr); 130 Ctrl-C;
        129, 131, 143 SIGHUP, SIGQUIT, SIGTERM; 64 bad option; 65 bad messages file;
        66 unreadable messages file; 73 --log file that cannot be written.
        """

    /// Parses the arguments that follow `add-bookmark`.
    /// - Throws: `CommandError.usage` naming the flag or value.
    public static func parse(_ arguments: [String]) throws(CommandError) -> Parsed {
        var options = AddBookmarkOptions()
        var cursor = FlagCursor(arguments)
        while let (flag, argument) = cursor.next() {
            switch flag.name {
            case "-h", "--help":
                return .help
            case "--url": options.url = try cursor.value(of: flag)
            case "--title": options.title = try cursor.value(of: flag)
            case "--store": options.store = try cursor.nonEmptyValue(of: flag, needs: "a file")
            case "--presenter":
                options.presenter = try cursor.nonEmptyValue(
                    of: flag, needs: "a presenter id; see presenter-host --list")
            case "--messages": options.messagesFile = try cursor.value(of: flag)
            case "--timeout":
                let text = try cursor.value(of: flag)
                guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                    throw .usage("--timeout: '\(text)' is not a number of seconds above 0 and at most 3600")
                }
                options.timeout = seconds
            case "--hook-timeout":
                options.hookTimeout = try RunOptions.seconds(
                    flag.name, try cursor.value(of: flag), allowZero: false,
                    longest: RunOptions.longestHookTimeout, longestName: "1 minute")
            case "--color": options.color = try cursor.color(of: flag)
            case "--plugin-dir": options.pluginDirs.append(try cursor.nonEmptyValue(of: flag, needs: "a directory"))
            case "--log": options.logFile = try cursor.nonEmptyValue(of: flag, needs: "a file")
            case "--get-title", "--add", "--in-process", "-v", "--verbose":
                try cursor.noValue(for: flag)
                if flag.name == "--in-process" || flag.name == "-v" || flag.name == "--verbose" {
                    if flag.name == "--in-process" { options.inProcess = true } else { options.verbose = true }
                    break
                }
                let mode: Mode = flag.name == "--add" ? .add : .getTitle
                if options.mode != .screen && options.mode != mode {
                    throw .usage("--get-title and --add cannot be combined")
                }
                options.mode = mode
            default:
                throw .usage(
                    argument.hasPrefix("-")
                        ? "unknown option '\(flag.name)' for add-bookmark"
                        : "unexpected argument '\(argument)'; give the URL with --url")
            }
        }
        if options.mode != .screen && (options.url ?? "").trimmingWhitespace().isEmpty {
            throw .usage("\(options.mode == .add ? "--add" : "--get-title") needs --url <url>")
        }
        if options.mode == .getTitle && options.title != nil {
            throw .usage("--title cannot be combined with --get-title")
        }
        return .run(options)
    }
}
