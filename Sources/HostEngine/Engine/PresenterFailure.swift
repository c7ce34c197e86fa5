import HostPlugins
import HostSandbox
import HostSystem
import HostText

/// Why a presenter stopped for good: its process crashed, exited, hung or
/// broke the protocol, or it could not start. The host then goes on without
/// it (``PresenterRuntime`` takes it off the view; `run` prints plain lines).
public struct PresenterFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Reason: Equatable, Sendable {
        /// A signal killed the presenter process.
        case crashed(signal: Int32)
        /// The presenter process exited (a plugin called `exit`).
        case exited(status: Int32)
        /// A hook did not return within the budget, in milliseconds.
        case hung(milliseconds: Int)
        /// The presenter process sent something the protocol does not allow.
        case protocolViolation(ProtocolViolation)
        /// A create hook returned an error status, with its set_error message.
        case createFailed(status: Int32, message: String?)
        /// The presenter process could not be started or could not load the plugin.
        case couldNotStart(String)
        /// The sandbox stopped the presenter process: it tried what a
        /// presenter may not (SECURITY.md).
        case stopped(ConfinementViolation)
        /// Not run: `--sandbox=require` was given and the sandbox lacks a
        /// layer (what it lacks, ``ConfinementReport/summary``).
        case sandboxIncomplete(String)
    }

    /// The presenter the view chose (or, for a failed create, the one whose
    /// create failed, which may be a base).
    public var presenterId: String
    /// The hook that was running (`.show`, `.render`), or nil between hooks.
    public var hook: Hook?
    /// What happened, as data: the text is ``description``'s to build.
    public var reason: Reason

    /// A failure of `presenterId` in `hook` (nil: between hooks).
    public init(presenterId: String, hook: Hook?, reason: Reason) {
        self.presenterId = presenterId
        self.hook = hook
        self.reason = reason
    }

    /// One line: `presenter 'tp-bar' crashed in show (SIGSEGV)`.
    public var description: String {
        let name = "presenter '\(presenterId)'"
        let place = hook.map { " in \($0.rawValue)" } ?? ""
        switch reason {
        case .crashed(let signal):
            return "\(name) crashed\(place) (\(SignalName.of(signal)))"
        case .exited(let status):
            return "\(name) ended its process\(place) (exit status \(status))"
        case .hung(let milliseconds):
            return "\(name) did not answer \(hook?.rawValue ?? "the host") within \(milliseconds) ms"
        case .protocolViolation(let detail):
            return "\(name) broke the presenter protocol\(place): \(detail)"
        case .createFailed(let status, let message):
            let detail = message.flatMap { $0.isEmpty ? nil : PrintableText.escaping($0) } ?? "status \(status)"
            return "\(name) failed to start (create returned \(status)): \(detail)"
        case .couldNotStart(let detail):
            return "\(name) could not be started: \(detail)"
        case .stopped(let violation):
            return "\(name) was stopped\(place): it tried to \(violation.attempt) (presenters may not)"
        case .sandboxIncomplete(let lacking):
            return
                "\(name) was not run: the sandbox is incomplete here (\(lacking)) and --sandbox=require runs third-party presenters only with every layer"
        }
    }
}
