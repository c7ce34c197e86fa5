import Glibc
import HostSystem

/// One running scan helper, seen from the host: spawned with the paths to
/// load, read line by line with a deadline, and reaped.
///
/// The helper gets its own process group, so a Ctrl-C meant for the host
/// (which `run` may trap) cannot kill it and blame a good file; its stdin is
/// a lifeline pipe whose write end only the host holds, so it exits when the
/// host dies; its stderr is /dev/null (ld.so's assertion text and plugin
/// prints are not the host's output).
final class ScanProcess {
    /// What reading the next line gave.
    enum Event: Equatable {
        case line(Substring)
        /// End of file: the helper closed its report channel (it ended).
        case end
        /// The deadline passed first.
        case timeout
    }

    private let pid: pid_t
    private let report: FileDescriptor
    private let lifeline: FileDescriptor
    /// Where the helper's sandbox says what stopped it (non-blocking).
    private let violations: FileDescriptor
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts: lines are taken from the
    /// front without moving the rest (a helper reports thousands of lines).
    private var start = 0
    /// The read buffer, allocated once.
    private var chunk = [UInt8](repeating: 0, count: 65536)
    private var ending: ConfinementViolation.Ending?

    /// Starts `executable --scan-plugins paths...` (the real paths of the
    /// files, loaded under `policy`, and only under a complete sandbox when
    /// `requiresSandbox`); nil when it cannot be started (no pipe, no such
    /// executable).
    init?(executable: String, paths: [String], policy: PluginPolicy, requiresSandbox: Bool) {
        var pipes: [(readEnd: FileDescriptor, writeEnd: FileDescriptor)] = []
        for _ in 0..<3 {
            guard let pipe = try? FileDescriptor.pipe() else {
                pipes.forEach {
                    try? $0.readEnd.close(); try? $0.writeEnd.close()
                }
                return nil
            }
            pipes.append(pipe)
        }
        let (reportPipe, lifelinePipe, violationPipe) = (pipes[0], pipes[1], pipes[2])
        var options = Spawn.Options()
        options.descriptors = [
            .standardInput: .descriptor(lifelinePipe.readEnd), .standardOutput: .descriptor(reportPipe.writeEnd),
            .standardError: .null(O_WRONLY), ScanHelper.violations: .descriptor(violationPipe.writeEnd),
        ]
        options.closeOthers = true
        options.newProcessGroup = true
        // A plugin that crashes the helper must end it at once: Swift's
        // backtracer would first spend a third of a second or more on a
        // report that goes to /dev/null, and past the timeout the file is
        // blamed for a hang instead of its crash.
        PluginConfinement.prepare(
            &options, environment: Spawn.environment(setting: "SWIFT_BACKTRACE", to: "enable=no"))
        let spawned = Spawn.start(
            executable,
            ["presenter-host", ScanHelper.flag] + (requiresSandbox ? [ScanHelper.requireSandboxFlag] : [])
                + (policy.allowInsecure ? [PluginPolicy.allowInsecureFlag] : []) + paths, options)
        try? reportPipe.writeEnd.close()
        try? lifelinePipe.readEnd.close()
        try? violationPipe.writeEnd.close()
        guard case .success(let child) = spawned else {
            try? reportPipe.readEnd.close()
            try? lifelinePipe.writeEnd.close()
            try? violationPipe.readEnd.close()
            return nil
        }
        try? violationPipe.readEnd.setNonBlocking()
        pid = child
        report = reportPipe.readEnd
        lifeline = lifelinePipe.writeEnd
        violations = violationPipe.readEnd
    }

    deinit {
        _ = finish(waitingUpTo: 0)
        try? report.close()
        try? lifeline.close()
        try? violations.close()
    }

    /// The next line, or `.end` / `.timeout`. `deadline` is on `now()`'s clock.
    func next(before deadline: Double) -> Event {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return .line(Substring(line))
            }
            // A helper never writes a longer line: anything else is not the protocol.
            if buffer.count - start > ScanProtocol.maxLineBytes {
                return .line(Substring(String(decoding: buffer[start...], as: UTF8.self)))
            }
            guard deadline > Self.now() else { return .timeout }
            let ready = try? report.wait(for: .input) { MonotonicTime.milliseconds(until: deadline) }
            if ready?.isEmpty == true { continue }  // the deadline check above ends the wait
            let count: Int
            do throws(Errno) {
                count = try report.read(into: &chunk)
            } catch {
                if error.wouldBlock { continue }
                return .end
            }
            guard count > 0 else { return .end }
            buffer.removeSubrange(..<start)
            start = 0
            buffer += chunk[..<count]
        }
    }

    /// Waits up to `seconds` for the helper to end by itself, then kills it
    /// (SIGKILL), and returns how it ended, its sandbox's reports read.
    /// Later calls return the same.
    @discardableResult
    func finish(waitingUpTo seconds: Double) -> ConfinementViolation.Ending {
        if let ending { return ending }
        let termination = ProcessExit.end(pid, waitingUpTo: seconds).0
        let ending = ConfinementViolation.Ending(termination, records: ConfinementViolation.read(violations))
        self.ending = ending
        return ending
    }

    /// A monotonic clock in seconds.
    static func now() -> Double { MonotonicTime.seconds() }
}
