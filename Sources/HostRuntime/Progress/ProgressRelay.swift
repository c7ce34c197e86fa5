import Dispatch
import HostSystem

/// Where a command's progress reports go: its interactor once there is one.
/// In a terminal the interactor is made after the command started, so what
/// comes before is merged and handed over then. Any thread.
// Safe: `handle` and `pending` only under `lock`; the observer is immutable.
package final class ProgressRelay: @unchecked Sendable {
    private let lock = Lock()
    private var handle: InteractorHandle?
    private var pending: ProgressReport?
    /// Hears of every report as it comes (`--events`).
    private let observer: ((ProgressReport) -> Void)?

    package init(observer: ((ProgressReport) -> Void)? = nil) {
        self.observer = observer
    }

    /// Passes `report` on, or keeps it for ``attach(_:)``.
    package func deliver(_ report: ProgressReport) {
        lock.withLock {
            observer?(report)
            if let handle {
                handle.report(fraction: report.fraction, message: report.message)
            } else {
                pending = pending?.merged(with: report) ?? report
            }
        }
    }

    /// From now on reports go to `handle`; what came before goes first.
    package func attach(_ handle: InteractorHandle) {
        lock.withLock {
            self.handle = handle
            if let report = pending { handle.report(fraction: report.fraction, message: report.message) }
            pending = nil
        }
    }
}
