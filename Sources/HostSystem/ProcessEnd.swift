import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// How this process ends: normally, at once, or with its parent. The
/// helpers the host starts (the scan helper, the presenter process) end
/// at once, since plugin code they loaded may hang or crash in an exit
/// handler or a destructor after the last report; the host itself ends
/// normally, its buffered output written.
package enum ProcessEnd {
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

    /// Has the kernel send this process `signal` when the thread that
    /// started it ends (`prctl(PR_SET_PDEATHSIG)`): a helper then dies with
    /// the host, even one killed with SIGKILL. Set before checking that
    /// the parent is still there, or its death in between goes unseen.
    package static func withParent(signal: Int32) {
        _ = ph_set_parent_death_signal(signal)
    }
}
