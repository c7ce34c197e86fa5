import HostRuntime
import HostSystem

/// What every source of driver lines shares: the view the actions run on,
/// where errors go, and how the actions ended. Any thread.
final class DriveSession: Sendable {
    /// The interactor type presenters are told about.
    static let interactorType = "DriverInteractor"

    let screenlet: Screenlet
    private let printError: @Sendable (String) -> Void
    private let counts = LockedValue((succeeded: 0, failed: 0, readFailed: false))

    /// `printError` shows one error line (above the region in a terminal).
    init(screenlet: Screenlet, printError: @escaping @Sendable (String) -> Void) {
        self.screenlet = screenlet
        self.printError = printError
    }

    /// Shows `line` (an `Error: ...` line) on stderr.
    func error(_ line: String) { printError(line) }

    /// Shows `line`, which says why a source could not be read: the
    /// actions may have lost lines, so the exit status is 1.
    func failedToRead(_ line: String) {
        counts.withLock { $0.readFailed = true }
        printError(line)
    }

    /// Counts an action's end.
    func ended(success: Bool) {
        counts.withLock { if success { $0.succeeded += 1 } else { $0.failed += 1 } }
    }

    /// How many actions succeeded and failed so far, and whether a source
    /// could not be read.
    var outcomes: (succeeded: Int, failed: Int, readFailed: Bool) {
        counts.withLock { $0 }
    }
}
