import Dispatch
import FoundationEssentials
import Glibc
import HostSystem

/// The scan helper: `presenter-host --scan-plugins [--require-sandbox]
/// [--allow-insecure-plugins] PATH...`, started by
/// `PluginScanner`, never by a user (the flag is not in `--help`).
///
/// It loads each file with the host's own loader (`PluginLibrary.load`), in
/// order, and reports `begin`, what loading gave (`result` lines) and `done`
/// for each (`ScanProtocol`) on what was
/// its stdout. Plugin code may print, so stdout is pointed at /dev/null once
/// the report channel is saved. Its stdin is the parent's lifeline: when
/// that pipe reaches end of file (the parent died), the helper exits, even
/// while a plugin's constructor hangs.
package enum ScanHelper {
    /// The hidden command-line flag that runs the helper.
    package static let flag = "--scan-plugins"

    /// The descriptor the sandbox writes what stopped the helper on
    /// (``ConfinementViolation``), for the host.
    static let violations = FileDescriptor(rawValue: 3)

    /// Scans `paths` and exits without running exit handlers or plugin
    /// destructors (they might hang or crash after the last report).
    /// The flag that asks the helper to load nothing unless every layer of
    /// its sandbox is in force (`--sandbox=require`).
    static let requireSandboxFlag = "--require-sandbox"

    package static func run(_ arguments: [String]) -> Never {
        var arguments = arguments[...]
        let require = arguments.first == requireSandboxFlag
        if require { arguments = arguments.dropFirst() }
        let insecure = arguments.first == PluginPolicy.allowInsecureFlag
        let policy = PluginPolicy(allowInsecure: insecure)
        let paths = Array(insecure ? arguments.dropFirst() : arguments)
        try? violations.setClosedOnExec()
        guard let channel = try? FileDescriptor.standardOutput.duplicate(atLeast: 4) else { ProcessEnd.immediately(70) }
        if let null = try? FileDescriptor.open("/dev/null", O_WRONLY) {
            null.closeAfter { _ = try? $0.duplicate(as: .standardOutput) }
        }
        // Each library loaded keeps its descriptor (`PluginFile`): a
        // thousand plugins need more than the usual soft limit of 1024.
        ResourceLimit.raiseOpenFilesToHardLimit()
        // Every file is opened and checked first, then the sandbox is
        // entered (it lets the helper read those files, and no folder of
        // them), then plugin code runs: constructors, entry points.
        let files = paths.map { path in
            Result { () throws(PluginLoadFailure) in try PluginFile.open(path, policy: policy) }
        }
        let sandbox = PluginConfinement.enter(
            files: files.compactMap { try? $0.get().descriptor }, violations: violations)
        // After the sandbox: Landlock restricts the threads started after it.
        watchLifeline()
        let refusal: PluginLoadFailure? = require && !sandbox.isComplete ? .sandboxIncomplete(sandbox.summary) : nil
        // One write a file: a file's results and `done` go out with the next
        // file's `begin`, which must be out before that file is loaded (a
        // crash while loading it is blamed on the last `begin`).
        var pending: [ScanProtocol.Line] =
            [.header(version: ScanProtocol.version)] + sandbox.entries.map { .sandbox($0) }
        for (index, file) in files.enumerated() {
            send(pending + [.begin(index)], to: channel)
            let outcome = PluginLibrary.Outcome { () throws(PluginLoadFailure) in
                if let refusal { throw refusal }
                return try PluginLibrary.load(file.get())
            }
            pending = LoadRecords.lines(outcome).map { .result(index, $0) } + [.done(index)]
        }
        send(pending, to: channel)
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
            try channel.writeAll(Array(lines.map { $0.text + "\n" }.joined().utf8))
        } catch {
            ProcessEnd.immediately(0)
        }
    }
}
