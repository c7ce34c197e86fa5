import SystemShims
#if canImport(Glibc)
import Glibc
#endif

/// Waiting, with a time limit, for a helper process the host started (the
/// scan helper, the presenter process) to end, and reaping it.
enum ProcessExit {
    /// Waits up to `seconds` for `pid` to end and reaps it; `nil` when it
    /// is still running then. Sleeps in `poll` on a pidfd, so it wakes the
    /// moment the process ends (a short sleep loop where there is no pidfd).
    static func wait(_ pid: pid_t, upTo seconds: Double) -> ChildProcess.Termination? {
        if let ended = reap(pid) { return ended }
        let deadline = MonotonicClock().now() &+ UInt64(max(0, seconds) * 1e9)
        let pidfd = ph_pidfd_open(pid)
        defer { if pidfd >= 0 { close(pidfd) } }
        while true {
            let now = MonotonicClock().now()
            guard now < deadline else { return reap(pid) }
            let milliseconds = Int32(min((deadline - now) / 1_000_000 + 1, 60_000))
            if pidfd >= 0 {
                var waiter = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
                _ = poll(&waiter, 1, milliseconds)
            } else {
                usleep(UInt32(min(milliseconds, 2)) * 1000)
            }
            if let ended = reap(pid) { return ended }
        }
    }

    /// Waits up to `seconds`, then kills `pid` (SIGKILL) and reaps it.
    /// Returns how it ended, and whether it had to be killed.
    static func end(_ pid: pid_t, waitingUpTo seconds: Double) -> (ChildProcess.Termination, killed: Bool) {
        if let ended = wait(pid, upTo: seconds) { return (ended, false) }
        kill(pid, SIGKILL)
        // A process stuck in the kernel may take a moment to die; one that
        // never does is left to init rather than hang the host.
        return (wait(pid, upTo: 2) ?? .signaled(SIGKILL), true)
    }

    /// Reaps `pid` if it has ended. A pid someone else reaped (SIGCHLD
    /// ignored) counts as ended with status 0.
    private static func reap(_ pid: pid_t) -> ChildProcess.Termination? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return ChildProcess.Termination(waitStatus: status) }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            return .exited(0)
        }
    }
}
