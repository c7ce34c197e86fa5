import Glibc

/// The few system calls the rendering layer makes on a terminal, in one
/// place (their write loop and EINTR retry are ``FileDescriptor``'s).
package enum TerminalShim {
    /// True when `fd` is a terminal.
    package static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }

    /// True when `a` and `b` are the same terminal (stdout and stderr on
    /// one terminal, as in an interactive shell), not merely two terminals.
    package static func isSameTerminal(_ a: FileDescriptor, _ b: FileDescriptor) -> Bool {
        guard isTerminal(a), isTerminal(b), let first = try? a.status(), let second = try? b.status() else {
            return false
        }
        return first.st_rdev == second.st_rdev
    }

    /// The terminal's size from TIOCGWINSZ, or `nil` when `fd` is not a
    /// terminal or reports no size.
    package static func windowSize(_ fd: FileDescriptor) -> (cols: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd.rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// False when `fd` is a terminal whose foreground process group is not
    /// ours: we are a background job (`cmd &`, or after Ctrl-Z and `bg`) and
    /// the terminal belongs to the shell or another job. True for a stream
    /// that is not our controlling terminal (a pipe, a file). One ioctl.
    package static func isForeground(_ fd: FileDescriptor) -> Bool {
        let group = tcgetpgrp(fd.rawValue)
        return group < 0 || group == ownGroup
    }

    /// This process's group, read once: after its exec no other process
    /// can move it to another group, and the host never moves itself (it
    /// asks before every frame: a system call a frame saved).
    private static let ownGroup = getpgrp()

    /// True when a background process may write to `fd` without being
    /// stopped by SIGTTOU: `fd` is not a terminal, or its `TOSTOP` is off
    /// (the default). Reading the settings is allowed in the background.
    package static func allowsBackgroundWrites(_ fd: FileDescriptor) -> Bool {
        var settings = termios()
        guard tcgetattr(fd.rawValue, &settings) == 0 else { return true }
        return settings.c_lflag & tcflag_t(TOSTOP) == 0
    }

    /// Writes all of `bytes` with as few write(2) calls as the kernel allows
    /// (one, normally), going on after EINTR and partial writes, and, when a
    /// non-blocking `fd` is full, waiting up to a second for room (a descriptor
    /// someone else made non-blocking, whose reader may have stopped), or,
    /// when `patient` (``TerminalWriter``'s own description), for as long as
    /// a blocking write would, in waits of a second each followed by a new
    /// try (``TerminalWriter`` says why). Returns false when the
    /// output is gone (EPIPE, EIO after a hang-up, ...), so callers stop writing.
    package static func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8], patient: Bool = false) -> Bool {
        let deadline = MonotonicTime.seconds() + 1
        return (try? fd.writeAll(bytes) { patient ? 1000 : MonotonicTime.milliseconds(until: deadline) }) != nil
    }

    /// The terminal's settings now, or `nil` when `fd` is not a terminal.
    /// Reading them is allowed in the background too.
    package static func settings(_ fd: FileDescriptor) -> termios? {
        var settings = termios()
        return tcgetattr(fd.rawValue, &settings) == 0 ? settings : nil
    }

    /// Sets the terminal's local modes (`c_lflag`: echo, canonical input...)
    /// to `modes`, only if they are still `expected` and we are its
    /// foreground job (else SIGTTOU would stop us); every other setting is
    /// left as it is now. Returns whether they were set. Read and set
    /// within a few instructions: a command that changes them just before
    /// keeps its change.
    package static func setLocalModes(_ fd: FileDescriptor, to modes: tcflag_t, ifStill expected: tcflag_t) -> Bool {
        guard isForeground(fd), var settings = settings(fd), settings.c_lflag == expected else { return false }
        settings.c_lflag = modes
        return tcsetattr(fd.rawValue, TCSANOW, &settings) == 0
    }

    /// Puts the terminal `fd` in raw mode for a full screen: bytes come one
    /// by one as typed, unechoed, with no line editing, no flow control and
    /// no signals from keys (Ctrl-C and Ctrl-Z come as bytes). Returns the
    /// settings to restore, or `nil` when `fd` is not a terminal or we are a
    /// background job on it.
    package static func enableRawMode(_ fd: FileDescriptor) -> termios? {
        guard isTerminal(fd), isForeground(fd) else { return nil }
        var settings = termios()
        guard tcgetattr(fd.rawValue, &settings) == 0 else { return nil }
        let saved = settings
        settings.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        settings.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        settings.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd.rawValue, TCSANOW, &settings) == 0 else { return nil }
        return saved
    }

    /// Restores settings saved by ``enableRawMode(_:)``.
    package static func restore(_ fd: FileDescriptor, _ settings: termios) {
        var settings = settings
        _ = tcsetattr(fd.rawValue, TCSANOW, &settings)
    }
}
