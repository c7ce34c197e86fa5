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
/// with an invisible cursor. Bytes written once the key's signal has come
/// stay (the line discipline discards before a writer can get in), so
/// from the moment the region's last bytes are written
/// (``arming(terminal:clearsTerminalProgress:whileWriting:)``: the region is
/// gone for good) ``SignalTrap``'s handler calls ``signalArrived(_:)``, and
/// the cursor is shown again (and OSC 9;4 cleared): by the handler, or by
/// the writer once its bytes are out when the signal came while it wrote.
/// Both are idempotent.
///
/// A key typed after the host has exited can still discard them: no
/// process is left to write them again (a terminal emulator reads its
/// output at once, so that window is short).
package enum TerminalFlushRepair {
    /// Where the repair stands: `disarmed`; `writing` the last bytes (a
    /// signal then only marks itself, `writingSignalled`, and the writer
    /// answers it once they are out: the handler's bytes must not fall
    /// between two pieces of theirs, say after an `ESC [`); `armed`, when
    /// the handler writes at once. One atomic word, so a signal is never
    /// lost between the writer's last check and the handler's mark.
    private static let state = Atomic<UInt8>(Phase.disarmed.rawValue)
    /// Its values (raw values: no static a handler would initialise).
    private enum Phase: UInt8 {
        case disarmed, writing, writingSignalled, armed
    }
    /// The terminal to write to; read by the handler (a lock is not async-signal-safe).
    private static let terminal = Atomic<Int32>(-1)
    private static let clearsProgress = Atomic<Bool>(false)

    /// Writes the region's last bytes with `write`, armed from before the
    /// first of them: a key that discards them once they are queued finds
    /// the repair ready. A signal that comes while they are written is
    /// answered when `write` returns (the cursor's `show`, and with
    /// `clearsTerminalProgress` the clearing of OSC 9;4, to `terminal`); from
    /// then on the handler answers at once.
    package static func arming(
        terminal fd: FileDescriptor, clearsTerminalProgress: Bool, whileWriting write: () -> Void
    ) {
        terminal.store(fd.rawValue, ordering: .relaxed)
        clearsProgress.store(clearsTerminalProgress, ordering: .relaxed)
        beginWriting(state)
        write()
        if lastBytesWritten(state) { answer() }
    }

    /// Whether a signal from one of those keys would be answered on `fd`
    /// now (at once, or once the last bytes are out).
    package static func isArmed(on fd: FileDescriptor) -> Bool {
        state.load(ordering: .acquiring) != Phase.disarmed.rawValue && terminal.load(ordering: .relaxed) == fd.rawValue
    }

    /// Nothing is written again any more: a region is drawn again (its
    /// cursor must stay hidden), or the trap is gone.
    package static func disarm() {
        disarm(state)
    }

    /// Makes the state exist before a signal handler can read it: Swift
    /// initialises a static on first use, under a lock a handler must not take.
    static func prepare() {
        _ = state.load(ordering: .relaxed)
        _ = terminal.load(ordering: .relaxed)
        _ = clearsProgress.load(ordering: .relaxed)
        SwallowedKey.prepare()
    }

    /// Called in signal context by ``SignalTrap``'s handler for a signal the
    /// terminal sent (`SI_KERNEL`: a kill(2) from elsewhere discards nothing).
    /// Async-signal-safe: atomics, and raw writes of bytes on the stack. The
    /// key is also recorded for its echo (``SwallowedKey``).
    static func signalArrived(_ signal: Int32) {
        SwallowedKey.signalArrived(signal)
        guard signal == SIGINT || signal == SIGQUIT || signal == SIGTSTP else { return }
        if answersAtOnce(state) { answer() }
    }

    // MARK: - The steps, on a state word (the shared one, or a test's own)

    /// The writer's first step: its last bytes are about to go out.
    static func beginWriting(_ state: borrowing Atomic<UInt8>) {
        state.store(Phase.writing.rawValue, ordering: .releasing)
    }

    /// The step of a region drawn again: nothing is answered any more.
    static func disarm(_ state: borrowing Atomic<UInt8>) {
        state.store(Phase.disarmed.rawValue, ordering: .releasing)
    }

    /// The handler's step: true when it should write now (armed); while
    /// the last bytes are written it only marks the signal for the writer.
    static func answersAtOnce(_ state: borrowing Atomic<UInt8>) -> Bool {
        let (marked, current) = state.compareExchange(
            expected: Phase.writing.rawValue, desired: Phase.writingSignalled.rawValue, ordering: .acquiringAndReleasing
        )
        return !marked && current == Phase.armed.rawValue
    }

    /// The writer's step once the last bytes are out: armed from now on;
    /// true when a signal came meanwhile, which the writer then answers.
    static func lastBytesWritten(_ state: borrowing Atomic<UInt8>) -> Bool {
        state.exchange(Phase.armed.rawValue, ordering: .acquiringAndReleasing) == Phase.writingSignalled.rawValue
    }

    /// Shows the cursor again on the armed terminal, if we are its
    /// foreground job (when TOSTOP is set, only the foreground may write:
    /// SIGTTOU would stop us here).
    private static func answer() {
        let fd = terminal.load(ordering: .relaxed)
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
