import HostPlugins
import HostSandbox
import HostSystem

extension PresenterProcess {
    // Ending the process on a failure. What failed is a value
    // (``PresenterFailure/Reason``); ending the process is an action, named
    // as one: `stop` and `reapEnded` kill and reap it (unless that was
    // done), record the failure and return it to throw.

    /// Reaps the process whose channel reached its end: it ended, or it
    /// closed the channel (then it is killed after the hook budget, for
    /// breaking the protocol). Records why, and returns the failure to throw.
    func reapEnded(in hook: Hook?) -> PresenterFailure {
        guard case .running(let running) = state else { return stop(in: hook, .couldNotStart(.closed)) }
        do throws(PresenterFailure) {
            try confirmExec()
        } catch {
            return error
        }
        let (termination, killed, records) = end(running, waitingUpTo: configuration.hookTimeout)
        let reason: PresenterFailure.Reason
        if killed {
            reason = .protocolViolation(.closedConnection)
        } else {
            reason = Self.reason(for: termination, records: records)
        }
        return stop(in: hook, reason)
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

    /// The reason for a process that did not answer `hook` in time: the
    /// budget it had (a start or a loading gets the longer one until the
    /// run hurries).
    func hang(in hook: Hook?) -> PresenterFailure.Reason {
        let long = hook?.isStartUp == true && hurriedAt.withLock({ $0 }) == nil
        let budget = long ? configuration.startTimeout : configuration.hookTimeout
        return .hung(milliseconds: Int((budget * 1000).rounded()))
    }

    /// Waits, the first time, until the process has exec'd (it was only
    /// forked, so that no one waited for it: ``PresenterProcessLaunch``); a
    /// process that could not exec (presenter-host-plugins missing, say)
    /// stops it with the reason.
    /// The wait is a start's: its budget, or, once the run is ending
    /// (``hurry``), one hook budget from then, looked at every 50 ms.
    func confirmExec() throws(PresenterFailure) {
        guard let beginning = unconfirmedExec else { return }
        let since = Self.now()
        while true {
            let hurried = hurriedAt.withLock { $0 }.map { $0 + configuration.hookTimeout } ?? .infinity
            let left = min(since + configuration.startTimeout, hurried) - Self.now()
            guard left > 0 else { throw stop(in: .start, hang(in: .start)) }
            let slice = Int32(min(left, 0.05) * 1000) + 1
            // Its end (HUP) or a report; a descriptor that cannot be waited
            // on is read at once, and its read says why.
            guard let ready = try? beginning.report.wait(for: .input, milliseconds: { slice }) else { break }
            if !ready.isEmpty { break }
        }
        unconfirmedExec = nil
        if case .failure(let error) = beginning.end() {
            throw stop(
                in: nil,
                .couldNotStart(.launch("cannot run \(configuration.executable): \(errnoText(error.code))")))
        }
    }

    /// Stops the process for `reason`, which happened in `hook`: kills and
    /// reaps it (at once) unless that was done, records the failure as its
    /// end, and returns the failure to throw.
    func stop(in hook: Hook?, _ reason: PresenterFailure.Reason) -> PresenterFailure {
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
        // Reaped below: no longer a number to kill.
        dismissal.withLock { $0.pid = nil }
        try? unconfirmedExec?.report.close()
        unconfirmedExec = nil
        running.channel.close()
        let (termination, killed) = ProcessExit.end(running.pid, waitingUpTo: seconds, group: true)
        let records = ConfinementViolation.read(running.violations)
        try? running.violations.close()
        running.pump.finish()
        running.printed.finish()
        return (termination, killed, records)
    }
}
