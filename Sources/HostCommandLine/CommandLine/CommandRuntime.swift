import HostSystem
import Dispatch
import HostEngine
import HostPlugins
import HostRuntime
import HostText

/// The presenter runtime of a command that runs work with its progress on
/// stderr (`run`, `drive`, `add-bookmark --get-title` and `--add`): how it
/// is made, the options its presenters read, and what happens when its
/// presenter fails. The Add Bookmark screen makes its own, full-screen
/// (``AddBookmarkScreen``), with the same presenter options and isolation.
enum CommandRuntime {
    /// How long the presenter's outcome (the success or failure message)
    /// may stay once it shows, in seconds: where a command waits for the
    /// presenter to be done after the work (`run --linger`, add-bookmark's
    /// `--get-title` and `--add`), it waits at most `--min-show` + this, then
    /// ends whatever is drawn. Presenters get it as the `outcome-limit-ms`
    /// option. (`run` and `drive` do not wait: the outcome stays as a line.)
    static let outcomeLimit: Double = 5

    /// The runtime of a `run` (or of a `drive` or an `add-bookmark`, which
    /// share its presenter options) on stderr: a terminal region or plain
    /// lines, the presenter in its process (or in this one with
    /// `--in-process`), plain lines when it fails, the log above the
    /// region. Returns the mode too.
    static func make(
        registry: PresenterRegistry, options: RunOptions, environment: [String: String],
        log: RunLog, launch: PresenterProcessLaunch? = nil
    ) -> (PresenterRuntime, BackendFactory.Mode) {
        let unicode = TerminalEnvironment.isUnicode(environment)
        // Static (--static, ACCESSIBLE=1): plain lines even in a terminal.
        let accessible = options.staticMode || TerminalEnvironment.wantsStatic(environment)
        let mode = accessible ? .plain : BackendFactory.mode(for: .standardError, environment: environment)
        // --output tail: the command's last lines below the presenter's rows.
        let tailRows = mode == .terminal && options.output == .tail ? options.tailLines : 0
        let backend: RenderBackend =
            accessible
            ? PlainBackend(fd: .standardError, unicode: unicode)
            : BackendFactory.make(
                for: .standardError, environment: environment, colorMode: options.color,
                regionRows: 5 + tailRows, interactive: false,
                terminalProgress: TerminalProgress.isWanted(options.terminalProgress, environment: environment))
        let runtime = PresenterRuntime(
            registry: registry, backend: backend, options: pluginOptions(options), reservedRows: tailRows,
            isolation: isolation(options: options, launch: launch),
            log: log.isEnabled ? { log.write($0) } : nil,
            onPresenterFailure: { failure, current in
                fallBack(after: failure, from: current, unicode: unicode, log: log)
            })
        if mode == .terminal { log.show(above: runtime) }
        return (runtime, mode)
    }

    /// Where the presenters of a command with `options` run: in this
    /// process with `--in-process`, else in a presenter process (`launch`:
    /// one started ahead).
    static func isolation(options: RunOptions, launch: PresenterProcessLaunch? = nil) -> PresenterRuntime.Isolation {
        guard !options.inProcess else { return .inProcess }
        var configuration = presenterProcess(options: options)
        configuration.launch = launch
        return .presenterProcess(configuration)
    }

    /// How the presenter process of a command with `options` is started:
    /// also what `run` starts it with ahead (``PresenterProcessLaunch``).
    static func presenterProcess(options: RunOptions) -> PresenterProcess.Configuration {
        options.plugins.presenterProcess(
            hookTimeout: options.hookTimeout, environment: ProcessEnvironment.current)
    }

    /// The options presenters read through `option()` (see docs/ABI.md).
    static func pluginOptions(_ options: RunOptions) -> [String: String] {
        [
            "failure-hold-ms": "3000",
            "outcome-limit-ms": milliseconds(outcomeLimit),
            "min-show-ms": milliseconds(options.minShow),
            "grace-ms": milliseconds(options.grace),
        ]
    }

    /// `seconds` as whole milliseconds, within 0...``RunOptions/longestHold``
    /// whatever the caller set (the library's options are not parsed).
    static func milliseconds(_ seconds: Double) -> String {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), RunOptions.longestHold)
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
