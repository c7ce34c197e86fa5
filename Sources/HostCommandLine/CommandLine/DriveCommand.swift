import Glibc
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem

/// `presenter-host drive`: shows the actions that JSON lines start and end
/// (``DriveRequest``), from stdin or, with `--socket`, from any number of
/// clients at once, on one view with the chosen presenter. While it runs,
/// an action's outcome shows for the presenter's time (the program goes
/// on); at the end it returns at once, the last action's outcome left on
/// the screen as a run's is.
package enum DriveCommand {
    /// Runs `drive` with its options (the plugin options given before the
    /// word `drive` among them); returns how the host ends: its exit
    /// status, or, when a signal ended a drive from stdin, that signal
    /// (``ProcessEnd/killed(by:)``), once the terminal is given back.
    static func execute(_ options: DriveOptions, environment: [String: String]) -> ProcessEnd.Status {
        do {
            return try drive(options, environment: environment)
        } catch {
            return .exit(PresenterHostCommand.report(error))
        }
    }

    private static func drive(
        _ options: DriveOptions, environment: [String: String]
    ) throws(CommandError) -> ProcessEnd.Status {
        let session = try PresenterSession(options.presentation, on: .standardError(), environment: environment)
        defer { session.end() }
        // The end: stdin's end, or a signal. Trapped by the session before
        // the socket is bound: a SIGTERM while the presenter starts must
        // not kill the driver by default and leave its socket file behind.
        let ending = DriveEnding()
        let finish = ending.finish
        return try session.show(interrupted: { finish($0.signal) }) { stage throws(CommandError) in
            let runtime = stage.runtime
            let server = try listen(on: options.socket)
            let screenlet: Screenlet
            do throws(CommandError) {
                screenlet = try runtime.attachForCommand(
                    ScreenletView(progressMessages: session.messages.map(\.progressMessages) ?? [:]),
                    presenter: session.presenter)
            } catch {
                server?.stop()
                throw error
            }
            let actions = DriveSession(screenlet: screenlet) { line in
                // In order with the presenter's lines (above the region in a terminal).
                if runtime.printAbove(line + "\n") { return }
                PresenterHostCommand.writeStandardError(line + "\n")
            }

            let stdinClient = DriveClient(name: "stdin", session: actions)
            if let server {
                server.start(session: actions)
            } else {
                DetachedThread.start(name: "drive-stdin") {
                    do throws(Errno) {
                        try FileDescriptor.standardInput.readLines(limit: DriveClient.longestLine) {
                            stdinClient.receive($0)
                        }
                    } catch {
                        // Not the end of input: said so, and the status is 1.
                        actions.failedToRead(
                            "Error: stdin: cannot read it (\(errnoText(error.code))); the actions still running fail")
                    }
                    finish(nil)
                }
            }
            let signal = ending.wait()
            // Every action still open fails: the driver went away.
            if let server { server.stop() } else { stdinClient.wentAway() }

            // At once: the last action's outcome stays as its final look, unless
            // a signal ended a stdin driver (a socket driver ends by a signal as
            // a matter of course).
            runtime.shutdown(keepingOutcome: signal == nil || server != nil)
            // A socket driver's end is a signal, as a service's: its status is its actions'.
            if let signal, server == nil { return .signal(signal) }
            let outcomes = actions.outcomes
            return .exit(
                outcomes.failed == 0 && !outcomes.readFailed ? ExitCode.success.rawValue : ExitCode.failure.rawValue)
        }
    }

    /// The `--socket` server, listening, or nil to read stdin.
    private static func listen(on socket: String?) throws(CommandError) -> DriveServer? {
        try socket.map { path throws(CommandError) in
            do throws(DriveServer.ListenFailure) {
                return try DriveServer(path: path)
            } catch {
                throw .cannotCreate(error.message)
            }
        }
    }
}

/// How a drive ends: stdin's end (no signal) or the first signal, whichever
/// comes first, reported from any thread.
private final class DriveEnding: Sendable {
    private struct State {
        var ended = false
        var interruption: Int32?
    }
    private let state = ConditionLock(State())

    func finish(_ signal: Int32?) {
        state.withLock {
            if $0.interruption == nil { $0.interruption = signal }
            $0.ended = true
        }
        state.broadcast()
    }

    /// Blocks until ``finish(_:)``; the first signal, or nil for stdin's end.
    func wait() -> Int32? {
        state.withLock(waitingUntil: { $0.ended }) { state, _ in state.interruption }
    }
}
