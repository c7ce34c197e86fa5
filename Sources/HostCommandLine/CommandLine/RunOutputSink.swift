import Dispatch
import FoundationEssentials
import Glibc
import HostRuntime
import HostSystem

/// Where `CMD`'s captured output goes: above the region line by line, or
/// kept for after a failure. Called on the pump's queue; `flush`,
/// `finishStream` and `replay` after the pump finished.
///
/// `--output stream` keeps the bytes as `CMD` wrote them: an unfinished
/// last line gets no newline of ours. A terminal region must start on a
/// line of its own, so there it waits until the region is gone
/// (``finishStream(to:)``), and the cursor is left after it as `CMD` left
/// it; plain lines print it as it is, in order.
// Safe: its `var`s are touched on the pump's serial queue, and by `flush`/`replay` only after it finished.
final class RunOutputSink: @unchecked Sendable {
    private let mode: OutputMode
    /// Shown in a terminal region (not plain lines).
    private let terminal: Bool
    private let runtime: PresenterRuntime
    private let relay: ProgressRelay
    private let log: RunLog
    private var progress = TerminalProgressFilter()
    private var lines = OutputLines()
    private var logLines = OutputLines()
    private let kept = CapturedOutput()
    /// `--output stream`: what `CMD` wrote after its last newline, byte for byte.
    private var unfinished: [UInt8] = []

    /// Gets the whole lines of `--output tail` (on the pump's queue).
    private let tail: ([String]) -> Void

    init(
        mode: OutputMode, terminal: Bool, runtime: PresenterRuntime, relay: ProgressRelay, log: RunLog,
        tail: @escaping ([String]) -> Void
    ) {
        self.mode = mode
        self.terminal = terminal
        self.runtime = runtime
        self.relay = relay
        self.log = log
        self.tail = tail
    }

    /// Takes the OSC 9;4 progress sequences out (to the relay) and passes
    /// the rest on.
    func receive(_ chunk: [UInt8]) {
        let (bytes, reports) = progress.filter(chunk)
        for report in reports { relay.deliver(report) }
        keep(bytes)
    }

    private func keep(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if log.hasFile {
            for line in logLines.append(bytes) { log.record("presenter-host: output: " + line) }
        }
        switch mode {
        case .hide: return
        case .onFailure: return kept.append(bytes)
        case .tail:
            kept.append(bytes)
            return tail(lines.append(bytes))
        case .stream: break
        }
        if let newline = bytes.lastIndex(of: 0x0a) {
            unfinished = Array(bytes[(newline + 1)...])
        } else {
            unfinished += bytes
        }
        let complete = lines.append(bytes)
        if !complete.isEmpty { runtime.printAbove(complete.joined(separator: "\n") + "\n") }
    }

    /// Takes what is left once the pump finished: the log's last line, and
    /// with plain lines `--output stream`'s unfinished last line, as it is.
    func flush() {
        keep(progress.flush())
        if log.hasFile, let last = logLines.flush() { log.record("presenter-host: output: " + last) }
        if mode == .stream && !terminal && !unfinished.isEmpty {
            // On the presenter thread, in order with the plain lines.
            let bytes = unfinished
            runtime.sync { _ = TerminalShim.writeAll(.standardError, bytes) }
            unfinished = []
        }
    }

    /// `--output stream` in a terminal, once the region is gone: writes
    /// the unfinished last line to `fd` as `CMD` wrote it.
    func finishStream(to fd: FileDescriptor) {
        guard mode == .stream && !unfinished.isEmpty else { return }
        _ = TerminalShim.writeAll(fd, unfinished)
        unfinished = []
    }

    /// Writes what was kept (only with `--output on-failure` and `tail`).
    func replay(to fd: FileDescriptor) {
        kept.write(to: fd)
    }
}
