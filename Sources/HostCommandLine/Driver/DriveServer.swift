import Dispatch
import FoundationEssentials
import Glibc
import HostSystem
import HostText
#if canImport(Glibc)
    import Glibc
#endif

/// `drive --socket PATH`: the driver protocol on a Unix stream socket, for
/// any number of clients at once. Each client is a ``DriveClient`` of its
/// own, read on a thread of its own; a bad line gets an error back on its
/// connection (`{"error": "...", "line": 3}`) and on stderr. When a client
/// disconnects its open actions fail; ``stop()`` disconnects everyone.
// Safe: `clients`, `nextNumber` and `stopping` only under `condition`; the rest is immutable.
final class DriveServer: @unchecked Sendable {
    let path: String
    private let listener: FileDescriptor
    private let condition = MonotonicCondition()
    private var clients: [FileDescriptor: DriveClient] = [:]
    private var nextNumber = 1
    private var stopping = false

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
        var result = Self.listen(path)
        if case .failure(let failure) = result, failure.code == EADDRINUSE {
            let isSocket = (try? FileStatus.ofLink(path)).map { $0.st_mode & S_IFMT == S_IFSOCK } ?? false
            switch Result(catching: { () throws(Errno) in try FileDescriptor.connect(toUnixSocket: path) }) {
            case .success(let fd):
                try? fd.close()
                throw ListenFailure(
                    "--socket \(PrintableText.escaping(path)): another driver is listening there; give another path or stop it"
                )
            case .failure where isSocket:
                try? FileSystem.remove(path)
                result = Self.listen(path)
            case .failure:
                throw ListenFailure(
                    "--socket \(PrintableText.escaping(path)): a file that is not a socket is in the way; remove it or give another path"
                )
            }
        }
        switch result {
        case .success(let fd):
            listener = fd
        case .failure(let failure) where failure.code == ENAMETOOLONG:
            throw ListenFailure(
                "--socket \(PrintableText.escaping(path)): the path is too long for a Unix socket (at most 107 bytes); give a shorter one"
            )
        case .failure(let failure):
            throw ListenFailure(
                "--socket \(PrintableText.escaping(path)): cannot listen there (\(errnoText(failure.code))); give a path in a directory you can write"
            )
        }
    }

    private static func listen(_ path: String) -> Result<FileDescriptor, Errno> {
        Result { () throws(Errno) in try FileDescriptor.listen(atUnixSocket: path) }
    }

    /// Accepts clients (on a thread of its own) until ``stop()``.
    func start(session: DriveSession) {
        DetachedThread.start(name: "drive-accept") { [self] in
            while true {
                let fd: FileDescriptor
                do throws(Errno) {
                    fd = try listener.accept()
                } catch {
                    if error.code == ECONNABORTED { continue }
                    if condition.withLock({ stopping }) { return }
                    if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.code) {
                        MonotonicTime.sleep(microseconds: 10_000)  // out of descriptors: let clients end
                        continue
                    }
                    return
                }
                serve(fd, session: session)
            }
        }
    }

    private func serve(_ fd: FileDescriptor, session: DriveSession) {
        let client: DriveClient? = condition.withLock {
            guard !stopping else { return nil }
            let client = DriveClient(name: "client \(nextNumber)", session: session) { text in
                // A client that stopped reading loses its replies, never blocks the driver.
                try? fd.send(Array(text.utf8), waiting: false)
            }
            nextNumber += 1
            clients[fd] = client
            return client
        }
        guard let client else {
            try? fd.close()
            return
        }
        DetachedThread.start(name: "drive-client") { [self] in
            fd.readLines(limit: DriveClient.longestLine) { client.receive($0) }
            client.wentAway()
            condition.withLock {
                clients[fd] = nil
                try? fd.close()
                condition.broadcast()
            }
        }
    }

    /// Stops accepting, disconnects every client (their open actions fail)
    /// and waits until each is done; removes the socket file.
    func stop() {
        condition.withLock {
            stopping = true
            // Wakes the accept and every read.
            listener.shutdown()
            for fd in clients.keys { fd.shutdown() }
            while !clients.isEmpty { condition.wait() }
        }
        try? FileSystem.remove(path)
    }
}
