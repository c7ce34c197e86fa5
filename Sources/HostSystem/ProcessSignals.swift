#if canImport(Glibc)
    import Glibc
#endif

/// The host's process-wide signal calls that are not a ``SignalTrap``:
/// ignoring SIGPIPE, stopping itself, signalling a process it started. One
/// place for each, so the reason is written once and `scripts/layers` can
/// hold every other folder to it.
package enum ProcessSignals {
    /// Ignores SIGPIPE for the rest of the process's life: a write to a pipe
    /// or socket whose reader went away then fails with EPIPE, which the
    /// writer handles (a closed stdout must not kill the host before it has
    /// restored the terminal), instead of ending the host. Spawned commands
    /// get SIGPIPE's default back (``Spawn``'s default signals).
    package static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Stops the host as Ctrl-Z would (SIGSTOP), and returns once it is
    /// continued. `raise`, not `kill(getpid())`: a signal to the process may
    /// be taken by another thread, and this one would run on (and draw again)
    /// for a moment before the stop reaches it; one to this thread stops it
    /// before `raise` returns.
    package static func stopUntilContinued() {
        raise(SIGSTOP)
    }

    /// Sends `signal` to `pid`, a child the host started and has not reaped
    /// yet (so the number cannot belong to another process). A child that
    /// already ended is no error: it is reaped elsewhere.
    package static func send(_ signal: Int32, to pid: pid_t) {
        _ = kill(pid, signal)
    }
}
