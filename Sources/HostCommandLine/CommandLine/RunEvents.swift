import FoundationEssentials
import Glibc
import HostRuntime
import HostSystem
import HostText

/// `run --events FILE`: one JSON line per state change of the run, for
/// scripts (docs/EVENTS.md): `start`, `message`, `progress` (when the whole
/// percentage changes, or the fraction becomes unknown: `null`), and
/// `success` or `failure` with the exit status, the reason, the success or
/// failure message and the duration in seconds. Every line has `event` and
/// `time` (UTC, ms). The same lines go to the `--log` file; and when
/// `NOTIFY_SOCKET` is set (a systemd service), the working message, each
/// new message and the outcome go there as `STATUS=` datagrams. Any thread;
/// lines are written whole, one at a time.
///
/// `--events -` on the terminal the region is drawn on writes its lines
/// above the region (``show(above:)``), as `--output stream` does: written
/// at the cursor they would land in the region, which would draw over them
/// and erase them.
// Safe: `lastPercent`, `broken` and `runtime` only under `lock`; the rest is immutable.
final class RunEvents: @unchecked Sendable {
    private let fd: FileDescriptor?
    private let ownsFD: Bool
    private let log: RunLog
    /// `NOTIFY_SOCKET`: where systemd hears the service's status.
    private let notifySocket: String?
    private let lock = Lock()
    private var lastPercent: Int?
    private var broken = false
    /// Where lines go while a region is drawn on the terminal they go to.
    private weak var runtime: PresenterRuntime?

    /// Events to `path` (appended; "-" is stdout), or only to the log
    /// when `path` is nil.
    /// - Throws: `.cannotCreate` naming the file when it cannot be opened.
    init(path: String?, log: RunLog, environment: [String: String] = [:]) throws(CommandError) {
        self.log = log
        notifySocket = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        switch path {
        case nil:
            fd = nil
            ownsFD = false
        case "-":
            fd = .standardOutput
            ownsFD = false
        case let path?:
            do throws(Errno) {
                fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOCTTY, permissions: 0o644)
            } catch {
                throw .cannotCreate(
                    "--events \(PrintableText.escaping(path)): cannot open it for writing (\(errnoText(error.code))); give a file in a directory you can write"
                )
            }
            ownsFD = true
        }
    }

    deinit {
        if ownsFD { try? fd?.close() }
    }

    /// Whether events go to stdout (which the command then must not use).
    var usesStandardOutput: Bool { fd == .standardOutput }

    /// From now on, when the lines go to the terminal that `runtime` draws
    /// its region on (`--events -`, stdout and stderr the same terminal),
    /// they are printed above the region. Once the runtime refuses them (it
    /// is shutting down, the region gone or going), they are written as
    /// before.
    func show(above runtime: PresenterRuntime, drawnOn terminal: FileDescriptor = .standardError) {
        guard let fd, TerminalShim.isSameTerminal(fd, terminal) else { return }
        lock.withLock { self.runtime = runtime }
    }

    /// The action started (`command`: its words; `message`: the working message).
    func started(action: String, message: String?, command: [String]) {
        emit([
            "event": "start", "action": .string(action), "message": JSONValue(message),
            "command": .array(command.map(JSONValue.string)),
        ])
        if let message, !message.isEmpty { status(message) }
    }

    /// A report from the command: a new message, and the fraction when its
    /// whole percentage changed.
    func reported(_ report: ProgressReport) {
        if let message = report.message {
            emit(["event": "message", "message": .string(message)])
            status(message)
        }
        guard let fraction = report.fraction else { return }
        let percent = fraction < 0 ? nil : Int((fraction * 100).rounded(.down))
        let changed: Bool = lock.withLock {
            defer { lastPercent = percent }
            return percent != lastPercent
        }
        if changed { emit(["event": "progress", "fraction": fraction < 0 ? .null : .double(fraction)]) }
    }

    /// The run ended: `status` is run's exit status; `message`, the success
    /// or failure message shown (`null` in the line without one).
    func ended(success: Bool, status: Int32, reason: String?, duration: Double, message: String? = nil) {
        emit([
            "event": .string(success ? "success" : "failure"), "status": .int(Int(status)), "reason": JSONValue(reason),
            "message": JSONValue(message), "duration": .double((duration * 1000).rounded() / 1000),
        ])
        let text = [message, success ? nil : reason].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
        self.status(text.isEmpty ? (success ? "Succeeded" : "Failed") : text)
    }

    /// `STATUS=<text>` to systemd (one line: newlines become spaces).
    private func status(_ text: String) {
        guard let notifySocket else { return }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        FileDescriptor.sendDatagram("STATUS=" + line, to: notifySocket)
    }

    private func emit(_ fields: [String: JSONValue]) {
        var fields = fields
        fields["time"] = .string(RunLog.timestamp())
        let line = JSONValue.object(fields).serialized
        log.record("presenter-host: event: " + line)
        guard let fd else { return }
        lock.withLock {
            guard !broken else { return }
            if let runtime, runtime.printAbove(line + "\n") { return }
            broken = !TerminalShim.writeAll(fd, Array((line + "\n").utf8))
        }
    }
}
