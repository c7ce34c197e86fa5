import HostEngine
import HostPlugins
import HostSandbox

/// What ``ConformanceSuite`` tells a plugin's author to change, for a
/// presenter process that ended, hung or was stopped by the sandbox.
extension ConformanceSuite {
    /// What to change, for a plugin the sandbox stopped.
    static func sandboxFix(_ violation: ConfinementViolation) -> String {
        "remove the \(violation.call) call: a presenter only draws, with the host's services (docs/ABI.md, \"What a presenter may do, and what it may not\")"
    }

    /// What to change, for a presenter process that ended or hung; `host`
    /// is the `presenter-host` command line that finds the presenter.
    static func fix(for failure: PresenterFailure, budget: Double, host: String) -> String {
        switch failure.reason {
        case .crashed:
            return
                "see where it crashes, in presenter-host's own process: gdb -ex run -ex bt --args \(host) run --in-process --presenter \(failure.presenterId) -- sleep 1"
        case .exited:
            return "never call exit() or _exit() in a plugin; return an error status instead"
        case .hung:
            return
                "return from every hook within \(Int(budget * 1000)) ms: never block, sleep or wait; animate with request_frame"
        case .createFailed:
            return "create must succeed whenever memory can be had; set_error says why it did not"
        case .protocolViolation:
            return "log at most a few lines a hook and draw within the view"
        case .couldNotStart:
            return "see why it does not load: \(host) --list -v"
        case .stopped(let violation):
            return sandboxFix(violation)
        case .sandboxIncomplete:
            return
                "run check where every layer of the sandbox is in force (presenter-host --sandbox-info), or without --sandbox require"
        }
    }
}
