import HostSystem
import HostText
#if canImport(Glibc)
    import Glibc
#endif

/// `drive --socket PATH`: the driver protocol on a Unix stream socket, for
/// many clients at once, each a ``DriveClient`` of its own; a bad
/// line gets an error back on its connection (`{"error": "...", "line": 3}`)
/// and on stderr. When a client disconnects its open actions fail;
/// ``stop()`` disconnects everyone.
///
/// Only the owner drives: the socket file is 0600 whatever the umask, and
/// each client's user, as the kernel recorded it, must be the driver's or
/// root; another is refused with a reply and a line on stderr.
///
/// One thread serves every client: it polls the socket and the clients, so
/// a client costs a descriptor and what is left of its line, never a thread
/// (a thread each cost 3,000 threads for 3,000 clients, and a `pthread_create`
/// refused under a process limit stopped the driver). At most
/// ``mostClients`` at once, fewer when the descriptor limit leaves less
/// room: past that a client is told so and disconnected.
final class DriveServer: Sendable {
    /// The most clients served at once.
    static let mostClients = 1000
    /// Descriptors kept free below the limit for the host's own work (the
    /// presenter, the terminal, libdispatch, which stops the process when
    /// it finds none): a client that would leave fewer is refused.
    static let reservedDescriptors: UInt64 = 32

    let path: String
    private let listener: FileDescriptor
    /// The socket file it made (device, inode): the only file a stop
    /// removes, never another driver's socket or a file put at its path since.
    private let bound: (device: UInt64, inode: UInt64)?
    /// Written by ``stop()``: wakes the serving thread's poll.
    private let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    private let owner = UserAccount.effectiveUserID
    /// The serving thread's course; its clients are its own.
    private let course = ConditionLock((started: false, stopping: false, finished: false))

    /// Why the server cannot listen at its path: one line for the user.
    struct ListenFailure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Listens at `path`. A socket file there that nobody answers on (left by
    /// a driver that was killed) is replaced; anything else is an error.
    /// - Throws: a ``ListenFailure`` naming the path, what is wrong and what to do.
    init(path: String) throws(ListenFailure) {
        self.path = path
        let shown = PrintableText.escaping(path)
        var result = Self.listen(path)
        if case .failure(let failure) = result, failure.code == EADDRINUSE {
            let isSocket = (try? FileStatus.ofLink(path)).map { $0.st_mode & S_IFMT == S_IFSOCK } ?? false
            // Non-blocking: a listener that never accepts (stopped, or
            // another user's with a full backlog) must not hold the start,
            // where the trapped signals no longer end it. Only a refusal
            // says nobody listens: a socket this user may not connect to
            // (EACCES: another user's live driver) is not stale.
            let probe = Result { () throws(Errno) in try FileDescriptor.connect(toUnixSocket: path, nonBlocking: true) }
            switch probe {
            case .success(let fd):
                try? fd.close()
                throw ListenFailure(
                    "--socket \(shown): another driver is listening there; give another path or stop it")
            case .failure(let failure) where isSocket && failure.code == ECONNREFUSED:
                try? FileSystem.remove(path)
                result = Self.listen(path)
            case .failure(let failure) where isSocket && failure.code == EAGAIN:
                throw ListenFailure(
                    "--socket \(shown): another driver is listening there (its queue is full); give another path or stop it"
                )
            case .failure(let failure) where isSocket:
                throw ListenFailure(
                    "--socket \(shown): a socket is there that cannot be tested (\(errnoText(failure.code))); give another path or remove it"
                )
            case .failure:
                throw ListenFailure(
                    "--socket \(shown): a file that is not a socket is in the way; remove it or give another path")
            }
        }
        switch result {
        case .success(let fd):
            listener = fd
        case .failure(let failure) where failure.code == ENAMETOOLONG:
            throw ListenFailure(
                "--socket \(shown): the path is too long for a Unix socket (at most 107 bytes); give a shorter one")
        case .failure(let failure):
            throw ListenFailure(
                "--socket \(shown): cannot listen there (\(errnoText(failure.code))); give a path in a directory you can write"
            )
        }
        let bound: (device: UInt64, inode: UInt64)? = (try? FileStatus.ofLink(path)).flatMap {
            $0.st_mode & S_IFMT == S_IFSOCK ? (UInt64($0.st_dev), UInt64($0.st_ino)) : nil
        }
        self.bound = bound
        do throws(Errno) {
            // Non-blocking: a client that left between the poll and the
            // accept must not hold the serving thread.
            try listener.setNonBlocking()
            wake = try FileDescriptor.pipe(nonBlocking: true)
        } catch {
            try? listener.close()
            Self.removeSocketFile(path, ifStill: bound)
            throw ListenFailure("--socket \(shown): cannot serve it (\(error)); check the limits on open files")
        }
    }

    private static func listen(_ path: String) -> Result<FileDescriptor, Errno> {
        Result { () throws(Errno) in try FileDescriptor.listen(atUnixSocket: path) }
    }

    /// Serves clients, on a thread of its own, until ``stop()``.
    func start(session: DriveSession) {
        guard
            course.withLock({ course in
                if !course.stopping { course.started = true }
                return course.started
            })
        else { return }
        DetachedThread.start(name: "drive-socket") { [self] in
            serve(session)
            course.withLock { $0.finished = true }
            course.broadcast()
        }
    }

    /// Stops serving: every client is disconnected (its open actions fail)
    /// before it returns; removes the socket file if it is still the one
    /// this driver made.
    func stop() {
        let running = course.withLock { course in
            course.stopping = true
            return course.started
        }
        try? wake.writeEnd.writeAll([1])
        if running { course.withLock(waitingUntil: { $0.finished }) { _, _ in } }
        try? listener.close()
        try? wake.readEnd.close()
        try? wake.writeEnd.close()
        Self.removeSocketFile(path, ifStill: bound)
    }

    /// Removes the socket file at `path`, only if what is there now is the
    /// socket this driver bound (`bound`: its device and inode).
    private static func removeSocketFile(_ path: String, ifStill bound: (device: UInt64, inode: UInt64)?) {
        guard let bound, let now = try? FileStatus.ofLink(path), now.st_mode & S_IFMT == S_IFSOCK,
            UInt64(now.st_dev) == bound.device, UInt64(now.st_ino) == bound.inode
        else { return }
        try? FileSystem.remove(path)
    }

    // MARK: - Serving

    /// A connected client: its descriptor, its actions, what it sent of a
    /// line so far.
    private struct Connection {
        let fd: FileDescriptor
        let client: DriveClient
        var lines: LineSplitter
    }

    /// The serving thread's loop: polls the wake pipe, the socket (unless
    /// out of descriptors, when it rests 10 ms) and every client, and reads
    /// at most one buffer from each client at a time, so no client holds
    /// the others.
    private func serve(_ session: DriveSession) {
        var connections: [Connection] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var number = 1
        var resting = false
        var full = false
        while !course.withLock({ $0.stopping }) {
            let watched = [wake.readEnd] + (resting ? [] : [listener]) + connections.map(\.fd)
            guard
                let ready = try? FileDescriptor.wait(for: .input, on: watched, milliseconds: { resting ? 10 : -1 })
            else { continue }
            if !ready[0].isEmpty { break }
            let first = resting ? 1 : 2
            if !resting && !ready[1].isEmpty {
                // Each new client, checked before it is served.
                for _ in 0..<64 {
                    let fd: FileDescriptor
                    do throws(Errno) {
                        fd = try listener.accept()
                    } catch {
                        if error.code == ECONNABORTED { continue }
                        // Out of descriptors: let clients end before trying again.
                        resting = [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.code)
                        break
                    }
                    if let refusal = refusal(of: fd, serving: connections.count, full: &full, session: session) {
                        try? fd.send(Array(Self.reply(refusal).utf8), waiting: false)
                        fd.shutdown()
                        try? fd.close()
                        continue
                    }
                    try? fd.setNonBlocking()
                    let client = DriveClient(name: "client \(number)", session: session) { text in
                        // A client that stopped reading loses its replies, never blocks the driver.
                        try? fd.send(Array(text.utf8), waiting: false)
                    }
                    number += 1
                    connections.append(
                        Connection(fd: fd, client: client, lines: LineSplitter(limit: DriveClient.longestLine)))
                }
            } else {
                resting = false
            }
            var gone: [Int] = []
            for (index, readiness) in ready.dropFirst(first).enumerated() where !readiness.isEmpty {
                var count = 0
                do throws(Errno) {
                    count = try connections[index].fd.read(into: &buffer)
                } catch  where error.wouldBlock {
                    continue
                } catch {
                    count = 0  // reset by the client: gone as well
                }
                let client = connections[index].client
                if count == 0 {
                    connections[index].lines.finish { client.receive($0) }
                    gone.append(index)
                } else {
                    connections[index].lines.feed(buffer[..<count]) { client.receive($0) }
                }
            }
            for index in gone.reversed() {
                disconnect(connections.remove(at: index))
            }
            if !gone.isEmpty { full = false }
        }
        connections.forEach(disconnect)
    }

    private func disconnect(_ connection: Connection) {
        connection.client.wentAway()
        try? connection.fd.close()
    }

    /// Why the client just accepted on `fd` is not served, or nil: it is
    /// another user (not the driver's, nor root), or `serving` clients are
    /// as many as may be. The driver says so on stderr too: a refused user
    /// each time (they are not supposed to get this far), a full driver
    /// once until a client leaves.
    private func refusal(of fd: FileDescriptor, serving: Int, full: inout Bool, session: DriveSession) -> String? {
        let shown = PrintableText.escaping(path)
        guard let user = try? fd.peerUser() else {
            session.error("Error: --socket \(shown): a client whose user cannot be told was refused")
            return "the driver cannot tell which user you are, so it does not serve you"
        }
        guard user == owner || user == 0 else {
            session.error(
                "Error: --socket \(shown): a client of uid \(user) was refused; only uid \(owner), who runs the driver, and root may drive it"
            )
            return "uid \(user) may not drive this socket; only uid \(owner), who runs the driver, and root may"
        }
        let limit = DescriptorLimit.soft ?? .max
        guard serving < Self.mostClients, UInt64(fd.rawValue) + Self.reservedDescriptors < limit else {
            if !full {
                session.error(
                    "Error: --socket \(shown): \(serving) clients are connected, the most it serves at once; new clients are refused until one disconnects"
                )
                full = true
            }
            return
                "the driver serves \(serving) clients already, the most it can at once; connect again once one has disconnected"
        }
        return nil
    }

    /// `{"error": "..."}` and a newline: a connection refused (an error
    /// about a line names it: ``DriveClient/errorReply(line:reason:)``).
    static func reply(_ reason: String) -> String {
        JSONValue.object(["error": .string(reason)]).serialized + "\n"
    }
}
