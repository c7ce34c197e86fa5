import HostBookmarks
import HostEngine
import HostRuntime
import HostText

/// The flags of `presenter-host add-bookmark`, as parsed: what every
/// presenter command shares (``presentation``) and add-bookmark's own.
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
    package var url: String?
    package var title: String?
    /// `--store`: the bookmarks file.
    package var store: String?
    /// `--timeout`: for fetching a title, in seconds.
    package var timeout = WebTitleFetch.defaultTimeout
    /// `--presenter` (addbookmark unless told), `--messages` (the format of
    /// `run`'s), `--color`, the plugin options, `--in-process`,
    /// `--hook-timeout`, `--log`, and `-v` (which also shows get-title's
    /// decisions: an https attempt that failed, the http one after it). No
    /// `--min-show`, and no OSC 9;4 (add-bookmark has no `--terminal-progress`).
    package var presentation = AddBookmarkOptions.defaultPresentation

    package init() {}

    /// The presentation of an add-bookmark given no option.
    private static var defaultPresentation: PresentationOptions {
        var presentation = PresentationOptions()
        presentation.presenter = "addbookmark"
        presentation.terminalProgress = .never
        return presentation
    }

    /// The options `parsed` (checked against ``CommandTable/addBookmark``) give.
    init(_ parsed: ParsedArguments) throws(CommandError) {
        var options = AddBookmarkOptions()
        options.mode = parsed.has("--add") ? .add : parsed.has("--get-title") ? .getTitle : .screen
        options.url = parsed.last("--url")
        options.title = parsed.last("--title")
        options.store = parsed.last("--store")
        options.timeout = parsed.seconds("--timeout") ?? options.timeout
        options.presentation = PresentationOptions(parsed, presenter: options.presentation.presenter)
        options.presentation.terminalProgress = .never
        if options.mode != .screen && (options.url ?? "").trimmingWhitespace().isEmpty {
            throw .usage("\(options.mode == .add ? "--add" : "--get-title") needs --url <url>")
        }
        if options.mode == .getTitle && options.title != nil {
            throw .usage("--title cannot be combined with --get-title")
        }
        self = options
    }
}
