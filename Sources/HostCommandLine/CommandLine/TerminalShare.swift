import HostRuntime
import HostSystem
#if canImport(Glibc)
    import Glibc
#endif

/// Many runs, one terminal (`make -j2` with two `presenter-host run`
/// recipes): one region per terminal, so that two regions never draw over
/// each other, and every run's kept lines end up in the scrollback, whole.
///
/// A run in terminal mode claims its terminal before it draws anything
/// (``claim(_:environment:)``): the `flock` lock of a file named after the
/// terminal's device, in a folder only this user can enter
/// (``TerminalLockFile``). The run that gets it (the holder) draws its
/// region as it would alone, and listens on a Unix socket next to the lock
/// (``TerminalShareServer``). A run that does not get it (a joiner) draws
/// no region: the lines it would print (its outcome line, its streamed
/// output, a failed command's output, `--events -`) go to the holder, which prints them above its
/// region, and says so for each line (one byte back). When no holder is
/// left to take them (nobody listens, or it ends before saying it printed
/// them), the joiner takes the lock (never waiting on it: `LOCK_NB`, tried
/// again for at most ``patience``) and prints them itself; a new holder
/// that took the lock meanwhile is sent them. Whatever fails (no private
/// folder, no lock), a run draws as it would alone: never a failed command.
final class TerminalShare: Sendable {
    /// The longest line carried, in bytes: a joiner sends a longer one in
    /// pieces, and a holder drops a longer one (a client that is not a joiner).
    static let longestLine = 4096
    /// How long a joiner tries to hand its lines over, in seconds, before
    /// it prints them itself: a holder that stopped must not hold its end.
    static let patience = 2.0

    /// Whether this run draws the region or joins the one drawn.
    enum Role: Equatable {
        /// It holds the lock: it draws, and prints the joiners' lines.
        case holder
        /// Another run holds it: no region; its lines go to the holder.
        case joiner
    }

    let role: Role
    /// The lock file, locked when this run holds the terminal: closed, the lock goes.
    private let lock: FileDescriptor
    private let socketPath: String
    /// The holder's server while its region shows.
    private let server = LockedValue<TerminalShareServer?>(nil)
    /// The joiner's connection to the holder, and whether it took the lock
    /// itself (the holder gone): then it prints its lines itself. Its lines
    /// are handed over one call at a time, under this lock.
    private let joined = LockedValue(Joined())

    private struct Joined {
        var connection: FileDescriptor?
        var printsItself = false
        var released = false
    }

    private init(role: Role, lock: FileDescriptor, socketPath: String) {
        self.role = role
        self.lock = lock
        self.socketPath = socketPath
    }

    /// Claims `terminal` (the one the region would be drawn on) with the
    /// process's `environment`: the holder's or a joiner's share, or nil
    /// when it cannot be shared (not a character device, no private folder,
    /// no lock file, no locks): the run then draws as it would alone.
    static func claim(_ terminal: FileDescriptor, environment: [String: String]) -> TerminalShare? {
        guard let device = TerminalLockFile.terminalDevice(terminal),
            let folder = TerminalLockFile.privateDirectory(environment),
            let lock = TerminalLockFile.open("\(folder)/tty-\(device).lock")
        else { return nil }
        let socketPath = "\(folder)/tty-\(device).sock"
        switch TerminalLockFile.tryLock(lock) {
        case .locked: return TerminalShare(role: .holder, lock: lock, socketPath: socketPath)
        case .held: return TerminalShare(role: .joiner, lock: lock, socketPath: socketPath)
        case .failed:
            try? lock.close()
            return nil
        }
    }

    // MARK: - The holder

    /// The holder, once its region shows: prints the joiners' lines above
    /// it through `runtime` until ``stopServing()``. A socket that cannot
    /// be made leaves the joiners to wait for the lock.
    func serve(above runtime: PresenterRuntime) {
        guard role == .holder, let made = TerminalShareServer(path: socketPath) else { return }
        server.withLock { $0 = made }
        made.start { [weak runtime] text in
            // Printed before the joiner hears so: the sync waits for the terminal.
            guard let runtime, runtime.printAbove(text) else { return false }
            runtime.sync {}
            return true
        }
    }

    /// The holder, before its region goes: stops listening (it waits for
    /// no client) and returns how many lines it dropped (too long), for
    /// the log.
    @discardableResult
    func stopServing() -> Int {
        server.withLock { server in
            defer { server = nil }
            return server?.stop() ?? 0
        }
    }

    /// The end of the run: the lock goes (the next run may draw).
    func release() {
        stopServing()
        let wasReleased = joined.withLock { joined in
            defer {
                joined.released = true
                joined.connection = nil
            }
            try? joined.connection?.close()
            return joined.released
        }
        if !wasReleased { try? lock.close() }
    }

    // MARK: - A joiner

    /// A joiner's `text` (whole lines): to the holder, printed above its
    /// region before this returns; or, when no holder takes it within
    /// ``patience``, printed on the terminal by this run.
    func send(_ text: String) {
        // A longer line goes in pieces, each a line of its own, as the output's lines do (OutputLines).
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            let bytes = Array(line.utf8)
            return stride(from: 0, to: max(bytes.count, 1), by: Self.longestLine).map {
                Array(bytes[$0..<min($0 + Self.longestLine, bytes.count)])
            }
        }
        if text.hasSuffix("\n") { lines.removeLast() }
        guard !lines.isEmpty else { return }
        let deadline = MonotonicTime.seconds() + Self.patience
        joined.withLock { joined in
            while !lines.isEmpty && !joined.printsItself && !joined.released {
                if let connection = joined.connection ?? connect() {
                    joined.connection = connection
                    let taken = Self.handOver(lines, on: connection, until: deadline)
                    lines.removeFirst(taken)
                    if lines.isEmpty { return }
                    // The holder went: what it did not print is printed elsewhere.
                    try? connection.close()
                    joined.connection = nil
                } else if TerminalLockFile.tryLock(lock) != .held {
                    joined.printsItself = true
                    break
                }
                if MonotonicTime.seconds() >= deadline { break }
                MonotonicTime.sleep(microseconds: 10_000)
            }
            _ = TerminalShim.writeAll(.standardError, Self.joined(lines))
        }
    }

    /// `lines`, each with its newline.
    private static func joined(_ lines: [[UInt8]]) -> [UInt8] {
        lines.flatMap { line -> [UInt8] in line + [0x0A] }
    }

    private func connect() -> FileDescriptor? {
        try? FileDescriptor.connect(toUnixSocket: socketPath, nonBlocking: true)
    }

    /// Sends `lines` on `connection` and reads the holder's byte for each
    /// line printed, until `deadline`; how many it printed.
    private static func handOver(_ lines: [[UInt8]], on connection: FileDescriptor, until deadline: Double) -> Int {
        let bytes = joined(lines)
        let left = { MonotonicTime.milliseconds(until: deadline) }
        guard (try? connection.send(bytes, whenFull: left)) != nil else { return 0 }
        var printed = 0
        var buffer = [UInt8](repeating: 0, count: 256)
        while printed < lines.count {
            guard let ready = try? connection.wait(for: .input, milliseconds: left), !ready.isEmpty else { break }
            do throws(Errno) {
                let count = try connection.read(into: &buffer)
                if count == 0 { break }
                printed += count
            } catch  where error.wouldBlock {
                continue
            } catch {
                break
            }
        }
        return min(printed, lines.count)
    }
}
