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
        case couldNotStart(StartFailure)
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
        case .couldNotStart(let failure):
            return "\(name) could not be started: \(failure)"
        case .stopped(let violation):
            return "\(name) was stopped\(place): it tried to \(violation.attempt) (presenters may not)"
        case .sandboxIncomplete(let lacking):
            return
                "\(name) was not run: the sandbox is incomplete here (\(lacking)) and --sandbox=require runs third-party presenters only with every layer"
        }
    }
}

/// Why a presenter could not be started, as data: the host's check of a
/// plugin file, the presenter process's own refusal (which comes over the
/// protocol as data too), or its process not starting. Put in words here,
/// at the edge, where users read them.
public enum StartFailure: Equatable, Sendable, CustomStringConvertible {
    /// A plugin file did not load: the host's check of it, or the presenter
    /// process's load of the sealed copy.
    case file(PluginLoadError)
    /// The file at `path` loads, but holds no usable presenter `id` where
    /// resolution found it (it changed, or the process says so).
    case presenterMissing(path: String, id: String)
    /// The process could not be started: why, as the host's spawn says it.
    case launch(String)
    /// The engine was closed before.
    case closed

    /// One line, what a plugin chose in it escaped: `/p/libx.so: ...`.
    public var description: String {
        switch self {
        case .file(let error): return error.description
        case .presenterMissing(let path, let id):
            return PrintableText.escaping("\(path) has no usable presenter '\(id)'")
        case .launch(let reason): return reason
        case .closed: return "it was closed"
        }
    }
}
