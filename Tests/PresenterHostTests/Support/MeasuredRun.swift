import Foundation
import Glibc
import SystemShims
@testable import HostSystem

/// One run of the built binary with its stdin, stdout and stderr on a
/// pseudo-terminal (or stderr on a file, for plain lines), the terminal
/// read as it comes, killed if it outlives a watchdog: its exact status,
/// how long it took, the most memory it held (VmHWM, its own) and what
/// reached the terminal.
struct MeasuredRun {
    /// The exit status, or 128 + the signal (137: the watchdog killed it).
    let status: Int32
    let seconds: Double
    let peakBytes: Int
    /// Everything written to the terminal (or, with `terminal: false`, to stderr).
    let output: [UInt8]

    /// The watchdog: far past any bound a test states.
    static let watchdog = TestTime.scaled(120)

    /// Runs `presenter-host arguments` in an 80x24 terminal (`terminal`)
    /// or with stdin /dev/null and stdout and stderr on a file.
    init(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = true) throws {
        var options = Spawn.Options()
        var pty: PseudoTerminal?
        var file: Int32 = -1
        let folder = TestPaths.temporaryDirectory("measured-run")
        let filePath = folder.appendingPathComponent("output").path
        if terminal {
            let opened = try PseudoTerminal(cols: 80, rows: 24)
            pty = opened
            let follower = FileDescriptor(rawValue: opened.follower)
            options.descriptors = [
                .standardInput: .descriptor(follower), .standardOutput: .descriptor(follower),
                .standardError: .descriptor(follower),
            ]
        } else {
            file = open(filePath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            options.descriptors = [
                .standardInput: .null(O_RDONLY), .standardOutput: .descriptor(FileDescriptor(rawValue: file)),
                .standardError: .descriptor(FileDescriptor(rawValue: file)),
            ]
        }
        options.closeOthers = true
        options.environment = TestProcess.environment(adding: ["TERM": "xterm-256color"].merging(environment) { $1 })
        let started = Date()
        let pid = try Spawn.start(TestPaths.binary.path, ["presenter-host"] + arguments, options).get()
        if file >= 0 { close(file) }
        // The terminal read as it comes (a full one would stop the host).
        let reader = OutputReader()
        if let pty {
            let leader = pty.leader
            Thread.detachNewThread { reader.read(leader) }
        }
        // The host's own high-water mark, read while it runs (its scan
        // helpers, which it reaps, would count in wait4's ru_maxrss); the
        // last reading comes at most 50 ms before it ends.
        var peak = 0
        let pidfd = ph_pidfd_open(pid)
        if pidfd >= 0 {
            var waiter = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            while poll(&waiter, 1, 50) == 0 {
                peak = max(peak, Self.highWaterMark(of: pid))
                if Date().timeIntervalSince(started) > Self.watchdog { kill(pid, SIGKILL) }
            }
            close(pidfd)
        }
        var raw: Int32 = 0
        _ = waitpid(pid, &raw, 0)
        seconds = Date().timeIntervalSince(started)
        status = ChildProcess.Termination(waitStatus: raw).shellStatus
        peakBytes = peak
        if pty != nil {
            // The host is reaped: all it wrote is in the terminal's buffer,
            // which the reader empties before it stops.
            output = reader.finish()
        } else {
            output = Array((try? Data(contentsOf: URL(fileURLWithPath: filePath))) ?? Data())
        }
    }

    /// VmHWM of `pid` in bytes (0 once it is gone).
    static func highWaterMark(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// How many times `byte` reached the terminal.
    func count(of byte: UInt8) -> Int { output.reduce(0) { $0 + ($1 == byte ? 1 : 0) } }

    /// Reads a terminal's leader to its end on a thread of its own.
    private final class OutputReader: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let stopping = SharedFlag(false)
        // Safe: written by the reading thread only, read after `done`.
        private var bytes: [UInt8] = []

        /// Reads until told to stop and nothing is left to read.
        func read(_ fd: Int32) {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let stop = stopping.isSet
                var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&waiter, 1, stop ? 0 : 100)
                if ready > 0 {
                    let n = Glibc.read(fd, &buffer, buffer.count)
                    if n > 0 {
                        bytes.append(contentsOf: buffer[..<n])
                        continue
                    }
                    if n < 0 && errno == EINTR { continue }
                    break
                }
                if ready < 0 && errno == EINTR { continue }
                if stop { break }
            }
            done.signal()
        }

        /// What was read, once the writer is gone.
        func finish() -> [UInt8] {
            stopping.isSet = true
            done.wait()
            return bytes
        }
    }
}
