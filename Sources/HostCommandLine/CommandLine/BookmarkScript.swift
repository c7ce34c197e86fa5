import Dispatch
import FoundationEssentials
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
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT stop a fetch at once, and a save
/// that has not committed yet (one waiting for another save's lock: it
/// commits nothing, ``BookmarkSaveInterruption``), and the host dies of the
/// signal once the terminal is restored (``ProcessEnd/killed(by:)``).
/// SIGTSTP (Ctrl-Z) gives the terminal back (the line off, the cursor
/// shown, echo on) before the process stops, and the line is drawn again
/// once it is continued, as `run` does.
// Safe: `interruption`, `fetch`, `fetched` and `saved` only under `condition`; the rest is immutable.
final class BookmarkScript: @unchecked Sendable {
    private let runtime: PresenterRuntime
    /// Progress is drawn in a terminal region (not plain lines): the
    /// outcome is let show for its time before the region goes.
    private let terminal: Bool
    private let view: AddBookmarkView
    /// The view's presenter, resolved by the command.
    private let presenter: PresenterChain
    private let timeout: Double
    private let environment: [String: String]
    private let note: (@Sendable (String) -> Void)?
    private let control = DispatchQueue(label: "presenter-host.add-bookmark.script")
    private let condition = MonotonicCondition()
    private var interruption: Int32?
    private var fetch: WebTitleFetch?
    private var fetched: (url: String, result: Result<String, WebTitleError>)?
    private var saved: Result<Bookmark, InteractorError>?
    /// Interrupted by the first interrupting signal.
    private let saveInterruption = BookmarkSaveInterruption()

    init(
        runtime: PresenterRuntime, terminal: Bool, view: AddBookmarkView, presenter: PresenterChain, timeout: Double,
        environment: [String: String], note: (@Sendable (String) -> Void)? = nil
    ) {
        self.note = note
        self.runtime = runtime
        self.terminal = terminal
        self.view = view
        self.presenter = presenter
        self.timeout = timeout
        self.environment = environment
    }

    /// Fetches the title of `url` when `title` is nil, prints it on stdout
    /// unless `save` is given, and saves the bookmark in `save` (under the
    /// URL the title came from: the http one when a URL typed without a
    /// scheme fell back to http). Returns how the host ends.
    func run(url: String, title: String?, save: BookmarkStore?) throws(CommandError) -> ProcessEnd.Status {
        ProcessSignals.ignoreBrokenPipe()
        CrashRescue.install(terminal: terminal ? .standardError : nil)
        let trap: SignalTrap
        do throws(Errno) {
            trap = try SignalTrap(queue: control) {
                [self] event in
                if event.signal == SIGTSTP { return suspend() }
                condition.withLock {
                    if interruption == nil { interruption = event.signal }
                    fetch?.cancel()
                    condition.broadcast()
                }
                saveInterruption.interrupt()
            }
        } catch {
            runtime.shutdown()
            throw .startUpPipe("the signal pipe", error)
        }
        defer { trap.cancel() }
        let screenlet = try runtime.attachForCommand(view, presenter: presenter)
        var failure: String?
        var resolvedTitle = title
        var address = url
        if resolvedTitle == nil {
            let (fetchedURL, result) = getTitle(url, screenlet: screenlet)
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
        // The outcome shows for its time, unless a signal cuts it short.
        // Plain lines are printed at once: no waiting.
        if interrupted == nil && terminal {
            _ = runtime.waitUntilSettled(timeout: CommandRuntime.outcomeLimit + 1)
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

    private var interrupted: Int32? { condition.withLock { interruption } }

    /// On the control queue, for Ctrl-Z: the terminal back as it was (a
    /// stopped job that kept its line, a hidden cursor and echo off would
    /// leave the shell's prompt so), stopped as the shell expects, the line
    /// drawn again once continued (`fg`, `bg`). The fetcher, in a process
    /// group of its own, goes on meanwhile, within its own time limit.
    private func suspend() {
        runtime.suspend()
        SignalTrap.stopForSuspend()
        runtime.resume()
    }

    /// The URL the answer came from, and the answer.
    private func getTitle(_ url: String, screenlet: Screenlet) -> (String, Result<String, WebTitleError>) {
        runtime.sync { view.lineText = "Getting the title of \(WebTitle.withoutUserInfo(url))..." }
        let started = BookmarkInteractors.getTitle(
            of: url, on: screenlet, timeout: timeout,
            environment: environment, note: note
        ) { [self] fetchedURL, result in
            condition.withLock {
                fetched = (fetchedURL, result)
                condition.broadcast()
            }
        }
        condition.withLock {
            fetch = started
            if interruption != nil { started?.cancel() }  // the signal came first
        }
        return condition.withLock {
            while fetched == nil && interruption == nil { condition.wait() }
            return fetched ?? (url, .failure(WebTitleError(reason: "cancelled")))
        }
    }

    private func add(
        url: String, title: String, store: BookmarkStore,
        screenlet: Screenlet
    ) -> Result<Bookmark, InteractorError> {
        BookmarkInteractors.add(url: url, title: title, to: store, on: screenlet, interruption: saveInterruption) {
            [self] result in
            condition.withLock {
                saved = result
                condition.broadcast()
            }
        }
        // A signal ends the save before it commits, or waits for its commit.
        return condition.withLock {
            while saved == nil { condition.wait() }
            return saved!
        }
    }
}
