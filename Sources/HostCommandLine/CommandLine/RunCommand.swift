import HostSystem
import Dispatch
import HostEngine
import HostPlugins

/// `presenter-host run`: runs a command as an action under a presenter.
///
/// The order matters: bad flags, a bad messages file and an unknown
/// presenter are reported before anything runs; the presenter is attached
/// before the command starts (so a presenter that cannot start runs nothing),
/// and a command that cannot be started shows no presenter at all.
package enum RunCommand {
    /// Runs `run` with its options (the plugin options given before the
    /// word `run` among them); returns how the host ends (see
    /// ``RunSession/ending(of:interruptedBy:timedOut:)``).
    static func execute(_ options: RunOptions, environment: [String: String]) -> ProcessEnd.Status {
        do {
            let session = try PresenterSession(
                options.presentation, on: .standardError(static: options.staticMode), environment: environment)
            defer { session.end() }
            let events = try RunEvents(path: options.eventsFile, log: session.log, environment: session.environment)
            return try RunSession(options: options, session: session).run(events: events)
        } catch {
            return .exit(PresenterHostCommand.report(error))
        }
    }
}
