import Glibc
import HostSystem

/// The end of a run, told from another thread than the presenter thread:
/// the waits for the process cut short (``hurry``), or the process let go
/// at once (``dismiss``).
extension PresenterProcess {
    /// Whether the run dismissed the process, and its number while it is
    /// ours to kill (``PresenterProcess/dismissal``).
    struct Dismissal {
        var dismissed = false
        /// Set once the process is taken, cleared before it is reaped.
        var pid: pid_t?
    }

    /// The run is ending: from now on, a start or a loading still under way
    /// gets only the hook budget. Any thread.
    package var hurry: @Sendable () -> Void {
        { [hurriedAt] in hurriedAt.withLock { $0 = $0 ?? PresenterProcess.now() } }
    }

    /// Kills the process now, or the one started ahead for it, or the one
    /// it starts later: whatever waits for it then fails at once. Any thread.
    package var dismiss: (@Sendable () -> Void)? {
        { [dismissal, launch = configuration.launch] in
            dismissal.withLock { dismissal in
                dismissal.dismissed = true
                if let pid = dismissal.pid { ProcessExit.kill(pid) }
            }
            launch?.kill()
        }
    }
}
