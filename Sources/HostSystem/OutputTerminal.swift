import Glibc
import SystemShims

/// The pseudo-terminal a command writes its output to under `run --pty`,
/// in place of the capture pipe: the command sees a terminal on stdout
/// and stderr (colours, line buffering, `isatty`), and the host reads the
/// leader exactly as it reads the pipe.
///
/// Only the output moves. The command keeps the caller's stdin, its
/// controlling terminal (the real one: this pseudo-terminal is nobody's)
/// and the host's process group, the terminal's foreground job. So the
/// keys act as without `--pty`: Ctrl-C and Ctrl-Z reach it from the real
/// terminal's line discipline, `fg` and `bg` move it with the host, it
/// reads typed input, and a write to this terminal never stops it
/// (SIGTTOU is for a controlling terminal). `script(1)` and `unbuffer` do
/// the other thing, a new session on the pseudo-terminal with the real
/// one in raw mode: the keys then reach the command as bytes, and Ctrl-Z
/// stops it while its shell sees a job that still runs.
///
/// The follower passes bytes on as written (no `\r\n` made of `\n`, no
/// echo), so what the host keeps, streams or tails is byte for byte what
/// the pipe would give. It is sized like the caller's terminal, and follows
/// its resizes (``follow(_:onto:resized:)``).
package final class OutputTerminal: Sendable {
    /// A copy of the leader, for the resizes only, and the watch's token;
    /// `nil` once ``stop()`` closed it, so a late SIGWINCH never reaches a
    /// descriptor number that is someone else's by then.
    private let state: LockedValue<(leader: FileDescriptor?, token: UInt64?)>
    private let terminal: FileDescriptor

    /// The caller's terminal that the command's output would reach without
    /// `--pty`: stderr, where the host draws, else stdout, else stdin (the
    /// first that has a size); `nil` off a terminal.
    package static var callersTerminal: FileDescriptor? {
        [FileDescriptor.standardError, .standardOutput, .standardInput].first {
            TerminalShim.windowSize($0) != nil
        }
    }

    /// Opens a pseudo-terminal sized like `terminal` (none: the kernel's
    /// 0 × 0, which programs take as unknown), its follower set to pass
    /// bytes on as written.
    /// - Returns: the leader, which the host reads, and the follower, the
    ///   command's stdout and stderr; both close-on-exec.
    /// - Throws: `posix_openpt` and its errno (no `/dev/pts`, too many).
    package static func open(sizedLike terminal: FileDescriptor?) throws(Errno) -> (
        leader: FileDescriptor, follower: FileDescriptor
    ) {
        var follower: Int32 = -1
        let leader = ph_open_pseudo_terminal(&follower)
        guard leader >= 0 else { throw Errno(call: "posix_openpt", code: errno) }
        let pair = (leader: FileDescriptor(rawValue: leader), follower: FileDescriptor(rawValue: follower))
        var settings = termios()
        if tcgetattr(follower, &settings) == 0 {
            settings.c_oflag &= ~tcflag_t(ONLCR)
            settings.c_lflag &= ~tcflag_t(ECHO | ECHONL)
            _ = tcsetattr(follower, TCSANOW, &settings)
        }
        if let terminal { _ = copySize(from: terminal, to: pair.leader) }
        return pair
    }

    /// Sets `leader`'s size to `terminal`'s; true when it changed.
    private static func copySize(from terminal: FileDescriptor, to leader: FileDescriptor) -> Bool {
        var size = winsize(), current = winsize()
        guard ioctl(terminal.rawValue, UInt(TIOCGWINSZ), &size) == 0,
            ioctl(leader.rawValue, UInt(TIOCGWINSZ), &current) == 0,
            size.ws_row != current.ws_row || size.ws_col != current.ws_col
                || size.ws_xpixel != current.ws_xpixel || size.ws_ypixel != current.ws_ypixel
        else { return false }
        return ioctl(leader.rawValue, UInt(TIOCSWINSZ), &size) == 0
    }

    private init(terminal: FileDescriptor, leader: FileDescriptor) {
        self.terminal = terminal
        state = LockedValue((leader: leader, token: nil))
    }

    /// Gives `leader` `terminal`'s size after every SIGWINCH and SIGCONT
    /// (``ResizeSignal``: a size may change while the job is stopped), and
    /// calls `resized` after each change, on a dispatch queue, until
    /// ``stop()``.
    ///
    /// `resized` sends the command a SIGWINCH of its own: the terminal's
    /// reached it as it reached the host, and a command that read its
    /// stdout's size at once saw the old one, which this copy replaces
    /// only a moment later. No process group has this terminal as its own,
    /// so the kernel sends none for it.
    /// - Returns: `nil` when no copy of `leader` or no signal watch could be made.
    package static func follow(
        _ terminal: FileDescriptor, onto leader: FileDescriptor, resized: @escaping @Sendable () -> Void
    ) -> OutputTerminal? {
        guard let copy = try? leader.duplicate(atLeast: 3) else { return nil }
        let follower = OutputTerminal(terminal: terminal, leader: copy)
        let token = ResizeSignal.watch { [weak follower] in
            if follower?.copySize() == true { resized() }
        }
        guard let token else {
            follower.stop()
            return nil
        }
        follower.state.withLock { $0.token = token }
        return follower
    }

    /// Copies the size, once the leader is still open.
    private func copySize() -> Bool {
        state.withLock { state in state.leader.map { Self.copySize(from: terminal, to: $0) } ?? false }
    }

    /// Stops following and closes the leader's copy; the size stays.
    package func stop() {
        let token = state.withLock { state in
            try? state.leader?.close()
            state.leader = nil
            return state.token
        }
        if let token { ResizeSignal.stopWatching(token) }
    }

    deinit { stop() }
}
