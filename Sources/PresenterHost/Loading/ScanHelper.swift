import Dispatch
import FoundationEssentials
import Glibc

/// The scan helper: `presenter-host --scan-plugins [--allow-insecure-plugins]
/// PATH...`, started by
/// `PluginScanner`, never by a user (the flag is not in `--help`).
///
/// It loads each file with the host's own loader (`PluginLibrary.load`), in
/// order, and reports `begin`, what loading gave (`result` lines) and `done`
/// for each (`ScanProtocol`) on what was
/// its stdout. Plugin code may print, so stdout is pointed at /dev/null once
/// the report channel is saved. Its stdin is the parent's lifeline: when
/// that pipe reaches end of file (the parent died), the helper exits, even
/// while a plugin's constructor hangs.
enum ScanHelper {
    /// The hidden command-line flag that runs the helper.
    static let flag = "--scan-plugins"

    /// Scans `paths` and exits without running exit handlers or plugin
    /// destructors (they might hang or crash after the last report).
    static func run(_ arguments: [String]) -> Never {
        let insecure = arguments.first == PluginPolicy.allowInsecureFlag
        let policy = PluginPolicy(allowInsecure: insecure)
        let paths = insecure ? Array(arguments.dropFirst()) : arguments
        guard let channel = try? FileDescriptor.standardOutput.duplicate(atLeast: 3) else { _exit(70) }
        if let null = try? FileDescriptor.open("/dev/null", O_WRONLY) {
            null.closeAfter { _ = try? $0.duplicate(as: .standardOutput) }
        }
        // Each library loaded keeps its descriptor (`PluginFile`): a
        // thousand plugins need more than the usual soft limit of 1024.
        ResourceLimit.raiseOpenFilesToHardLimit()
        watchLifeline()
        // One write a file: a file's results and `done` go out with the next
        // file's `begin`, which must be out before that file is loaded (a
        // crash while loading it is blamed on the last `begin`).
        var pending: [ScanProtocol.Line] = [.header(version: ScanProtocol.version)]
        for (index, path) in paths.enumerated() {
            send(pending + [.begin(index)], to: channel)
            let records = LoadRecords.lines(PluginLibrary.outcome(path, policy: policy))
            pending = records.map { .result(index, $0) } + [.done(index)]
        }
        send(pending, to: channel)
        _exit(0)
    }

    /// Exits as soon as stdin reaches end of file.
    private static func watchLifeline() {
        DetachedThread.start {
            var byte: [UInt8] = [0]
            while true {
                if ((try? FileDescriptor.standardInput.read(into: &byte)) ?? 0) == 0 { _exit(0) }
            }
        }
    }

    /// Writes lines; a parent that stopped reading ends the helper (SIGPIPE).
    private static func send(_ lines: [ScanProtocol.Line], to channel: FileDescriptor) {
        do throws(Errno) {
            try channel.writeAll(Array(lines.map { $0.text + "\n" }.joined().utf8))
        } catch {
            _exit(0)
        }
    }
}
