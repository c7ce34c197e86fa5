import Dispatch
import Glibc
import HostBookmarks
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem
import HostText

/// `add-bookmark --get-title` and `--add`: the screen's two actions with no
/// screen, one after the other, under the same presenter and messages. The
/// view is one line (the indicator and what it fetches) in a terminal, plain
/// lines elsewhere.
///
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT (``interrupted(by:)``) stop a fetch
/// at once, and a save that has not committed yet (one waiting for another
/// save's lock: it commits nothing, ``BookmarkSaveInterruption``), and the
/// host dies of the signal once the terminal is restored
/// (``ProcessEnd/killed(by:)``). SIGTSTP (Ctrl-Z) is the session's: the
/// line off while the process is stopped (``PresenterSession``). The
/// fetcher, in a process group of its own, goes on meanwhile, within its
/// own time limit.
final class BookmarkScript: Sendable {
    private let view: AddBookmarkView
    /// The view's presenter, resolved by the command.
    private let presenter: PresenterChain
    private let timeout: Double
    private let environment: [String: String]
    private let note: (@Sendable (String) -> Void)?
    /// What the signals' queue, the fetch and the save tell the script.
    private let state = ConditionLock(State())

    private struct State {
        var interruption: Int32?
        var fetch: WebTitleFetch?
        var fetched: (url: String, result: Result<String, WebTitleError>)?
        var saved: Result<Bookmark, InteractorError>?
    }
    /// Interrupted by the first interrupting signal.
    private let saveInterruption = BookmarkSaveInterruption()

    init(
        view: AddBookmarkView, presenter: PresenterChain, timeout: Double, environment: [String: String],
        note: (@Sendable (String) -> Void)? = nil
    ) {
        self.note = note
        self.view = view
        self.presenter = presenter
        self.timeout = timeout
        self.environment = environment
    }

    /// Fetches the title of `url` when `title` is nil, prints it on stdout
    /// unless `save` is given, and saves the bookmark in `save` (under the
    /// URL the title came from: the http one when a URL typed without a
    /// scheme fell back to http), on `stage`. Returns how the host ends.
    func run(
        on stage: PresenterSession.Stage, url: String, title: String?, save: BookmarkStore?
    ) throws(CommandError) -> ProcessEnd.Status {
        let runtime = stage.runtime
        let screenlet = try runtime.attachForCommand(view, presenter: presenter)
        var failure: String?
        var resolvedTitle = title
        var address = url
        if resolvedTitle == nil {
            let (fetchedURL, result) = getTitle(url, on: runtime, screenlet: screenlet)
            switch result {
            case .success(let fetched): (resolvedTitle, address) = (fetched, fetchedURL)
            case .failure(let error): failure = error.reason
            }
        }
        if failure == nil, interrupted == nil, let save, let resolvedTitle {
            if case .failure(let error) = add(url: address, title: resolvedTitle, store: save, screenlet: screenlet) {
                failure = error.message
            }
        }
        // In a terminal region the outcome shows for its time, unless a
        // signal cuts it short. Plain lines are printed at once: no waiting.
        if interrupted == nil && stage.mode == .terminal {
            _ = stage.settle(within: PresenterSession.outcomeLimit + 1)
        }
        runtime.shutdown()
        if let signal = interrupted { return .signal(signal) }
        if let failure {
            // In a terminal and in plain lines alike: the presenter's lines
            // were drawn and went (or were printed), this one stays.
            PresenterHostCommand.writeStandardError("Error: \(PrintableText.escaping("\(failure)"))\n")
            return .exit(ExitCode.failure.rawValue)
        }
        if save == nil, let resolvedTitle {
            // What a page said: its bidi controls and invisible characters escaped, as everywhere it is shown.
            try PresenterHostCommand.writeStandardOutput(PrintableText.escaping(resolvedTitle) + "\n")
        }
        return .exit(ExitCode.success.rawValue)
    }

    private var interrupted: Int32? { state.withLock { $0.interruption } }

    /// On the signals' queue, for an interrupting signal: the fetch
    /// cancelled, a save not committed yet stopped.
    func interrupted(by signal: Int32) {
        state.withLock { state in
            if state.interruption == nil { state.interruption = signal }
            state.fetch?.cancel()
        }
        state.broadcast()
        saveInterruption.interrupt()
    }

    /// The URL the answer came from, and the answer.
    private func getTitle(
        _ url: String, on runtime: PresenterRuntime, screenlet: Screenlet
    ) -> (String, Result<String, WebTitleError>) {
        runtime.sync { view.lineText = "Getting the title of \(WebTitle.withoutUserInfo(url))..." }
        let started = BookmarkInteractors.getTitle(
            of: url, on: screenlet, timeout: timeout,
            environment: environment, note: note
        ) { [self] fetchedURL, result in
            state.withLock { $0.fetched = (fetchedURL, result) }
            state.broadcast()
        }
        state.withLock { state in
            state.fetch = started
            if state.interruption != nil { started?.cancel() }  // the signal came first
        }
        return state.withLock(waitingUntil: { $0.fetched != nil || $0.interruption != nil }) { state, _ in
            state.fetched ?? (url, .failure(WebTitleError(reason: "cancelled")))
        }
    }

    private func add(
        url: String, title: String, store: BookmarkStore,
        screenlet: Screenlet
    ) -> Result<Bookmark, InteractorError> {
        BookmarkInteractors.add(url: url, title: title, to: store, on: screenlet, interruption: saveInterruption) {
            [self] result in
            state.withLock { $0.saved = result }
            state.broadcast()
        }
        // A signal ends the save before it commits, or waits for its commit.
        return state.withLock(waitingUntil: { $0.saved != nil }) { state, _ in state.saved! }
    }
}
