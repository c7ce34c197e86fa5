import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// How this process ends: normally, at once, killed by a signal, or with
/// its parent. The helpers the host starts (the scan helper, the presenter
/// process) end at once, since plugin code they loaded may hang or crash in
/// an exit handler or a destructor after the last report; the host itself
/// ends normally, its buffered output written, or, when a signal ended
/// what it ran, dies of that signal.
package enum ProcessEnd {
    /// How the host ends: with an exit status, or killed by a signal.
    package enum Status: Equatable, Sendable {
        /// `exit(status)`.
        case exit(Int32)
        /// Killed by this signal (``killed(by:)``).
        case signal(Int32)

        /// What a shell's `$?` says of it: the exit status, or 128 + the signal.
        package var shellStatus: Int32 {
            switch self {
            case .exit(let status): return status
            case .signal(let signal): return 128 + signal
            }
        }
    }

    /// Ends the process as `status` says (``normally(_:)`` or ``killed(by:)``).
    package static func with(_ status: Status) -> Never {
        switch status {
        case .exit(let code): normally(code)
        case .signal(let signal): killed(by: signal)
        }
    }

    /// Ends the process with `status` as `exit(3)` does: the exit handlers
    /// run and C's buffered streams are written out.
    package static func normally(_ status: Int32) -> Never {
        exit(status)
    }

    /// Ends the process with `status` at once (`_exit`): no exit handler,
    /// no destructor of a loaded library, no buffered stream written.
    package static func immediately(_ status: Int32) -> Never {
        _exit(status)
    }

    /// Dies of `signal`, once the caller has cleaned up: its disposition set
    /// back to the default, unblocked, raised. This is the "wait and
    /// cooperative exit" rule shells rely on
    /// (https://www.cons.org/cracauer/sigint.html): a program that ends
    /// because of SIGINT must die of it, not exit 130, or a shell running it
    /// in a loop takes the Ctrl-C as handled and goes on with the loop.
    ///
    /// C's buffered streams are written out first, as `exit(3)` would. No
    /// core is dumped (RLIMIT_CORE set to 0, as timeout(1) does): the
    /// signal was the command's or the user's, and a core of the host would
    /// only fill the current directory. Should the process still be there
    /// (a signal whose default is not to end it), it exits with 128 + the
    /// signal, what a shell would have shown.
    package static func killed(by signal: Int32) -> Never {
        FileDescriptor.flushCStreams()
        ResourceLimit.cap(RLIMIT_CORE, at: 0)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        _ = sigaction(signal, &action, nil)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        // To this thread: the signal is handled before `raise` returns.
        raise(signal)
        exit(128 + signal)
    }

    /// Has the kernel send this process `signal` when the thread that
    /// started it ends (`prctl(PR_SET_PDEATHSIG)`): a helper then dies with
    /// the host, even one killed with SIGKILL. Set before checking that
    /// the parent is still there, or its death in between goes unseen.
    package static func withParent(signal: Int32) {
        _ = ph_set_parent_death_signal(signal)
    }
}
