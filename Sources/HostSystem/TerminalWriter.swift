#if canImport(Glibc)
    import Glibc
#endif

/// Writes to a terminal through an open file description of its own,
/// non-blocking, waiting for room in poll(2)s that run out and are tried
/// again: so no write sleeps for ever on a terminal that has room.
///
/// When a key makes the terminal send INT, QUIT or TSTP, its line
/// discipline discards the output not yet handed to the emulator (see
/// ``TerminalFlushRepair``), and Linux wakes no writer waiting for room
/// then: one blocked in write(2) sleeps until the emulator reads something
/// more, or a signal interrupts it. The presenter thread takes no signal;
/// the soak saw it asleep in write(2) for 46 s after a Ctrl-Z during a
/// torrent of output, with the terminal read all the while (docs/SOAK.md).
/// A poll that runs out looks again.
///
/// The description is our own (`/proc/self/fd/N` opened again), so the
/// command and the shell, which share the terminal's other descriptions,
/// never see O_NONBLOCK. Where it cannot be opened (not a terminal, no
/// /proc, no descriptor left) the given descriptor is written as it is.
package final class TerminalWriter {
    private let fd: FileDescriptor
    private let own: Bool

    /// A writer to `fd`.
    package init(_ fd: FileDescriptor) {
        if TerminalShim.isTerminal(fd),
            let reopened = try? FileDescriptor.open("/proc/self/fd/\(fd.rawValue)", O_WRONLY | O_NONBLOCK | O_NOCTTY)
        {
            self.fd = reopened
            own = true
        } else {
            self.fd = fd
            own = false
        }
    }

    deinit {
        if own { try? fd.close() }
    }

    /// Writes all of `bytes` (``TerminalShim/writeAll(_:_:)``); false when
    /// the output is gone.
    package func write(_ bytes: [UInt8]) -> Bool {
        TerminalShim.writeAll(fd, bytes, patient: own)
    }
}
