import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// The host's last act when it dies of a fatal signal (a bug of ours):
/// the terminal gets its cursor and its settings back, and the command is
/// hung up as a closed terminal would hang it up, so nothing is left
/// running and nothing waits for a key. Then the signal goes on to the
/// handler that was there before (Swift's crash reporter, or the default),
/// with stdin on `/dev/null` so that the reporter cannot wait for a key.
///
/// Everything the handler reads is in raw memory filled before it can run,
/// and it makes only async-signal-safe calls: raw ones, with the raw
/// descriptor number, as ``FileDescriptor``'s methods may allocate.
package enum CrashRescue {
    private struct State {
        /// The terminal to restore, or -1.
        var terminal: Int32 = -1
        var hasSettings = false
        /// The terminal shows a full screen: leave it (alternate screen, paste mode).
        var fullScreen = false
        /// OSC 9;4 may be shown: a crash clears it.
        var terminalProgress = false
        var settings = termios()
        /// The command's pid, or 0 while there is none.
        var command: pid_t = 0
    }

    // Safe: written only by `arm`/`setCommand` before and between crashes; the
    // handler only reads it, and a lock is not async-signal-safe.
    nonisolated(unsafe) private static let state: UnsafeMutablePointer<State> = {
        let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
        pointer.initialize(to: State())
        return pointer
    }()

    /// Indexed by signal number; filled before the handler can run.
    // Safe: filled before the handler is installed, then only read by it.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let table = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        table.initialize(repeating: sigaction(), count: 65)
        return table
    }()

    /// The signals that end the process with a crash.
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGSYS]

    /// Installs the handler. `terminal` is the terminal the host draws on
    /// (nil in plain mode): its settings now are what a crash restores.
    /// `fullScreen`: the host takes the whole alternate screen
    /// (``FullScreenBackend``), which a crash leaves too.
    package static func install(terminal: FileDescriptor?, fullScreen: Bool = false, terminalProgress: Bool = false) {
        if let terminal {
            state.pointee.terminal = terminal.rawValue
            state.pointee.fullScreen = fullScreen
            state.pointee.terminalProgress = terminalProgress
            state.pointee.hasSettings = tcgetattr(terminal.rawValue, &state.pointee.settings) == 0
        }
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = rescue
            action.sa_flags = SA_SIGINFO
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previous + Int(signal))
        }
    }

    /// The command to hang up on a crash (0: none any more).
    package static func setCommand(_ pid: pid_t) {
        state.pointee.command = pid
    }
}

/// The crash handler. Async-signal-safe.
private let rescue: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    signal, _, _ in
    CrashRescue.run(signal)
}

extension CrashRescue {
    fileprivate static func run(_ signal: Int32) {
        let terminal = state.pointee.terminal
        if terminal >= 0 {
            if state.pointee.fullScreen {
                // ESC [ 0 m, ESC [ ? 2 0 0 4 l (paste mode off), ESC [ ? 1 0 4 9 l (the user's screen).
                var leave:
                    (
                        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
                    ) =
                        (
                            0x1b, 0x5b, 0x30, 0x6d, 0x1b, 0x5b, 0x3f, 0x32, 0x30, 0x30, 0x34, 0x6c,
                            0x1b, 0x5b, 0x3f, 0x31, 0x30, 0x34, 0x39, 0x6c
                        )
                _ = withUnsafeBytes(of: &leave) { write(terminal, $0.baseAddress, $0.count) }
            }
            TerminalFlushRepair.showCursor(on: terminal, clearingTerminalProgress: state.pointee.terminalProgress)
            // Only the foreground job may set them (else SIGTTOU would stop us here).
            if state.pointee.hasSettings && tcgetpgrp(terminal) == getpgrp() {
                _ = tcsetattr(terminal, TCSANOW, &state.pointee.settings)
            }
        }
        let command = state.pointee.command
        if command > 0 {
            var ignore = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            sigaction(SIGHUP, &ignore, nil)
            // What a closed terminal does: SIGHUP (and SIGCONT, for a stopped
            // one) to the command's tree, and to our process group when we lead it.
            _ = ph_signal_descendants(command, SIGHUP, SIGCONT)
            _ = kill(command, SIGHUP)
            _ = kill(command, SIGCONT)
            if getpgrp() == getpid() {
                _ = killpg(getpgrp(), SIGHUP)
                _ = killpg(getpgrp(), SIGCONT)
            }
        }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if null >= 0 { _ = dup2(null, STDIN_FILENO) }
        _ = sigaction(signal, previous + Int(signal), nil)
        // Blocked while this handler runs; delivered to the previous handler on return.
        raise(signal)
    }
}
