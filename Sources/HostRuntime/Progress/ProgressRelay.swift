import Dispatch
import HostSystem

/// Where a command's progress reports go: its interactor once there is one.
/// In a terminal the interactor is made after the command started, so what
/// comes before is merged and handed over then. Any thread.
package final class ProgressRelay: Sendable {
    private struct State {
        var handle: InteractorHandle?
        var pending: ProgressReport?
        /// Hears of every report as it comes (`--events`), one at a time.
        let observer: ((ProgressReport) -> Void)?
    }

    private let state: LockedValue<State>

    package init(observer: sending ((ProgressReport) -> Void)? = nil) {
        state = LockedValue(State(observer: observer))
    }

    /// Passes `report` on, or keeps it for ``attach(_:)``.
    package func deliver(_ report: ProgressReport) {
        state.withLock { state in
            state.observer?(report)
            if let handle = state.handle {
                handle.report(report)
            } else {
                state.pending = state.pending?.merged(with: report) ?? report
            }
        }
    }

    /// From now on reports go to `handle`; what came before goes first.
    package func attach(_ handle: InteractorHandle) {
        state.withLock { state in
            state.handle = handle
            if let report = state.pending { handle.report(report) }
            state.pending = nil
        }
    }
}

extension InteractorHandle {
    /// Passes on what `report` says, its counts with it.
    fileprivate func report(_ given: ProgressReport) {
        report(fraction: given.fraction, counts: given.counts.map { ($0.done, $0.total) }, message: given.message)
    }
}
