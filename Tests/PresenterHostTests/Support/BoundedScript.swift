import Foundation
import Glibc
import SystemShims
@testable import HostSystem

/// A bash script that drives the built binary (`$HOST`) in a folder of its
/// own (`$DIR`, its working directory), killed if it outlives a watchdog,
/// with how long it took and the most memory any process it waited for held
/// (``PeakMemory``: bash's own, or that of a process it reaped, the host
/// among them). The script reports what it measured as `key=value`
/// lines on stdout (``values``).
struct BoundedScript {
    /// The script's exit status, or 128 + the signal (137: the watchdog).
    let status: Int32
    let stdout: String
    let stderr: String
    let seconds: Double
    let peakBytes: Int
    /// The script's folder, for the files it left.
    let folder: String

    /// The watchdog: far past any bound a test states.
    static let watchdog = TestTime.scaled(90)

    init(_ script: String, environment: [String: String] = [:], folder: String? = nil) throws {
        let folder = folder ?? TestPaths.temporaryDirectory("wait").path
        self.folder = folder
        let outPath = folder + "/.script-stdout"
        let errPath = folder + "/.script-stderr"
        let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(out); close(err) }
        var options = Spawn.Options()
        options.descriptors = [
            .standardInput: .null(O_RDONLY), .standardOutput: .descriptor(FileDescriptor(rawValue: out)),
            .standardError: .descriptor(FileDescriptor(rawValue: err)),
        ]
        options.closeOthers = true
        // A group of its own, for the watchdog to kill whole.
        options.newProcessGroup = true
        options.environment = TestProcess.environment(
            adding: environment.merging(["HOST": TestPaths.binary.path, "DIR": folder, "TERM": "dumb"]) { a, _ in a })
        let report = folder + "/.script-peak"
        let (executable, argv) = PeakMemory.measuring(
            "/bin/bash", ["bash", "-c", "cd \"$DIR\" || exit 99\n" + script], report: report)
        let started = Date()
        let pid = try Spawn.start(executable, argv, options).get()
        let pidfd = ph_pidfd_open(pid)
        if pidfd >= 0 {
            var waiter = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            if poll(&waiter, 1, Int32(Self.watchdog * 1000)) == 0 {
                // The whole group: the host the script started too.
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
            }
            close(pidfd)
        }
        var raw: Int32 = 0
        _ = waitpid(pid, &raw, 0)
        seconds = Date().timeIntervalSince(started)
        status = ChildProcess.Termination(waitStatus: raw).shellStatus
        peakBytes = PeakMemory.bytes(in: report)
        stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    }

    /// The `key=value` lines of stdout (the last one of a key wins).
    var values: [String: String] {
        var values: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    /// `values[key]` as a number of milliseconds, in seconds.
    func seconds(_ key: String) -> Double? { values[key].flatMap(Double.init).map { $0 / 1000 } }

    /// What the script and its processes said, for a failed expectation.
    var transcript: String { "status \(status) after \(seconds) s\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}
