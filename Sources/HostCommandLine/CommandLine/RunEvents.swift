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
///
/// Lines are written by a thread of their own through a bounded queue
/// (``QueuedWriter``): a reader that stops reading (`| less` before you
/// scroll) never stalls the command. Past the bound, lines are dropped, and
/// the outcome line counts them (`dropped`); the outcome line itself is
/// never dropped, and ``ended(success:status:reason:duration:message:)``
/// waits for the reader to take what is queued only while it takes some.
final class RunEvents: Sendable {
    private let destination: Destination?
    private let writer: QueuedWriter?
    private let log: RunLog
    /// `NOTIFY_SOCKET`: where systemd hears the service's status.
    private let notifySocket: String?
    /// The whole percentage of the last `progress` line.
    private let lastPercent = LockedValue<Int?>(nil)

    /// Events to `path` (appended; "-" is stdout), or only to the log
    /// when `path` is nil.
    /// - Throws: `.cannotCreate` naming the file when it cannot be opened,
    ///   or when it is a link another user placed in a shared folder
    ///   (``FileStatus/foreignLinkOwner(_:)``).
    init(path: String?, log: RunLog, environment: [String: String] = [:]) throws(CommandError) {
        self.log = log
        notifySocket = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        switch path {
        case nil:
            destination = nil
        case "-":
            destination = Destination(fd: .standardOutput, owned: false)
        case let path?:
            destination = Destination(
                fd: try RunLog.openForAppending(path, option: "--events"), owned: true)
        }
        writer = destination.map { destination in QueuedWriter(name: "events") { destination.write($0) } }
    }

    /// Whether events go to stdout (which the command then must not use).
    var usesStandardOutput: Bool { destination?.fd == .standardOutput }

    /// From now on, when the lines go to the terminal that `runtime` draws
    /// its region on (`--events -`, stdout and stderr the same terminal),
    /// they are printed above the region. Once the runtime refuses them (it
    /// is shutting down, the region gone or going), they are written as
    /// before.
    func show(above runtime: PresenterRuntime, drawnOn terminal: FileDescriptor = .standardError) {
        guard let destination, TerminalShim.isSameTerminal(destination.fd, terminal) else { return }
        destination.show(above: runtime)
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
        let changed: Bool = lastPercent.withLock { last in
            defer { last = percent }
            return percent != last
        }
        if changed { emit(["event": "progress", "fraction": fraction < 0 ? .null : .double(fraction)]) }
    }

    /// The run ended: `status` is run's exit status; `message`, the success
    /// or failure message shown (`null` in the line without one). The line
    /// counts the lines dropped before it (`dropped`, when there were any),
    /// and is written before this returns, unless the reader takes nothing
    /// for ``patience`` seconds (or, taking some now and then, for
    /// ``longestDrain`` seconds in all).
    func ended(success: Bool, status: Int32, reason: String?, duration: Double, message: String? = nil) {
        var fields: [String: JSONValue] = [
            "event": .string(success ? "success" : "failure"), "status": .int(Int(status)), "reason": JSONValue(reason),
            "message": JSONValue(message), "duration": .double((duration * 1000).rounded() / 1000),
        ]
        let dropped = writer?.takeDropped() ?? 0
        if dropped > 0 { fields["dropped"] = .int(dropped) }
        emit(fields, always: true)
        writer?.drain(stalledAfter: Self.patience, atMost: Self.longestDrain)
        let text = [message, success ? nil : reason].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
        self.status(text.isEmpty ? (success ? "Succeeded" : "Failed") : text)
    }

    /// Once the runtime is shut down: what is still queued (lines the
    /// presenter thread had no time to print above the region before
    /// ``ended(success:status:reason:duration:message:)`` gave up waiting,
    /// the outcome line among them) is written as it comes, with the same
    /// patience; the region is gone, so the lines go to the output itself.
    func finish() {
        writer?.drain(stalledAfter: Self.patience, atMost: Self.longestDrain)
    }

    /// `STATUS=<text>` to systemd (one line: newlines become spaces).
    private func status(_ text: String) {
        guard let notifySocket else { return }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        FileDescriptor.sendDatagram("STATUS=" + line, to: notifySocket)
    }

    /// How long the end waits for a reader that takes nothing (then what is
    /// queued is lost: the run ends as its command did).
    static let patience = 1.0

    /// How long the end waits in all for a reader that takes a little now
    /// and then (a byte a second would otherwise hold the run for hours).
    static let longestDrain = 5.0

    private func emit(_ fields: [String: JSONValue], always: Bool = false) {
        // Nowhere to go (no --events, no --log): not even made.
        guard writer != nil || log.hasFile else { return }
        var fields = fields
        fields["time"] = .string(RunLog.timestamp())
        let line = JSONValue.object(fields).serialized
        log.record("presenter-host: event: " + line)
        writer?.push(Array((line + "\n").utf8), always: always)
    }

    /// Where the writer thread puts the lines: the file, or above the
    /// region while one is drawn on the terminal they go to.
    private final class Destination: Sendable {
        let fd: FileDescriptor
        private let owned: Bool
        /// The runtime whose region the lines go above, while it shows.
        private let above = LockedValue(WeakRuntime())

        init(fd: FileDescriptor, owned: Bool) {
            self.fd = fd
            self.owned = owned
        }

        deinit {
            if owned { try? fd.close() }
        }

        func show(above runtime: PresenterRuntime) {
            above.withLock { $0.runtime = runtime }
        }

        /// On the writer thread: false once the output is gone. Above a
        /// region, the lines are printed before this returns (the writer
        /// waits for the terminal, as it would for a file): queued on the
        /// presenter thread instead, a command's thousands of progress
        /// lines would each wait there for a redraw of their own, past the
        /// queue's bound and past the command's end.
        func write(_ bytes: [UInt8]) -> Bool {
            if let runtime = above.withLock({ $0.runtime }), runtime.printAbove(String(decoding: bytes, as: UTF8.self))
            {
                runtime.sync {}
                return true
            }
            return TerminalShim.writeAll(fd, bytes, patient: true)
        }
    }
}
