import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Writes the host's last terminal bytes again when a Ctrl-C, Ctrl-\ or
/// Ctrl-Z comes after them.
///
/// When the terminal's line discipline turns one of those keys into a
/// signal it also discards the output it has not yet handed to the
/// terminal emulator (POSIX: unless `NOFLSH` is set, which is the user's
/// setting, not ours). A key typed just as the host ends can so throw away
/// the very bytes that gave the cursor back, and leave the user's shell
/// with an invisible cursor. The discarding happens before the signal is
/// delivered, so bytes written by the signal handler stay: once
/// ``armed(terminal:clearsTerminalProgress:)`` is called (the region is
/// gone for good), ``SignalTrap``'s handler calls ``signalArrived(_:)``,
/// which shows the cursor again (and clears OSC 9;4). Both are idempotent.
///
/// A key typed after the host has exited can still discard them: no
/// process is left to write them again (a terminal emulator reads its
/// output at once, so that window is short).
package enum TerminalFlushRepair {
    /// The terminal to write to, or -1 while not armed. An atomic: the
    /// signal handler reads it, and a lock is not async-signal-safe.
    private static let terminal = Atomic<Int32>(-1)
    private static let clearsProgress = Atomic<Bool>(false)

    /// From now on, a signal sent by one of those keys writes the cursor's
    /// `show` (and, with `clearsTerminalProgress`, the clearing of OSC 9;4)
    /// to `terminal` again.
    package static func armed(terminal fd: FileDescriptor, clearsTerminalProgress: Bool) {
        clearsProgress.store(clearsTerminalProgress, ordering: .relaxed)
        terminal.store(fd.rawValue, ordering: .releasing)
    }

    /// Whether a signal from one of those keys would write to `fd` again now.
    package static func isArmed(on fd: FileDescriptor) -> Bool {
        terminal.load(ordering: .acquiring) == fd.rawValue
    }

    /// Nothing is written again any more: a region is drawn again (its
    /// cursor must stay hidden), or the trap is gone.
    package static func disarm() {
        terminal.store(-1, ordering: .releasing)
    }

    /// Makes the state exist before a signal handler can read it: Swift
    /// initialises a static on first use, under a lock a handler must not take.
    static func prepare() {
        _ = terminal.load(ordering: .relaxed)
        _ = clearsProgress.load(ordering: .relaxed)
    }

    /// Called in signal context by ``SignalTrap``'s handler for a signal the
    /// terminal sent (`SI_KERNEL`: a kill(2) from elsewhere discards nothing).
    /// Async-signal-safe: raw writes of bytes on the stack.
    static func signalArrived(_ signal: Int32) {
        guard signal == SIGINT || signal == SIGQUIT || signal == SIGTSTP else { return }
        let fd = terminal.load(ordering: .acquiring)
        // Only the foreground job may write when TOSTOP is set (SIGTTOU would stop us here).
        guard fd >= 0, tcgetpgrp(fd) == getpgrp() else { return }
        showCursor(on: fd, clearingTerminalProgress: clearsProgress.load(ordering: .relaxed))
    }

    /// Writes OSC 9;4's clearing (with `clearingTerminalProgress`) and the
    /// cursor's `show` to `fd`: the bytes a handler gives a terminal back
    /// with (``CrashRescue`` too). Async-signal-safe: raw writes of bytes on
    /// the stack.
    static func showCursor(on fd: Int32, clearingTerminalProgress: Bool) {
        if clearingTerminalProgress {
            // ESC ] 9 ; 4 ; 0 ESC \ : the terminal's own progress, cleared.
            var clear: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0x1b, 0x5d, 0x39, 0x3b, 0x34, 0x3b, 0x30, 0x1b, 0x5c)
            _ = withUnsafeBytes(of: &clear) { write(fd, $0.baseAddress, $0.count) }
        }
        // ESC [ ? 2 5 h
        var show: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0x1b, 0x5b, 0x3f, 0x32, 0x35, 0x68)
        _ = withUnsafeBytes(of: &show) { write(fd, $0.baseAddress, $0.count) }
    }
}
