import HostPlugins
import HostSystem

extension PresenterProcess {
    // Failures: each kills and reaps the process (unless done) and gives the failure to throw.

    /// The channel reached its end: the process ended, or closed it (then it
    /// is killed after the hook budget, for breaking the protocol).
    func ended(_ hook: String?) -> PresenterFailure {
        guard case .running(let running) = state else { return fail(hook: hook, .couldNotStart("it was closed")) }
        let (termination, killed, records) = end(running, waitingUpTo: configuration.hookTimeout)
        let reason: PresenterFailure.Reason
        if killed {
            reason = .protocolViolation("closed its connection to the host")
        } else {
            reason = Self.reason(for: termination, records: records)
        }
        return fail(hook: hook, reason)
    }

    /// Why a process that ended on its own ended (its sandbox's reports read).
    static func reason(
        for termination: ChildProcess.Termination, records: [ConfinementViolation.Record]
    ) -> PresenterFailure.Reason {
        switch ConfinementViolation.Ending(termination, records: records) {
        case .stopped(let violation): .stopped(violation)
        case .signaled(let signal): .crashed(signal: signal)
        case .exited(let status): .exited(status: status)
        }
    }

    func hung(_ hook: String?) -> PresenterFailure {
        let long = (hook == "start" || hook == "load") && hurryLock.withLock({ hurriedAt }) == nil
        let budget = long ? configuration.startTimeout : configuration.hookTimeout
        return fail(hook: hook, .hung(milliseconds: Int((budget * 1000).rounded())))
    }

    func violation(_ hook: String?, _ detail: String) -> PresenterFailure {
        fail(hook: hook, .protocolViolation(detail))
    }

    /// Records `reason` as the end of the process, killing and reaping it
    /// (at once) unless that was done, and returns the failure to throw.
    func fail(hook: String?, _ reason: PresenterFailure.Reason) -> PresenterFailure {
        let failure = PresenterFailure(presenterId: currentPresenter, hook: hook, reason: reason)
        if case .running(let running) = state { end(running, waitingUpTo: 0) }
        state = .failed(failure)
        pending = []
        return failure
    }

    /// Closes the channel (the process exits when it reads its end), waits
    /// up to `seconds` for it, kills it and what it started (its process
    /// group) if need be, reaps it, and drains what it printed and what its
    /// sandbox reported.
    @discardableResult
    func end(
        _ running: Running, waitingUpTo seconds: Double
    ) -> (ChildProcess.Termination, killed: Bool, records: [ConfinementViolation.Record]) {
        state = .closed
        running.channel.close()
        let (termination, killed) = ProcessExit.end(running.pid, waitingUpTo: seconds, group: true)
        let records = ConfinementViolation.read(running.violations)
        try? running.violations.close()
        running.pump.finish()
        running.printed.finish()
        return (termination, killed, records)
    }
}
