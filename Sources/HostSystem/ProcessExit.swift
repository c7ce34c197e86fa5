import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// Waiting, with a time limit, for a helper process the host started (the
/// scan helper, the presenter process) to end, and reaping it.
package enum ProcessExit {
    /// Waits up to `seconds` for `pid` to end, then kills it (SIGKILL), and
    /// reaps it. Returns how it ended, and whether it had to be killed.
    /// With `group`, whatever is left in its process group (which it leads:
    /// what a plugin started) is killed too, before the leader is reaped so
    /// that the group's number cannot have been reused.
    package static func end(_ pid: pid_t, waitingUpTo seconds: Double, group: Bool = false) -> (
        ChildProcess.Termination, killed: Bool
    ) {
        var killed = false
        if !waitForExit(pid, upTo: seconds) {
            Glibc.kill(pid, SIGKILL)
            killed = true
            // A process stuck in the kernel may take a moment to die; one that
            // never does is left to init rather than hang the host.
            _ = waitForExit(pid, upTo: 2)
        }
        if group { Glibc.kill(-pid, SIGKILL) }
        return (reap(pid) ?? .signaled(SIGKILL), killed)
    }

    /// Kills `pid` and what is left of its process group (SIGKILL), without
    /// waiting: for a process whose work will not be seen any more. The
    /// caller reaps it still (``end(_:waitingUpTo:group:)``, which then
    /// finds it gone), and must not have reaped it yet: a reaped number may
    /// be someone else's.
    package static func kill(_ pid: pid_t) {
        Glibc.kill(pid, SIGKILL)
        Glibc.kill(-pid, SIGKILL)
    }

    /// Waits up to `seconds` for `pid` to end, without reaping it (it stays
    /// a zombie, its pid and group number ours). Sleeps in `poll` on a pidfd,
    /// so it wakes the moment the process ends (a short sleep loop where
    /// there is no pidfd).
    private static func waitForExit(_ pid: pid_t, upTo seconds: Double) -> Bool {
        if hasExited(pid) { return true }
        let deadline = MonotonicTime.nanoseconds() &+ UInt64(max(0, seconds) * 1e9)
        let pidfd = ph_pidfd_open(pid)
        let exit = pidfd >= 0 ? FileDescriptor(rawValue: pidfd) : nil
        defer { try? exit?.close() }
        while true {
            let now = MonotonicTime.nanoseconds()
            guard now < deadline else { return hasExited(pid) }
            let milliseconds = Int32(min((deadline - now) / 1_000_000 + 1, 60_000))
            if let exit {
                _ = try? exit.wait(for: .input) { milliseconds }
            } else {
                usleep(UInt32(min(milliseconds, 2)) * 1000)
            }
            if hasExited(pid) { return true }
        }
    }

    /// A pidfd of `pid`: readable once it ends, for a caller that waits on
    /// it among other descriptors; nil where the kernel has none (before
    /// Linux 5.3). The caller closes it.
    package static func exitDescriptor(of pid: pid_t) -> FileDescriptor? {
        let fd = ph_pidfd_open(pid)
        return fd >= 0 ? FileDescriptor(rawValue: fd) : nil
    }

    /// True once `pid` has ended (or is not our child any more), without
    /// reaping it.
    package static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        guard
            (try? retryingOnInterrupt("waitid") { waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) }) != nil
        else { return true }
        return info._sifields._sigchld.si_pid == pid
    }

    /// Reaps `pid` if it has ended. A pid someone else reaped (SIGCHLD
    /// ignored) counts as ended with status 0.
    private static func reap(_ pid: pid_t) -> ChildProcess.Termination? {
        var status: Int32 = 0
        let result = try? retryingOnInterrupt("waitpid") { waitpid(pid, &status, WNOHANG) }
        if result == pid { return ChildProcess.Termination(waitStatus: status) }
        return result == 0 ? nil : .exited(0)
    }
}
