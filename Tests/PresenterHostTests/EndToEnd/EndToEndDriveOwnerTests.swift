import Foundation
import Glibc
import Testing
@testable import HostSystem

/// Only the owner drives (issue 37, "Drive and its socket"), through the
/// real binary: the socket is 0600 whatever the umask, another user is
/// refused on both sides, a stop removes only the socket it made, and
/// many clients cost no thread each, past a cap told so.
@Suite("drive end to end: only the owner drives")
struct EndToEndDriveOwnerTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

    /// `drive --socket socket`, started from a shell with `umask` as given.
    private func driver(_ socket: String, umask: String = "022") throws -> TestProcess {
        try TestProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"umask "$2"; exec "$0" drive --socket "$1""#, TestPaths.binary.path, socket, umask],
            environment: utf8)
    }

    /// Waits until `driver` serves its socket: its serving thread runs,
    /// which starts once its signals are trapped (a SIGTERM before that
    /// ends it as the default action does).
    private func serving(_ driver: TestProcess) -> Bool {
        waitUntil(timeout: 30) { !EndToEndDriveInputTests.threads(of: driver.pid, named: "drive-socket").isEmpty }
    }

    /// Waits until a driver answers at `socket`.
    private func answers(_ socket: String) -> Bool {
        waitUntil(timeout: 30) {
            guard let fd = try? FileDescriptor.connect(toUnixSocket: socket) else { return false }
            try? fd.close()
            return true
        }
    }

    /// Ends `driver` with SIGTERM: its status and stderr.
    private func stop(_ driver: TestProcess) -> (status: Int32, stderr: String) {
        driver.send(SIGTERM)
        let (_, err) = driver.communicate()
        return (driver.wait(), String(decoding: err, as: UTF8.self))
    }

    /// Ends `driver`, which ran no action and saw no error: status 0, nothing said.
    private func expectQuietStop(_ driver: TestProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        let (status, stderr) = stop(driver)
        #expect(status == 0, sourceLocation: sourceLocation)
        #expect(stderr == "", sourceLocation: sourceLocation)
    }

    // MARK: - Another user

    static let canDropPrivileges =
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    /// A client of uid 65534: connects, sends a start and reads one reply;
    /// prints the reply, or `connect: <errno>`.
    private static let intruder = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect(sys.argv[1])
        except OSError as e:
            print("connect: %d" % e.errno)
            sys.exit(0)
        try:
            s.sendall(b'{"start": "i", "working": "Intruder"}\\n')
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        data = b""
        try:
            while not data.endswith(b"\\n"):
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        sys.stdout.write(data.decode())
        """

    private func intrude(_ socket: String) throws -> ProcessResult {
        try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", Self.intruder, socket])
    }

    @Test(.enabled(if: Self.canDropPrivileges, "needs root, setpriv and /usr/bin/python3 for a second user"))
    func anotherUserCannotConnectAndIsRefusedWhenTheModeLetsThemIn() throws {
        let dir = TestPaths.temporaryDirectory("driveowner")
        defer { try? FileManager.default.removeItem(at: dir) }
        try #require(chmod(dir.path, 0o755) == 0)
        let socket = dir.appendingPathComponent("s").path
        // umask 000, as services and containers have: the socket is still 0600.
        let driver = try driver(socket, umask: "000")
        #expect(serving(driver))
        let mode = try FileStatus.ofLink(socket).st_mode
        #expect(mode & S_IFMT == S_IFSOCK)
        #expect(mode & 0o777 == 0o600)
        let denied = try intrude(socket)
        #expect(denied.status == 0)
        #expect(denied.stdout == "connect: \(EACCES)\n")

        // The owner opens it up by mistake: the peer's uid still decides.
        try #require(chmod(socket, 0o666) == 0)
        let refused = try intrude(socket)
        #expect(refused.status == 0)
        #expect(
            refused.stdout
                == #"{"error":"uid 65534 may not drive this socket; only uid 0, who runs the driver, and root may"}"#
                + "\n")
        let (status, stderr) = stop(driver)
        #expect(status == 0)
        #expect(
            stderr
                == "Error: --socket \(socket): a client of uid 65534 was refused; only uid 0, who runs the driver, and root may drive it\n"
        )
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    // MARK: - The socket file

    /// A listener at the path that never accepts, its queue full (a stopped
    /// driver's, or another user's set there on purpose): the start says
    /// so at once (73), where a blocking connect held it for ever, deaf to
    /// the signals trapped by then.
    @Test func aListenerThatNeverAcceptsDoesNotHoldTheStart() throws {
        let dir = TestPaths.temporaryDirectory("drivefull")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s").path
        let ready = dir.appendingPathComponent("ready").path
        let holder = try TestProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                "-c",
                """
                import socket, sys
                listener = socket.socket(socket.AF_UNIX)
                listener.bind(sys.argv[1])
                listener.listen(0)
                clients = []
                while True:
                    client = socket.socket(socket.AF_UNIX)
                    client.setblocking(False)
                    try:
                        client.connect(sys.argv[1])
                    except BlockingIOError:
                        break
                    clients.append(client)
                open(sys.argv[2], "w").close()
                sys.stdin.read()
                """,
                socket, ready,
            ])
        defer {
            holder.send(SIGKILL)
            _ = holder.wait()
        }
        #expect(waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: ready) })
        let run = try MeasuredHostRun(["drive", "--socket", socket])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("its queue is full"), "\(run.stderr)")
        #expect(run.seconds < TestTime.scaled(20))
    }

    /// A SIGTERM as soon as the socket exists, while the presenter still
    /// loads (its constructor sleeps): the signals are trapped before the
    /// socket is bound, so the driver ends as a stopped driver does (0) and
    /// removes its socket, where the default action left it behind (143).
    /// Its stderr on a terminal, where the presenter runs (plain mode runs
    /// none; the terminal is not read: the driver writes no more than a few
    /// lines).
    @Test func aSignalWhileThePresenterStartsLeavesNoSocketBehind() throws {
        let dir = TestPaths.temporaryDirectory("drivestarting")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s").path
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let terminal = try PseudoTerminal.writtenAsIs(cols: 80)
        let driver = try TestProcess(
            TestPaths.binary,
            ["--plugin-dir", plugins.path, "drive", "--presenter", "fixture.misbehaving", "--socket", socket],
            environment: utf8.merging(["FIXTURE_SLOW_LOAD_MS": "3000", "TERM": "xterm-256color"]) { $1 },
            stderr: .descriptor(terminal.follower))
        terminal.closeFollower()
        #expect(waitUntil(timeout: 30) { (try? FileStatus.ofLink(socket)) != nil })
        driver.send(SIGTERM)
        _ = driver.communicate()
        #expect(driver.wait() == 0)
        #expect((try? FileStatus.ofLink(socket)) == nil)
    }

    @Test func aStopRemovesOnlyTheSocketItMade() throws {
        let dir = TestPaths.temporaryDirectory("driveunlink")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s").path

        // Its socket replaced by a regular file: the file stays.
        let first = try driver(socket)
        #expect(serving(first))
        try FileSystem.remove(socket)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: socket))
        expectQuietStop(first)
        #expect(try String(contentsOfFile: socket, encoding: .utf8) == "mine")
        try FileSystem.remove(socket)

        // Its socket replaced by another live driver's: that one stays and answers.
        let old = try driver(socket)
        #expect(serving(old))
        try FileSystem.remove(socket)
        let new = try driver(socket)
        #expect(serving(new))
        expectQuietStop(old)
        #expect(FileManager.default.fileExists(atPath: socket))
        #expect(answers(socket))
        // Its own: removed.
        expectQuietStop(new)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    // MARK: - Many clients

    /// 1,000 clients (the most at once) and one more: the driver serves
    /// them on the threads it had, in bounded memory, and the one past the
    /// cap is told so; they are all still served. (A thread each made 1,000
    /// threads, and a thread that could not start stopped the driver.)
    @Test func manyClientsCostNoThreadAndOnePastTheCapIsToldSo() throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        try #require(limit.rlim_cur >= 1200, "the test opens 1,001 connections; raise ulimit -n")
        let dir = TestPaths.temporaryDirectory("drivemany")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s").path
        let started = MonotonicTime.seconds()
        let driver = try driver(socket)
        #expect(serving(driver))
        let before = try #require(Self.status(of: driver.pid, "Threads"))
        let descriptors = Self.descriptors(of: driver.pid)

        var clients: [FileDescriptor] = []
        defer { clients.forEach { try? $0.close() } }
        for _ in 0..<1000 { clients.append(try FileDescriptor.connect(toUnixSocket: socket)) }
        // The one past the cap: its reply comes once the driver accepted every other.
        let extra = try FileDescriptor.connect(toUnixSocket: socket)
        defer { try? extra.close() }
        try #require(!(try extra.wait(for: .input) { 60_000 }).isEmpty, "no reply past the cap")
        let reply = String(decoding: try extra.readAll(), as: UTF8.self)
        #expect(
            reply
                == #"{"error":"the driver serves 1000 clients already, the most it can at once; connect again once one has disconnected"}"#
                + "\n")
        let threads = try #require(Self.status(of: driver.pid, "Threads"))
        #expect(threads <= before + 2, "\(threads) threads with 1,000 clients, \(before) before")

        // Every client is still served: the first and the last start and end an action.
        for (index, client) in [clients[0], clients[999]].enumerated() {
            try client.send(
                Array(
                    #"{"start": "a", "working": "W\#(index)"}\#n{"succeed": "a", "message": "Done \#(index)"}\#n"#.utf8)
            )
        }
        for client in clients { try client.close() }
        clients = []
        // Each client's descriptor is closed once what it sent was read and its end seen.
        #expect(waitUntil(timeout: 60) { Self.descriptors(of: driver.pid) <= descriptors })
        let peak = try #require(Self.status(of: driver.pid, "VmHWM"))
        let (status, stderr) = stop(driver)
        #expect(status == 0)
        // The two clients are read in the order poll gives them: either first.
        let full =
            "Error: --socket \(socket): 1000 clients are connected, the most it serves at once; new clients are refused until one disconnects\n"
        let first = "W0\n✔ Done 0\n"
        let last = "W1\n✔ Done 1\n"
        #expect([full + first + last, full + last + first].contains(stderr), "\(stderr)")
        #expect(peak < 150_000, "the driver's peak was \(peak) kB")
        #expect(MonotonicTime.seconds() - started < 120)
    }

    /// How many descriptors `pid` has open.
    static func descriptors(of pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count ?? 0
    }

    /// A field of /proc/PID/status as a number (`Threads`, `VmHWM` in kB).
    static func status(of pid: pid_t, _ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
        }
        return nil
    }
}
