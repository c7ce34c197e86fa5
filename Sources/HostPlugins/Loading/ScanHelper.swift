import Glibc
import HostSandbox
import HostSystem

/// The scan helper: `presenter-host --scan-plugins HOSTPID
/// [--require-sandbox] [--allow-insecure-plugins] [PATH]`, started by
/// `PluginScanner`, never by a user (the flag is not in `--help`).
///
/// It loads its one file with the host's own loader (`PluginLibrary.load`)
/// and reports `begin`, what loading gave (`result` lines) and `done`
/// (`ScanProtocol`) on what was its stdout; given no file, it only reports
/// the sandbox it entered. Plugin code may print, so stdout is pointed at
/// /dev/null once the report channel is saved. It dies with the host: its
/// parent-death signal is SIGKILL, set first thing (it holds even when
/// plugin code takes over its stdin), and its stdin is the host's lifeline
/// besides (in a PID namespace of its own it cannot see whether its parent
/// already changed): when that pipe reaches end of file, the helper exits,
/// even while a plugin's constructor hangs. Its address space is capped as
/// the presenter process's is.
package enum ScanHelper {
    /// The hidden command-line flag that runs the helper.
    package static let flag = "--scan-plugins"

    /// The descriptor the sandbox writes what stopped the helper on
    /// (``ConfinementViolation``), for the host.
    static let violations = FileDescriptor(rawValue: 3)

    /// The flag that asks the helper to load nothing unless every layer of
    /// its sandbox is in force (`--sandbox=require`).
    static let requireSandboxFlag = "--require-sandbox"

    /// The most address space the helper may use: 2 GiB, the presenter
    /// process's (`PresenterProcessServer.memoryLimit`), so a constructor
    /// that allocates without end fails here instead of taking the
    /// machine's memory from the command.
    static let memoryLimit: rlim_t = 2 << 30

    /// Scans the file named and exits without running exit handlers or
    /// plugin destructors (they might hang or crash after the last report).
    /// `environment` is this process's, as its command line read it: its
    /// sandbox's inputs.
    package static func run(_ arguments: [String], environment: [String: String]) -> Never {
        // Dies with the host, whatever plugin code does to its descriptors;
        // if the host is already gone, the parent is not it (in a PID
        // namespace of its own the parent has no number here: 0; the
        // lifeline then tells).
        ProcessEnd.withParent(signal: SIGKILL)
        guard let host = arguments.first.flatMap({ pid_t($0) }) else { ProcessEnd.immediately(64) }
        if ProcessSelf.parentID != host, ProcessSelf.parentID != 0 { ProcessEnd.immediately(0) }
        var arguments = arguments.dropFirst()
        let require = arguments.first == requireSandboxFlag
        if require { arguments = arguments.dropFirst() }
        let insecure = arguments.first == PluginPolicy.allowInsecureFlag
        if insecure { arguments = arguments.dropFirst() }
        guard arguments.count <= 1 else { ProcessEnd.immediately(64) }
        let policy = PluginPolicy(allowInsecure: insecure)
        try? violations.setClosedOnExec()
        guard let channel = try? FileDescriptor.standardOutput.duplicate(atLeast: 4) else { ProcessEnd.immediately(70) }
        if let null = try? FileDescriptor.open("/dev/null", O_WRONLY) {
            null.closeAfter { _ = try? $0.duplicate(as: .standardOutput) }
        }
        // (Not in a build of scripts/sanitize: a sanitizer's runtime
        // reserves terabytes of address space for its shadow memory.)
        #if !PRESENTER_SANITIZER
            ResourceLimit.capAddressSpace(at: memoryLimit)
        #endif
        // The file is opened and checked first, then the sandbox is entered
        // (it lets the helper read that file, and no folder), then plugin
        // code runs: constructors, the entry point.
        let file = arguments.first.map { path in
            Result { () throws(PluginLoadFailure) in try PluginFile.open(path, policy: policy) }
        }
        let sandbox = PluginConfinement.enter(
            files: (try? file?.get().descriptor).map { [$0] } ?? [], violations: violations, environment: environment)
        // After the sandbox: Landlock restricts the threads started after it.
        watchLifeline()
        // Everything up to `begin` goes out before the file is loaded (a
        // crash while loading it is blamed on it), in one write.
        var lines: [ScanProtocol.Line] = [.header(version: ScanProtocol.version)] + sandbox.entries.map { .sandbox($0) }
        guard let file else {
            send(lines, to: channel)
            ProcessEnd.immediately(0)
        }
        send(lines + [.begin], to: channel)
        let outcome = PluginLibrary.Outcome { () throws(PluginLoadFailure) in
            if require && !sandbox.isComplete { throw .sandboxIncomplete(sandbox.summary) }
            return PluginLibrary.contents(of: try PluginLibrary.load(file.get()))
        }
        lines = LoadRecords.lines(outcome).map { .result(Array($0.utf8)[...]) } + [.done]
        send(lines, to: channel)
        ProcessEnd.immediately(0)
    }

    /// Exits as soon as stdin reaches end of file.
    private static func watchLifeline() {
        DetachedThread.start {
            var byte: [UInt8] = [0]
            while true {
                if ((try? FileDescriptor.standardInput.read(into: &byte)) ?? 0) == 0 { ProcessEnd.immediately(0) }
            }
        }
    }

    /// Writes lines; a parent that stopped reading ends the helper (SIGPIPE).
    private static func send(_ lines: [ScanProtocol.Line], to channel: FileDescriptor) {
        do throws(Errno) {
            try channel.writeAll(lines.flatMap { $0.bytes + [UInt8(ascii: "\n")] })
        } catch {
            ProcessEnd.immediately(0)
        }
    }
}
