import Foundation
import Glibc
@testable import HostSandbox
@testable import HostSystem
@testable import HostPlugins

/// One run (or a few) of the built binary with the intruder fixture
/// (Fixtures/plugins/intruder.c) and everything it could reach laid out to
/// be looked at afterwards: a HOME of its own holding a secret, loopback
/// listeners, a token in the environment of every process of the run, and
/// the files its attempts would write.
final class IntruderTrial {
    /// When the intruder makes its attempt (INTRUDER_WHEN).
    enum When: String, Sendable, CustomStringConvertible {
        /// In its first show hook, in the process that runs it.
        case show
        /// In a library constructor, in every process that loads the file.
        case load
        /// At each.
        case both
        var description: String { rawValue }
    }

    /// How one run of the binary ended.
    struct HostRun {
        let pid: pid_t
        /// Its exit status (128 + a signal), or nil when it never ended by
        /// itself: found stopped or traced, or past the deadline (then killed).
        let status: Int32?
        /// Found stopped (T) or stopped by a tracer (t).
        let stopped: Bool
        let stdout: [UInt8]
        /// What it wrote to stderr: a file's text, or every byte its terminal got.
        let stderr: String
        /// In a terminal: what the screen shows at the end, its non-empty lines.
        var screen: [String] = []
    }

    /// What a run left that no presenter may leave: each list empty, each
    /// flag false, when the attempts failed.
    struct Effects: CustomStringConvertible {
        /// The processes still running with the token in their environment,
        /// as "PID command line" (killed once listed).
        var leftovers: [String] = []
        /// What is in HOME besides the secret.
        var filesInHome: [String] = []
        var wroteInTmp = false
        var ranTheShell = false
        /// What reached the loopback listeners.
        var received: [String] = []
        /// Where the secret was seen (stdout, stderr, the log).
        var secretSeenIn: [String] = []
        /// Core files in the folder the run ran in.
        var cores: [String] = []

        var isNone: Bool {
            leftovers.isEmpty && filesInHome.isEmpty && !wroteInTmp && !ranTheShell && received.isEmpty
                && secretSeenIn.isEmpty && cores.isEmpty
        }

        var description: String {
            var parts: [String] = []
            if !leftovers.isEmpty { parts.append("left running: \(leftovers)") }
            if !filesInHome.isEmpty { parts.append("written in HOME: \(filesInHome)") }
            if wroteInTmp { parts.append("written in /tmp") }
            if ranTheShell { parts.append("the shell ran (INTRUDER_MARK)") }
            if !received.isEmpty { parts.append("received: \(received)") }
            if !secretSeenIn.isEmpty { parts.append("the secret in: \(secretSeenIn)") }
            if !cores.isEmpty { parts.append("core files: \(cores)") }
            return parts.isEmpty ? "nothing" : parts.joined(separator: "; ")
        }
    }

    static let marker = "INTRUDER-MARKER"

    let directory = TestPaths.temporaryDirectory("least-privilege")
    let plugins: URL
    let home: URL
    /// In the environment of every process of a run: what finds them in /proc.
    let token = UUID().uuidString
    let secret: String
    let listeners: Listeners
    var library: URL { plugins.appendingPathComponent(Fixture.intruder.fileName) }
    var logPath: String { directory.appendingPathComponent("presenter.log").path }
    /// What /bin/sh writes when the intruder gets to run it.
    var markPath: String { directory.appendingPathComponent("ran").path }
    /// What write-tmp creates (outside the trial's folder, as an attacker would).
    var tmpPath: String { "/tmp/intruder-\(token)" }
    private var runs = 0

    init() throws {
        plugins = try FixtureBuilder.directory([.intruder])
        home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
        secret = "secret-\(UUID().uuidString)"
        let secretFile = home.appendingPathComponent("secret").path
        guard FileManager.default.createFile(atPath: secretFile, contents: Data((secret + "\n").utf8)),
            chmod(secretFile, 0o600) == 0
        else { throw FixtureError(description: "cannot write \(secretFile)") }
        listeners = try Listeners(directory: directory, abstractName: "intruder-\(token)")
    }

    deinit {
        // Whatever the test found, nothing of this trial outlives it.
        for pid in Self.processes(withToken: token) { kill(pid, SIGKILL) }
        unlink(tmpPath)
    }

    /// The environment of a run: the intruder's settings, a private HOME
    /// (no user plugins), also as INTRUDER_HOME (the sandbox passes no
    /// HOME to plugin code; a test build passes INTRUDER_*), a UTF-8
    /// locale (the plain lines' ✔ and ✖), and `layersOff` as
    /// PRESENTER_HOST_SANDBOX_OFF (empty: every layer).
    func environment(_ attack: String, when: When, layersOff: String = "") -> [String: String] {
        [
            "HOME": home.path, "INTRUDER_HOME": home.path,
            "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", PluginConfinement.offVariable: layersOff,
            "INTRUDER_ATTACK": attack, "INTRUDER_WHEN": when.rawValue, "INTRUDER_TOKEN": token,
            "INTRUDER_TCP_PORT": String(listeners.tcpPort), "INTRUDER_UDP_PORT": String(listeners.udpPort),
            "INTRUDER_UNIX_PATH": listeners.unixPath, "INTRUDER_ABSTRACT": listeners.abstractName,
            "INTRUDER_MARK": markPath, "INTRUDER_LOG": logPath,
        ]
    }

    /// The command `run` runs: known bytes on stdout around a wait for the
    /// intruder's attempt (its "attempted" log line, or the host's line
    /// about the presenter: the host took it off), then status 3. The
    /// patterns are bracketed: the log's first line holds this very command.
    static let command = [
        "sh", "-c",
        "printf 'before\\n'; "
            + shellWaitUntil("grep -qsE ': attempte[d] |going on [w]ith' \"$INTRUDER_LOG\"")
            + "; printf 'after'; exit 3",
    ]
    static let commandStdout = Array("before\nafter".utf8)

    /// `run` with the intruder, logging to ``logPath``, with a hook budget
    /// no loaded machine reaches (a slow hook is not what is tested).
    var runArguments: [String] {
        [
            "--plugin-dir", plugins.path, "--no-cache", "run", "--presenter", "fixture.intruder",
            "--working", "Working", "--failure", "Failed", "--log", logPath,
            "--hook-timeout", String(TestTime.scaled(10)), "--",
        ] + Self.command
    }

    /// What a run starts with, in `sh`: the trial's folder as its working
    /// folder (where a core file would go: never the package's), and a soft
    /// core-file limit of 0, the usual default (the hard one is the test's,
    /// for the core attempt to raise the soft one to): with cores allowed
    /// from the start, every stop of seccomp alone (SIGSYS) would leave one.
    /// INTRUDER_HOST_PID: the host's pid (it is exec'd in place of this
    /// shell), which a plugin process's own root hides from the intruder.
    var prelude: String {
        "ulimit -S -c 0; cd \(shellQuoted(directory.path)) || exit 125; export INTRUDER_HOST_PID=$$; "
    }

    /// Runs the binary with `arguments`, its stdin /dev/null and its stdout
    /// and stderr appended to files of their own (files, not pipes: a
    /// process the intruder left can hold no pipe of the test's; appended,
    /// so a write through /proc/PID/fd cannot be overwritten by the host's
    /// own), or, `inTerminal`, its stderr on a terminal of 200 columns (where
    /// `run` runs its presenter: plain mode runs none), read as it comes.
    /// Waits (60 s at most, scaled) until it ends, or until it is found
    /// stopped or traced, which no run ends from: it is then killed.
    func run(_ arguments: [String], environment: [String: String], inTerminal: Bool = false) throws -> HostRun {
        runs += 1
        let stdoutPath = directory.appendingPathComponent("stdout-\(runs)").path
        let stderrPath = directory.appendingPathComponent("stderr-\(runs)").path
        let terminal = inTerminal ? try PseudoTerminal.writtenAsIs(cols: 200) : nil
        let process = try TestProcess(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                prelude + "exec \"$0\" \"$@\" >>\(shellQuoted(stdoutPath))"
                    + (inTerminal ? "" : " 2>>\(shellQuoted(stderrPath))"),
                TestPaths.binary.path,
            ] + arguments,
            environment: inTerminal ? environment.merging(["TERM": "xterm-256color"]) { $1 } : environment,
            stdin: .null, stdout: .null, stderr: terminal.map { .descriptor($0.follower) } ?? .null)
        terminal?.closeFollower()
        let reader = try terminal.map { try TerminalReader($0.leader) }
        var stopped = false
        let ended = waitUntil(timeout: 60) {
            guard let stat = ProcessStat.read(process.pid) else { return true }
            stopped = stat.isStopped
            return stat.isDead || stat.isStopped
        }
        if !ended || stopped { process.send(SIGKILL) }
        let status = process.wait()
        let stdout = Array((try? Data(contentsOf: URL(fileURLWithPath: stdoutPath))) ?? Data())
        let reaped = (pid: process.pid, status: ended && !stopped ? status : nil, stopped: stopped)
        guard let reader else {
            return HostRun(
                pid: reaped.pid, status: reaped.status, stopped: stopped, stdout: stdout,
                stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
        }
        // The host is reaped: all it wrote is in the terminal (a process the
        // intruder left may hold it still).
        let bytes = reader.stop()
        var screen = VirtualTerminal(cols: 200, rows: 24)
        screen.feed(bytes)
        return HostRun(
            pid: reaped.pid, status: reaped.status, stopped: stopped, stdout: stdout,
            stderr: String(decoding: bytes, as: UTF8.self), screen: screen.lines.filter { !$0.isEmpty })
    }

    /// What the presenter logged (`--log`).
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Whether the intruder made its show-time attempt: it logged what came
    /// of it, or the host took it off (the sandbox stopped it, or it died).
    func attempted(_ attack: String, stderr: String) -> Bool {
        log.contains("fixture.intruder: info: attempted \(attack): ")
            || stderr.contains("presenter-host: presenter 'fixture.intruder' ")
    }

    /// What the runs so far left behind; `outputs` are the texts the secret
    /// must not be in (the log is always looked at). Processes that hold the
    /// token get a moment to end (a run's own end after the host's), then
    /// are listed and killed.
    func effects(outputs: [(String, String)] = []) -> Effects {
        var effects = Effects()
        if !waitUntil(timeout: 3, { Self.processes(withToken: token).isEmpty }) {
            for pid in Self.processes(withToken: token) {
                let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "?"
                effects.leftovers.append("\(pid) \(command.replacingOccurrences(of: "\0", with: " "))")
                kill(pid, SIGKILL)
            }
        }
        effects.filesInHome = ((try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? [])
            .filter { $0 != "secret" }.sorted()
        effects.wroteInTmp = access(tmpPath, F_OK) == 0
        effects.ranTheShell = access(markPath, F_OK) == 0
        effects.received = listeners.received()
        effects.cores = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix("core") }.sorted()
        for (name, text) in outputs + [("the log", log)] where text.contains(secret) {
            effects.secretSeenIn.append(name)
        }
        return effects
    }

    /// `arguments` run by the binary in a terminal (pty_screen.py), from
    /// ``prelude``, stdout to a file: how it ended, its stdout, and every
    /// byte the terminal got.
    func terminalRun(_ arguments: [String], environment: [String: String]) throws -> (
        run: TerminalDriver.Result, stdout: [UInt8], raw: String
    ) {
        runs += 1
        let rawPath = directory.appendingPathComponent("raw-\(runs)").path
        let stdoutPath = directory.appendingPathComponent("stdout-\(runs)").path
        let run = try TerminalDriver.run(
            [], environment: environment, cols: 200, rawFile: rawPath,
            shell: prelude + "exec \"$0\" " + arguments.map(shellQuoted).joined(separator: " ") + " >"
                + shellQuoted(stdoutPath),
            steps: [.waitExit(60)])
        let stdout = Array((try? Data(contentsOf: URL(fileURLWithPath: stdoutPath))) ?? Data())
        let raw = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: rawPath))) ?? Data(), as: UTF8.self)
        return (run, stdout, raw)
    }

    /// Every process whose environment holds `INTRUDER_TOKEN=token`, among
    /// those this user may read (the intruder's processes are the user's own).
    static func processes(withToken token: String) -> [pid_t] {
        let entry = Array("INTRUDER_TOKEN=\(token)".utf8)
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        return pids.filter { pid in
            pid != getpid() && readAll("/proc/\(pid)/environ").split(separator: 0).contains { Array($0) == entry }
        }
    }

    /// The bytes of a file that reports no size (/proc), or none.
    private static func readAll(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return bytes }
            bytes += buffer[..<count]
        }
    }
}

/// Listeners on loopback that an intruder is pointed at: TCP and UDP on
/// 127.0.0.1 (ports of the kernel's choosing), a Unix socket by path and an
/// abstract one. Nothing ever accepts or reads until ``received()``: a
/// connection completes in the kernel's backlog and its bytes wait there.
final class Listeners {
    let tcpPort: UInt16
    let udpPort: UInt16
    let unixPath: String
    let abstractName: String
    private let tcp: Int32, udp: Int32, unix: Int32, abstract: Int32

    init(directory: URL, abstractName: String) throws {
        unixPath = directory.appendingPathComponent("unix.sock").path
        self.abstractName = abstractName
        (tcp, tcpPort) = try Self.loopback(SOCK_STREAM)
        (udp, udpPort) = try Self.loopback(SOCK_DGRAM)
        unix = try Self.unixListener(Array(unixPath.utf8))
        abstract = try Self.unixListener([0] + Array(abstractName.utf8))
    }

    deinit {
        [tcp, udp, unix, abstract].forEach { close($0) }
        unlink(unixPath)
    }

    /// What reached each listener: every connection waiting (and what it
    /// sent) and every datagram.
    func received() -> [String] {
        var what: [String] = []
        for (name, fd) in [("TCP", tcp), ("Unix", unix), ("abstract Unix", abstract)] {
            while true {
                // The listener is non-blocking: EAGAIN once none waits.
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { break }
                _ = fcntl(connection, F_SETFL, O_NONBLOCK)
                what.append("a \(name) connection: \(Self.drain(connection).debugDescription)")
                close(connection)
            }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(udp, &buffer, buffer.count, 0)
            guard count >= 0 else { break }
            what.append("a UDP datagram: \(String(decoding: buffer[..<count], as: UTF8.self).debugDescription)")
        }
        return what
    }

    private static let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

    private static func drain(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Non-blocking: what was sent before the test looked.
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func loopback(_ type: __socket_type) throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(type.rawValue) | flags, 0)
        guard fd >= 0 else { throw FixtureError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, size) == 0 && (type == SOCK_DGRAM || listen(fd, 16) == 0)
                    && getsockname(fd, pointer, &size) == 0
            }
        }
        guard bound else {
            close(fd)
            throw FixtureError(description: "a loopback listener: \(String(cString: strerror(errno)))")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// A listening Unix stream socket at `name` (a leading 0: abstract).
    private static func unixListener(_ name: [UInt8]) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | flags, 0)
        guard fd >= 0 else { throw FixtureError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw FixtureError(description: "a Unix socket name too long: \(name.count) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        // An abstract name is its bytes exactly; a path ends with its NUL
        // (what the intruder's connect gives, as a C author writes it).
        let size = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count + (name.first == 0 ? 0 : 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(size)) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw FixtureError(description: "a Unix listener: \(String(cString: strerror(errno)))")
        }
        return fd
    }
}

/// `text` as one word of `sh`.
func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
