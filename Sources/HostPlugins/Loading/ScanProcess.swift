import Glibc
import HostSandbox
import HostSystem

/// One running scan helper, seen from the host: spawned with the file to
/// load, its report read line by line without blocking, and reaped.
///
/// The helper gets its own process group, so a Ctrl-C meant for the host
/// (which `run` may trap) cannot kill it and blame a good file; its stdin is
/// a lifeline pipe whose write end only the host holds, so it exits when the
/// host dies; its stderr is /dev/null (ld.so's assertion text and plugin
/// prints are not the host's output). It is started by the calling thread,
/// whose end is the helper's parent-death signal (`ScanHelper`): the scan
/// reaps it before that thread can end.
final class ScanProcess {
    /// What reading the report gave.
    enum Event: Equatable {
        /// A line, without its newline; cut at `ScanProtocol.maxLineBytes` + 1
        /// bytes when it had no newline by then (no line of a helper is that long).
        case line([UInt8])
        /// Nothing whole to read yet: wait until ``report`` is readable.
        case waiting
        /// End of file: the helper closed its report channel (it ended).
        case end
    }

    private let pid: pid_t
    /// The report channel (non-blocking): what a caller waits on.
    let report: FileDescriptor
    private let lifeline: FileDescriptor
    /// Where the helper's sandbox says what stopped it (non-blocking).
    private let violations: FileDescriptor
    /// What was read and not yet taken as lines: at most a line's worth
    /// and one read more.
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts: lines are taken from the
    /// front without moving the rest.
    private var start = 0
    /// The read buffer, allocated once.
    private var chunk = [UInt8](repeating: 0, count: 16384)
    private var ending: (ConfinementViolation.Ending, killed: Bool)?

    /// Starts `executable --scan-plugins HOSTPID [flags] [path]` (the real
    /// path of a file, loaded under `policy`, and only under a complete
    /// sandbox when `requiresSandbox`; none for a helper that only reports
    /// its sandbox), with what its sandbox passes of `environment` (the
    /// host's, as the command line read it); nil when it cannot be started
    /// (no pipe, no such executable).
    init?(
        executable: String, path: String?, policy: PluginPolicy, requiresSandbox: Bool,
        environment: [String: String]
    ) {
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
        PluginConfinement.prepare(&options, environment: environment, setting: ["SWIFT_BACKTRACE": "enable=no"])
        let spawned = Spawn.start(
            executable,
            ["presenter-host", ScanHelper.flag, String(ProcessSelf.id)]
                + (requiresSandbox ? [ScanHelper.requireSandboxFlag] : [])
                + (policy.allowInsecure ? [PluginPolicy.allowInsecureFlag] : []) + (path.map { [$0] } ?? []),
            options)
        try? reportPipe.writeEnd.close()
        try? lifelinePipe.readEnd.close()
        try? violationPipe.writeEnd.close()
        guard case .success(let child) = spawned else {
            try? reportPipe.readEnd.close()
            try? lifelinePipe.writeEnd.close()
            try? violationPipe.readEnd.close()
            return nil
        }
        try? reportPipe.readEnd.setNonBlocking()
        try? violationPipe.readEnd.setNonBlocking()
        pid = child
        report = reportPipe.readEnd
        lifeline = lifelinePipe.writeEnd
        violations = violationPipe.readEnd
    }

    deinit {
        _ = finish(waitingUpTo: 0)
        try? exitDescriptor?.close()
        try? report.close()
        try? lifeline.close()
        try? violations.close()
    }

    /// The next line, without waiting: read from the channel as far as it
    /// has something.
    func next() -> Event {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                return .line(line)
            }
            // A helper never writes a longer line: what is read of it is
            // enough to refuse it, and no more is kept.
            if buffer.count - start > ScanProtocol.maxLineBytes {
                let line = Array(buffer[start..<(start + ScanProtocol.maxLineBytes + 1)])
                start = buffer.count
                return .line(line)
            }
            let count: Int
            do throws(Errno) {
                count = try report.read(into: &chunk)
            } catch {
                return error.wouldBlock ? .waiting : .end
            }
            guard count > 0 else { return .end }
            buffer.removeSubrange(..<start)
            start = 0
            buffer += chunk[..<count]
        }
    }

    /// Waits until one of `helpers` has something to read, or the monotonic
    /// `deadline` (``now()``'s clock) passes.
    static func waitForAny(_ helpers: [ScanProcess], closed: Set<ObjectIdentifier> = [], before deadline: Double) {
        // A helper whose channel closed is waited for through its pidfd (its
        // report would wake the wait at once, for ever); without one, a
        // short sleep stands in.
        var descriptors: [FileDescriptor] = []
        var polling = false
        for helper in helpers {
            if !closed.contains(ObjectIdentifier(helper)) {
                descriptors.append(helper.report)
            } else if let exit = helper.exitDescriptor {
                descriptors.append(exit)
            } else {
                polling = true
            }
        }
        _ = try? FileDescriptor.wait(for: .input, on: descriptors) {
            let milliseconds = MonotonicTime.milliseconds(until: deadline)
            return polling ? min(milliseconds, 5) : milliseconds
        }
    }

    /// Waits up to `seconds` for the helper to end by itself, then kills it
    /// (SIGKILL), and returns how it ended, its sandbox's reports read, and
    /// whether it had to be killed. Later calls return the same.
    @discardableResult
    func finish(waitingUpTo seconds: Double) -> (ConfinementViolation.Ending, killed: Bool) {
        if let ending { return ending }
        let (termination, killed) = ProcessExit.end(pid, waitingUpTo: seconds)
        let ending = (ConfinementViolation.Ending(termination, records: ConfinementViolation.read(violations)), killed)
        self.ending = ending
        return ending
    }

    /// Whether the helper has ended, without waiting or reaping it.
    var hasEnded: Bool { ending != nil || ProcessExit.hasExited(pid) }

    /// A pidfd of the helper (readable once it ends), opened the first time
    /// it is asked for; nil where the kernel has none.
    private(set) lazy var exitDescriptor: FileDescriptor? = ProcessExit.exitDescriptor(of: pid)

    /// A monotonic clock in seconds.
    static func now() -> Double { MonotonicTime.seconds() }
}
