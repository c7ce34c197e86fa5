import Dispatch
import FoundationEssentials
import Glibc
import HostRuntime
import HostSystem

/// Where `CMD`'s captured output goes: above the region line by line, or
/// kept for after a failure. Called on the pump's queue; `flush` and
/// `replay` after the pump finished.
// Safe: its `var`s are touched on the pump's serial queue, and by `flush`/`replay` only after it finished.
final class RunOutputSink: @unchecked Sendable {
    private let mode: OutputMode
    private let runtime: PresenterRuntime
    private let relay: ProgressRelay
    private let log: RunLog
    private var progress = TerminalProgressFilter()
    private var lines = OutputLines()
    private var logLines = OutputLines()
    private let kept = CapturedOutput()

    /// Gets the whole lines of `--output tail` (on the pump's queue).
    private let tail: ([String]) -> Void

    init(
        mode: OutputMode, runtime: PresenterRuntime, relay: ProgressRelay, log: RunLog,
        tail: @escaping ([String]) -> Void
    ) {
        self.mode = mode
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
        let complete = lines.append(bytes)
        if !complete.isEmpty { runtime.printAbove(complete.joined(separator: "\n") + "\n") }
    }

    /// Prints the unfinished last line.
    func flush() {
        keep(progress.flush())
        if log.hasFile, let last = logLines.flush() { log.record("presenter-host: output: " + last) }
        if mode == .stream, let last = lines.flush() { runtime.printAbove(last + "\n") }
    }

    /// Writes what was kept (only with `--output on-failure` and `tail`).
    func replay(to fd: FileDescriptor) {
        kept.write(to: fd)
    }
}
