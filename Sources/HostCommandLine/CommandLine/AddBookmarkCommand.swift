import HostBookmarks
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem

/// `presenter-host add-bookmark`: the Add Bookmark screen, or, with
/// `--get-title` / `--add`, its two actions for scripts, with no screen:
/// progress goes through the presenter on stderr as in `run` (plain lines
/// off a terminal), the title on stdout.
package enum AddBookmarkCommand {
    /// Runs `add-bookmark` with its options (the plugin options given
    /// before the word `add-bookmark` among them); returns how the host ends.
    static func execute(_ options: AddBookmarkOptions, environment: [String: String]) -> ProcessEnd.Status {
        do {
            return try run(options, environment: environment)
        } catch {
            return .exit(PresenterHostCommand.report(error))
        }
    }

    private static func run(
        _ options: AddBookmarkOptions, environment: [String: String]
    ) throws(CommandError) -> ProcessEnd.Status {
        if options.mode == .screen {
            // Checked first: nothing is loaded for a screen that cannot be shown.
            guard TerminalShim.isTerminal(.standardInput), TerminalShim.isTerminal(.standardError),
                BackendFactory.mode(for: .standardError, environment: environment) == .terminal
            else {
                throw .usage(
                    "the Add Bookmark screen needs a terminal (stdin and stderr, TERM set and not dumb, CI unset, empty, 0 or false); in scripts use --get-title or --add"
                )
            }
        }
        let session = try PresenterSession(
            options.presentation, on: options.mode == .screen ? .fullScreen : .standardError(), environment: environment
        )
        defer { session.end() }
        let log = session.log
        let messages = session.messages?.progressMessages
        let store = BookmarkStore(path: BookmarkStore.path(store: options.store, environment: environment))
        let logNote: @Sendable (String) -> Void = {
            log.write(PresenterLogEntry(level: .info, presenterId: nil, message: $0))
        }
        let note = log.isEnabled ? logNote : nil
        switch options.mode {
        case .screen:
            let screen = AddBookmarkScreen(
                configuration: AddBookmarkScreen.Configuration(
                    presenter: session.presenter, messages: messages, store: store, timeout: options.timeout,
                    environment: environment, note: note),
                form: BookmarkForm(url: options.url ?? "", title: options.title ?? ""))
            return try session.show(
                on: .fullScreen(
                    presenterRows: { AddBookmarkView.presenterRows(forRows: $0) },
                    options: AddBookmarkScreen.presenterOptions, failed: screen.presenterFailed),
                interrupted: { screen.interrupted(by: $0.signal) }
            ) { stage throws(CommandError) in
                do throws(RuntimeError) {
                    return try screen.run(on: stage.runtime, suspendForKey: stage.suspendForKey)
                } catch {
                    throw .failure("\(error)")
                }
            }
        case .getTitle, .add:
            let script = BookmarkScript(
                view: AddBookmarkView(
                    form: BookmarkForm(), layout: .line, presenter: session.presenter.id, messages: messages),
                presenter: session.presenter, timeout: options.timeout, environment: environment, note: note)
            return try session.show(interrupted: { script.interrupted(by: $0.signal) }) {
                stage throws(CommandError) in
                try script.run(
                    on: stage, url: options.url ?? "", title: options.mode == .add ? options.title : nil,
                    save: options.mode == .add ? store : nil)
            }
        }
    }
}
