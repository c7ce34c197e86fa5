import Dispatch
import FoundationEssentials
import Glibc
import HostBookmarks
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem

/// The Add Bookmark screen: the form on the whole terminal, run until the
/// user leaves it, through the public runtime API as any application
/// embedding the library would (``PresenterRuntime/attach(_:)``,
/// ``Screenlet/perform(action:interactorType:)``).
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
// Unchecked: its configuration's `log` (not `Sendable`: the command's) is handed once to the
// runtime, which calls it one entry at a time; the rest is immutable or in `leaving`.
final class AddBookmarkScreen: @unchecked Sendable {
    /// What the screen needs besides the form's first values.
    struct Configuration {
        var registry: PresenterRegistry
        /// The form's presenter, resolved by the command.
        var presenter: PresenterChain
        var messages: [String: ProgressMessages]?
        var store: BookmarkStore
        var timeout: Double
        var color: Bool
        var unicode: Bool
        var isolation: PresenterRuntime.Isolation
        var pluginOptions: [String: String]
        var environment: [String: String]
        var log: ((PresenterLogEntry) -> Void)?
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
    private let control = DispatchQueue(label: "presenter-host.add-bookmark.control")
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

    /// Why the screen could not start (the runtime is then shut down, the
    /// terminal as it was).
    enum StartFailure: Error {
        /// What ``PresenterRuntime/attach(_:)`` threw.
        case attach(RuntimeError)
        /// The signal pipe could not be made (no descriptor left).
        case signalPipe(Errno)
    }

    /// Shows the form until the user leaves it; returns how the host ends.
    func run() throws(StartFailure) -> ProcessEnd.Status {
        let backend = FullScreenBackend(color: configuration.color, unicode: configuration.unicode)
        let view = self.view
        let runtime = PresenterRuntime(
            registry: configuration.registry, backend: backend,
            options: Self.presenterOptions(configuration.pluginOptions),
            presenterRows: { AddBookmarkView.presenterRows(forRows: $0) },
            isolation: configuration.isolation, log: configuration.log,
            onPresenterFailure: { failure, current in
                view.presenterProblem = "The \(failure); progress is no longer shown"
                return current
            })
        ProcessSignals.ignoreBrokenPipe()
        CrashRescue.install(terminal: .standardError, fullScreen: true)
        let trap: SignalTrap
        do throws(Errno) {
            trap = try SignalTrap(queue: control) {
                [self] event in
                if event.signal == SIGTSTP { return suspend(runtime, signalled: true) }
                // A save not committed yet commits nothing (one that did is kept).
                saveInterruption.interrupt()
                leave(status: .signal(event.signal))
            }
        } catch {
            runtime.shutdown()
            throw .signalPipe(error)
        }
        defer { trap.cancel() }

        // Before the first frame: a resize from then on is never missed.
        backend.watchResize { runtime.resize() }
        let screenlet: Screenlet
        do throws(RuntimeError) {
            screenlet = try runtime.attach(view, presenter: configuration.presenter)
        } catch {
            runtime.shutdown()
            throw .attach(error)
        }
        runtime.sync {
            view.onRequest = { [self] request in handle(request, screenlet: screenlet, runtime: runtime) }
        }
        let input = TerminalInput { [self] key in
            switch key {
            case nil: leave(status: .exit(128 + SIGHUP))  // the terminal is gone
            case .control(3): leave(status: .exit(128 + SIGINT))  // a key in raw mode: the screen's way out
            case .control(26): control.async { self.suspend(runtime, signalled: false) }
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

    // MARK: - Leaving and job control

    /// Ends the screen with `status` (the first reason to leave wins). Any thread.
    private func leave(status: ProcessEnd.Status) {
        leaving.withLock { if $0.exitStatus == nil { $0.exitStatus = status } }
        leaving.broadcast()
    }

    /// On the control queue: gives the terminal back, stops as the shell
    /// expects, and takes the screen again when continued. `signalled`: for
    /// a SIGTSTP (whose stop a SIGCONT sent meanwhile cancels), not the
    /// Ctrl-Z key of raw mode.
    private func suspend(_ runtime: PresenterRuntime, signalled: Bool) {
        runtime.suspend()
        if signalled { SignalTrap.stopForSuspend() } else { ProcessSignals.stopUntilContinued() }
        runtime.resume()
    }
}
