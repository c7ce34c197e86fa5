import HostSystem
import Dispatch
import HostEngine
import HostPlugins
import HostRuntime
import HostText

/// How a session's runtime is made: its backend, the options its
/// presenters read, and what happens when its presenter fails.
extension PresenterSession {
    /// The runtime of the session on `surface`, and its mode. On stderr
    /// (``Surface/lines(tail:)``): a terminal region, plain lines when the
    /// presenter fails, the log above the region; or plain lines the host
    /// prints itself, with no presenter (``Drawing/plainLines``). On the
    /// full screen: the log held until the end (it has nowhere to go).
    func makeRuntime(on surface: Surface, grace: Double) -> (PresenterRuntime, BackendFactory.Mode) {
        let unicode = TerminalEnvironment.isUnicode(environment)
        // The user's (--option, the settings file) under the host's own,
        // and none of the host's keys for one presenter (`line.grace-ms`),
        // which the engine would look up first (both refuse them already).
        let options = presentation.presenterOptions.filter { SettingsFile.keyProblem($0.key) == nil }.merging(
            Self.pluginOptions(minShow: presentation.minShow, grace: grace)
        ) { $1 }
        let log = self.log
        let logSink: ((PresenterLogEntry) -> Void)? = log.isEnabled ? { log.write($0) } : nil
        let color = presentation.color.isEnabled(environment: environment)
        switch surface {
        case .fullScreen(let presenterRows, let screenOptions, let failed):
            log.hold()
            let runtime = PresenterRuntime(
                registry: registry, backend: FullScreenBackend(color: color, unicode: unicode),
                options: screenOptions(options), presenterRows: presenterRows, isolation: isolation,
                tracing: EngineNote.tracingEnabled(environment), log: logSink,
                onPresenterFailure: { failure, current in
                    failed(failure)
                    return current
                })
            return (runtime, .terminal)
        case .lines(let tail):
            let mode = drawing.mode
            // run --output tail: the command's last lines below the presenter's rows.
            let tailRows = mode == .terminal ? tail : 0
            // A presenter that draws in one row (PRESENTER_CAP_ONE_ROW) gets one.
            let presenterRows = presenter.plugins[0].capabilities.contains(.oneRow) ? 1 : 5
            let backend: RenderBackend =
                mode == .plain
                ? PlainBackend(fd: .standardError, unicode: unicode)
                : TerminalBackend(
                    fd: .standardError, regionRows: presenterRows + tailRows, color: color, unicode: unicode,
                    terminalProgress: TerminalProgress.isWanted(presentation.terminalProgress, environment: environment)
                )
            let runtime = PresenterRuntime(
                registry: registry, backend: backend, options: options, reservedRows: tailRows,
                isolation: isolation, tracing: EngineNote.tracingEnabled(environment), log: logSink,
                onPresenterFailure: { failure, current in
                    Self.fallBack(after: failure, from: current, unicode: unicode, log: log)
                })
            if mode == .terminal { log.show(above: runtime) }
            return (runtime, mode)
        }
    }

    /// The options presenters read through `option()` (see docs/ABI.md).
    static func pluginOptions(minShow: Double, grace: Double) -> [String: String] {
        [
            "failure-hold-ms": "3000",
            "outcome-limit-ms": milliseconds(outcomeLimit),
            "min-show-ms": milliseconds(minShow),
            "grace-ms": milliseconds(grace),
        ]
    }

    /// The flag that sets each key of ``pluginOptions(minShow:grace:)``
    /// a user may change (the others none does): a user's option with one
    /// of those names, for any presenter, is refused, and the refusal
    /// names the flag (``SettingsFile/keyProblem(_:)``).
    static let hostOptionFlags = ["min-show-ms": "--min-show", "grace-ms": "run's --grace"]

    /// `seconds` as whole milliseconds, within 0...``PresentationOptions/longestHold``
    /// whatever the caller set (the library's options are not parsed).
    static func milliseconds(_ seconds: Double) -> String {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), PresentationOptions.longestHold)
        return String(Int((bounded * 1000).rounded()))
    }

    /// A presenter failed for good: the terminal region is taken off (the
    /// cursor and echo restored), one line says what happened, and plain
    /// lines take over. The work is not touched.
    static func fallBack(
        after failure: PresenterFailure, from current: RenderBackend, unicode: Bool,
        log: RunLog
    ) -> RenderBackend {
        current.finish()
        let plain = current as? PlainBackend
        // One line in both modes: in plain mode the progress lines go on too.
        // Escaped: the failure names the presenter and quotes what its process said.
        let line = PrintableText.escaping("presenter-host: \(failure); going on with plain progress lines")
        PresenterHostCommand.writeStandardError(line + "\n")
        log.record(line)
        return plain ?? PlainBackend(fd: .standardError, unicode: unicode)
    }
}
