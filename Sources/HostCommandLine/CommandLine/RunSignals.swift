import FoundationEssentials
import Glibc
import HostRuntime
import HostSystem

/// `run`'s signal policy: its set-up, and what an interrupting signal and
/// Ctrl-Z do to the command and the presenter (see ``RunSession``).
extension RunSession {
    /// Makes SIGPIPE harmless, arms the crash rescue, and traps the
    /// signals of a run until the trap is cancelled. Shuts `runtime` down
    /// when the trap's pipe cannot be made.
    func trapSignals(for runtime: PresenterRuntime, mode: BackendFactory.Mode) throws(CommandError) -> SignalTrap {
        // A closed stdout or stderr must not kill the host before it has
        // restored the terminal; the child gets SIGPIPE's default back.
        ProcessSignals.ignoreBrokenPipe()
        CrashRescue.install(
            terminal: mode == .terminal ? .standardError : nil,
            terminalProgress: TerminalProgress.isWanted(options.terminalProgress, environment: environment))
        do throws(Errno) {
            return try SignalTrap(queue: control) {
                [self] event in
                if event.signal == SIGTSTP { suspend(runtime, for: event) } else { interrupted(by: event) }
            }
        } catch {
            runtime.shutdown()
            throw .startUpPipe("the signal pipe", error)
        }
    }

    /// On the control queue.
    func interrupted(by event: SignalTrap.Event) {
        condition.withLock {
            if ended {
                cutShort = true
                condition.broadcast()
            } else if interruption == nil {
                interruption = event.signal
                // From the terminal, the whole foreground group already has it.
                // Frozen while the tree is read: a process forking just then
                // would otherwise have children no scan saw, which outlive
                // the run (the soak's seed 1459062025, run 131).
                if !event.fromTerminal { child?.sendToTree(event.signal, freeze: true) }
            } else {
                child?.sendToTree(SIGKILL, freeze: true)
            }
        }
    }

    /// On the control queue, for Ctrl-Z: gives the terminal back clean (no
    /// region, cursor shown, echo on), stops the host as the shell expects,
    /// and draws the view again once it is continued (`fg`, `bg`).
    func suspend(_ runtime: PresenterRuntime, for event: SignalTrap.Event) {
        // From the terminal, the command was stopped with us; else pass it on
        // first (the presenter must not delay the command's stop), and
        // continue what we stopped when we are continued.
        let forward = !event.fromTerminal
        if forward { condition.withLock { _ = child?.sendToTree(SIGTSTP, freeze: false) } }
        runtime.suspend()
        // Unless a SIGCONT came meanwhile (`kill -TSTP` then `-CONT` at once).
        SignalTrap.stopForSuspend()
        runtime.resume()
        if forward { condition.withLock { _ = child?.sendToTree(SIGCONT, freeze: false) } }
    }
}
