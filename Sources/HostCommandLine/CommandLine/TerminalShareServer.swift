import HostSystem
import HostText
#if canImport(Glibc)
    import Glibc
#endif

/// The holder's end of a shared terminal (``TerminalShare``): a Unix
/// socket next to the lock, 0600, on which the runs that joined send the
/// lines they would print; each is printed above the holder's region,
/// escaped as any message is, and answered with one byte once printed.
///
/// Everything a client sends is untrusted input, and no client may stall
/// or grow the holder: one thread polls the socket and every client, all
/// non-blocking; at most ``mostClients`` at once (others are closed at
/// once), each read at most ``TerminalShare/longestLine`` bytes a turn, its
/// line longer than that dropped (``LineSplitter``), its answers never
/// waited for (a client that stops reading is dropped). What is dropped is
/// counted. ``stop()`` waits for no client.
final class TerminalShareServer: Sendable {
    /// The most clients served at once: one per run that joined.
    static let mostClients = 32

    private let path: String
    private let listener: FileDescriptor
    /// Written by ``stop()``: wakes the serving thread's poll.
    private let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    private let owner = UserAccount.effectiveUserID
    private let course = ConditionLock((started: false, stopping: false, finished: false, dropped: 0))

    /// Listens at `path` (a socket left there by a holder that was killed
    /// is replaced: this run holds the lock, so nobody else listens); nil
    /// when it cannot.
    init?(path: String) {
        self.path = path
        if let info = try? FileStatus.ofLink(path), info.st_mode & S_IFMT == S_IFSOCK { try? FileSystem.remove(path) }
        guard let listener = try? FileDescriptor.listen(atUnixSocket: path) else { return nil }
        guard (try? listener.setNonBlocking()) != nil, let wake = try? FileDescriptor.pipe(nonBlocking: true) else {
            try? listener.close()
            try? FileSystem.remove(path)
            return nil
        }
        self.listener = listener
        self.wake = wake
    }

    /// Serves clients on a thread of its own until ``stop()``; `print`
    /// prints a client's lines (text ending in a newline), false once it
    /// no longer can.
    func start(print: @escaping @Sendable (String) -> Bool) {
        course.withLock { $0.started = true }
        DetachedThread.start(name: "terminal-share") { [self] in
            serve(print)
            course.withLock { $0.finished = true }
            course.broadcast()
        }
    }

    /// Stops serving (waiting for the serving thread, never for a client),
    /// removes the socket file, and returns how many lines were dropped.
    func stop() -> Int {
        let running = course.withLock { course in
            course.stopping = true
            return course.started
        }
        try? wake.writeEnd.writeAll([1])
        let dropped = running ? course.withLock(waitingUntil: { $0.finished }) { course, _ in course.dropped } : 0
        try? FileSystem.remove(path)
        try? listener.close()
        try? wake.readEnd.close()
        try? wake.writeEnd.close()
        return dropped
    }

    private struct Client {
        let fd: FileDescriptor
        var lines = LineSplitter(limit: TerminalShare.longestLine)
    }

    private func serve(_ print: (String) -> Bool) {
        var clients: [Client] = []
        var buffer = [UInt8](repeating: 0, count: TerminalShare.longestLine)
        var dropped = 0
        defer {
            for client in clients { try? client.fd.close() }
            course.withLock { $0.dropped = dropped }
        }
        while !course.withLock({ $0.stopping }) {
            let watched = [wake.readEnd, listener] + clients.map(\.fd)
            guard let ready = try? FileDescriptor.wait(for: .input, on: watched, milliseconds: { -1 }) else {
                continue
            }
            if !ready[0].isEmpty { return }
            if !ready[1].isEmpty { accept(into: &clients) }
            var gone: [Int] = []
            for (index, readiness) in ready.dropFirst(2).enumerated() where !readiness.isEmpty {
                var count = 0
                do throws(Errno) {
                    count = try clients[index].fd.read(into: &buffer)
                } catch  where error.wouldBlock {
                    continue
                } catch {
                    count = 0  // reset by the client: gone as well
                }
                var lines: [String] = []
                var cut = 0
                let feed = { (line: [UInt8]?) in
                    guard let line else { return cut += 1 }
                    lines.append(PrintableText.escaping(PrintableText.escapingInvalidUTF8(line)))
                }
                if count == 0 {
                    clients[index].lines.finish(feed)
                    gone.append(index)
                } else {
                    clients[index].lines.feed(buffer[..<count], feed)
                }
                dropped += cut
                // Refused once the region is going: the client prints them itself.
                if !lines.isEmpty && !print(lines.joined(separator: "\n") + "\n") {
                    gone.append(index)
                    continue
                }
                // One byte a line taken; a client that does not read them is dropped.
                let answer = [UInt8](repeating: 0x06, count: lines.count + cut)
                if !answer.isEmpty, (try? clients[index].fd.send(answer, waiting: false)) == nil { gone.append(index) }
            }
            for index in Set(gone).sorted().reversed() { try? clients.remove(at: index).fd.close() }
        }
    }

    /// Takes the clients waiting: this user's (or root's), while fewer than
    /// ``mostClients`` are served; others are closed at once.
    private func accept(into clients: inout [Client]) {
        for _ in 0..<Self.mostClients {
            guard let fd = try? listener.accept() else { return }
            guard clients.count < Self.mostClients, let user = try? fd.peerUser(), user == owner || user == 0,
                (try? fd.setNonBlocking()) != nil
            else {
                try? fd.close()
                continue
            }
            clients.append(Client(fd: fd))
        }
    }
}
