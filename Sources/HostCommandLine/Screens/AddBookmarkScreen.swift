import Dispatch
import Glibc
import HostBookmarks
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem

/// The Add Bookmark screen: the form on the whole terminal, run until the
/// user leaves it, through the public runtime API as any application
/// embedding the library would (``PresenterRuntime/attach(_:)``,
/// ``Screenlet/perform(action:interactorType:)``), on a full-screen
/// runtime the command's presenter session makes, whose signals it hears
/// (``interrupted(by:)``, ``presenterFailed(_:)``).
///
/// The terminal is always given back as it was (the user's screen, the
/// cursor, the settings): when the user leaves (Esc: 0; Ctrl-C: 130), on
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT (then the host dies of the signal,
/// ``ProcessEnd/killed(by:)``, and a save that has not committed commits
/// nothing: ``BookmarkSaveInterruption``), around a stop
/// (Ctrl-Z or SIGTSTP: taken off before the stop, drawn again on `fg`), and
/// when the host itself crashes (``CrashRescue``). A presenter that
/// crashes, hangs or fails is taken off the view; the form goes on, and its
/// status line says so.
///
/// Keys are the form's: a presenter is offered one only while a failure it
/// shows waits for a key (the first one after it: mbhud's box uses it up),
/// never Esc, which leaves (``PresenterRuntime/key(_:)``); Ctrl-C and Ctrl-Z
/// are the screen's own and never reach a presenter either (raw mode makes
/// them keys). A paste goes to the form alone.
final class AddBookmarkScreen: Sendable {
    /// What the screen needs besides the form's first values.
    struct Configuration {
        /// The form's presenter, resolved by the command.
        var presenter: PresenterChain
        var messages: [String: ProgressMessages]?
        var store: BookmarkStore
        var timeout: Double
        var environment: [String: String]
        /// Hears get-title's decisions (`-v`, `--log`).
        var note: (@Sendable (String) -> Void)?
    }

    /// How long saving shows at least, in seconds, so that its working
    /// message can be read: the screen holds the action's end, and the
    /// presenter gets `min-show-ms` 0 (``presenterOptions(_:)``). A HUD
    /// holding its own minimum would show "Saving bookmark..." while the
    /// status line, told at the real end, says saved.
    static let minimumSave: Double = 0.5

    /// The presenter options the screen runs its presenter with: `options`
    /// with `min-show-ms` 0 (the screen keeps the minimum: ``minimumSave``),
    /// so the HUD shows an outcome at the frame the status line does.
    static func presenterOptions(_ options: [String: String]) -> [String: String] {
        options.merging(["min-show-ms": "0"]) { $1 }
    }

    private let configuration: Configuration
    private let view: AddBookmarkView
    /// How the screen ends: its status once set (the first reason to leave
    /// wins), every fetch started (cancelling one that ended does nothing),
    /// and the saves under way.
    private let leaving = ConditionLock(
        (exitStatus: ProcessEnd.Status?.none, fetches: [WebTitleFetch](), saving: 0))
    /// Interrupted by a trapped signal: a save not committed then commits nothing.
    private let saveInterruption = BookmarkSaveInterruption()

    init(configuration: Configuration, form: BookmarkForm) {
        self.configuration = configuration
        view = AddBookmarkView(
            form: form, layout: .form, presenter: configuration.presenter.id,
            messages: configuration.messages)
    }

    /// A presenter failed for good (on the presenter thread): it is off
    /// the view, and the form says so above its status line.
    func presenterFailed(_ failure: PresenterFailure) {
        view.presenterProblem = "The \(failure); progress is no longer shown"
    }

    /// An interrupting signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT): a save
    /// not committed yet commits nothing (one that did is kept), and the
    /// screen ends; the host dies of the signal.
    func interrupted(by signal: Int32) {
        saveInterruption.interrupt()
        leave(status: .signal(signal))
    }

    /// Shows the form on `runtime` until the user leaves it; returns how
    /// the host ends. `suspendForKey`: Ctrl-Z, a key in raw mode.
    /// - Throws: what ``PresenterRuntime/attach(_:)`` threw (the runtime
    ///   is shut down then, the terminal as it was).
    func run(
        on runtime: PresenterRuntime, suspendForKey: @escaping @Sendable () -> Void
    ) throws(RuntimeError) -> ProcessEnd.Status {
        let view = self.view
        let screenlet: Screenlet
        do throws(RuntimeError) {
            screenlet = try runtime.attach(view, presenter: configuration.presenter)
        } catch {
            runtime.shutdown()
            throw error
        }
        runtime.sync {
            view.onRequest = { [self] request in handle(request, screenlet: screenlet, runtime: runtime) }
        }
        let input = TerminalInput { [self] key in
            switch key {
            case nil: leave(status: .exit(128 + SIGHUP))  // the terminal is gone
            case .control(3): leave(status: .exit(128 + SIGINT))  // a key in raw mode: the screen's way out
            case .control(26): suspendForKey()
            case .paste?:
                runtime.sync { view.handle(key!) }
                screenlet.setNeedsDisplay()
            case let key?:
                if let code = key.code { runtime.key(code) }
            }
        }

        let status = leaving.withLock(waitingUntil: { $0.exitStatus != nil }) { leaving, _ in leaving.exitStatus! }
        input.stop()
        // The keys typed before the one that left are handled first (an
        // Enter on ADD BOOKMARK just before Ctrl-C still saves). Then leave
        // at once: a fetch still running is stopped, a save (quick, and the
        // user's data) is waited for.
        runtime.sync {}
        leaving.withLock { for fetch in $0.fetches { fetch.cancel() } }
        leaving.withLock(waitingUntil: { $0.saving == 0 }) { _, _ in }
        runtime.shutdown()
        // The view's request handler holds the screen and the runtime: let go.
        view.onRequest = nil
        return status
    }

    // MARK: - The form's requests (presenter thread)

    private func handle(_ request: BookmarkForm.Request, screenlet: Screenlet, runtime: PresenterRuntime) {
        switch request {
        case .quit:
            leave(status: .exit(0))
        case .getTitle(let url, let explicit):
            getTitle(url, explicit: explicit, screenlet: screenlet, runtime: runtime)
        case .add(let url, let title):
            leaving.withLock { $0.saving += 1 }
            // The status says "Saving..." and the outcome as the HUD does
            // (AddBookmarkView.actionStarted, actionEnded); here it only
            // gains what was saved.
            BookmarkInteractors.add(
                url: url, title: title, to: configuration.store, on: screenlet, lasting: Self.minimumSave,
                interruption: saveInterruption
            ) { [self] result in
                runtime.sync {
                    if case .success(let bookmark) = result, case .success(let said) = view.form.status {
                        view.form.status = .success("\(said) \"\(bookmark.title)\" (\(bookmark.url))")
                    }
                }
                screenlet.setNeedsDisplay()
                leaving.withLock { $0.saving -= 1 }
                leaving.broadcast()
            }
        }
    }

    private func getTitle(_ url: String, explicit: Bool, screenlet: Screenlet, runtime: PresenterRuntime) {
        let fetch = BookmarkInteractors.getTitle(
            of: url, on: screenlet, timeout: configuration.timeout, environment: configuration.environment,
            note: configuration.note
        ) { [self] fetched, result in
            runtime.sync {
                switch result {
                case .success(let title):
                    // A URL typed without a scheme that answered over http
                    // only: the field says so, and that is what is saved.
                    let fellBack = fetched != (try? WebTitle.normalizedURL(url))
                    let filled = view.form.titleFetched(
                        title, forURL: url, explicit: explicit, address: fellBack ? fetched : nil)
                    view.sayUnlessSaving(
                        .info(
                            filled
                                ? "Got the title of \(fetched)"
                                : "Got the title of \(fetched); kept the title you typed"))
                case .failure:
                    break  // the status said it with the HUD (AddBookmarkView.actionEnded)
                }
            }
            screenlet.setNeedsDisplay()
        }
        if let fetch { leaving.withLock { $0.fetches.append(fetch) } }
    }

    // MARK: - Leaving

    /// Ends the screen with `status` (the first reason to leave wins). Any thread.
    private func leave(status: ProcessEnd.Status) {
        leaving.withLock { if $0.exitStatus == nil { $0.exitStatus = status } }
        leaving.broadcast()
    }
}
