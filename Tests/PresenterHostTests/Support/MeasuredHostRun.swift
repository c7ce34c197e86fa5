import Foundation
@testable import HostSystem
import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// One run of the built binary with stdin /dev/null and its output in
/// files, killed if it outlives a watchdog, with how long it took and the
/// most memory it held (``PeakMemory``: its own, or that of a process it
/// reaped, whichever is larger): for a test that bounds both.
struct MeasuredHostRun {
    /// The exit status, or 128 + the signal (137: the watchdog killed it).
    let status: Int32
    let stdout: String
    let stderr: String
    let seconds: Double
    let peakBytes: Int

    /// The watchdog: far past any bound a test states.
    static let watchdog = TestTime.scaled(60)

    /// Runs `presenter-host arguments`, its environment this process's
    /// with `environment` added (``TestProcess/environment(adding:)``).
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        try self.init(
            TestPaths.binary.path, ["presenter-host"] + arguments,
            environment: TestProcess.environment(adding: environment),
            folder: TestPaths.temporaryDirectory("measured-run").path, watchdog: Self.watchdog)
    }

    /// Runs `executable` with `argv` (argv[0] included) and `environment`
    /// (`KEY=VALUE`), its output in files of `folder`. `ownGroup`: in a
    /// process group of its own, which the watchdog kills whole (what a
    /// script started goes too).
    init(
        _ executable: String, _ argv: [String], environment: [String], folder: String, watchdog: Double,
        ownGroup: Bool = false
    ) throws {
        let outPath = folder + "/.measured-stdout"
        let errPath = folder + "/.measured-stderr"
        let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(out)
            close(err)
        }
        var options = Spawn.Options()
        options.descriptors = [
            .standardInput: .null(O_RDONLY), .standardOutput: .descriptor(FileDescriptor(rawValue: out)),
            .standardError: .descriptor(FileDescriptor(rawValue: err)),
        ]
        options.closeOthers = true
        options.newProcessGroup = ownGroup
        options.environment = environment
        let report = folder + "/.measured-peak"
        let (parent, parentArgv) = PeakMemory.measuring(executable, argv, report: report)
        let started = Date()
        let pid = try Spawn.start(parent, parentArgv, options).get()
        let pidfd = ph_pidfd_open(pid)
        if pidfd >= 0 {
            var waiter = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            if poll(&waiter, 1, Int32(watchdog * 1000)) == 0 {
                if ownGroup { kill(-pid, SIGKILL) }
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
}
