import Glibc
import HostRuntime
import HostSystem

/// `run`'s signal policy: what an interrupting signal and Ctrl-Z do to
/// the command (see ``RunSession``; the session traps them and takes the
/// view off and back around a stop).
extension RunSession {
    /// On the signals' queue. Once the command has ended its status stands:
    /// a signal then only cuts `--linger`'s wait short (the session's settle).
    func interrupted(by event: SignalTrap.Event) {
        state.withLock { state in
            if state.ended { return }
            if state.interruption == nil {
                state.interruption = event.signal
                // From the terminal, the whole foreground group already has it.
                // Frozen while the tree is read: a process forking just then
                // would otherwise have children no scan saw, which outlive
                // the run (the soak's seed 1459062025, run 131).
                if !event.fromTerminal { state.child?.sendToTree(event.signal, freeze: true) }
            } else {
                state.child?.sendToTree(SIGKILL, freeze: true)
            }
        }
    }

    /// On the signals' queue, for a Ctrl-Z sent to the host alone: SIGTSTP
    /// to the command before the view goes (the presenter must not delay
    /// its stop), SIGCONT once the host is continued: what we stopped.
    func passOn(_ signal: Int32) {
        state.withLock { _ = $0.child?.sendToTree(signal, freeze: false) }
    }
}
