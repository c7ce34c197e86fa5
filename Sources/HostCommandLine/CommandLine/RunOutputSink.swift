import FoundationEssentials
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
///
/// A prompt is shown whatever the mode: while the command asks the user
/// something (``TerminalBackend``: echo off or non-canonical input, set by
/// the command, as `read -s -p "Password: "` does), the region steps aside
/// and the command's unfinished line is written where a terminal would
/// have shown it, as it comes; a line begun so is shown to its end
/// (``endOfPrompt(in:)``), and kept for the replay as the rest is.
///
/// A line without a newline is bounded (``OutputLines``): past 64 KiB it
/// is passed on in pieces, each a line of its own, in every mode and in
/// the `--log` file, and what a carriage return redrew of it is forgotten,
/// so a 1 GB line or a `\r`-redrawn bar costs 64 KiB, not its size.
// Safe: `lines`, `promptShown` and the filters only under
// `lock` (the pump's queue and, for the prompt, the presenter thread);
// `logLines` on the pump's queue.
final class RunOutputSink: @unchecked Sendable {
    private let mode: OutputMode
    /// Shown in a terminal region (not plain lines).
    private let terminal: Bool
    private let runtime: PresenterRuntime
    private let relay: ProgressRelay
    private let log: RunLog
    private let lock = Lock()
    private var progress = TerminalProgressFilter()
    private var lines = OutputLines()
    /// How many bytes of the unfinished line were shown as a prompt.
    private var promptShown = 0
    private var logLines = OutputLines()
    private let kept = CapturedOutput()

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
        // The region reads the prompt when it steps aside (presenter thread).
        runtime.showsPrompts { [weak self] in self?.unshownPrompt() ?? [] }
    }

    /// Takes the OSC 9;4 progress sequences out (to the relay) and passes
    /// the rest on.
    func receive(_ chunk: [UInt8]) {
        let (bytes, reports) = lock.withLock { progress.filter(chunk) }
        for report in reports { relay.deliver(report) }
        keep(bytes)
    }

    private func keep(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if log.hasFile {
            for line in logLines.append(bytes) { log.record("presenter-host: output: " + line) }
        }
        if mode == .onFailure || mode == .tail { kept.append(bytes) }
        let (promptEnd, complete): (String?, [String]) = lock.withLock {
            let (promptEnd, rest) = endOfPrompt(in: bytes)
            return (promptEnd, rest.isEmpty ? [] : lines.append(Array(rest)))
        }
        if let promptEnd { runtime.printAbove(promptEnd) }
        switch mode {
        case .hide, .onFailure: return
        case .tail: return tail(complete)
        case .stream: break
        }
        if !complete.isEmpty { runtime.printAbove(complete.joined(separator: "\n") + "\n") }
    }

    /// Under `lock`: when part of the unfinished line was shown as a prompt
    /// and `bytes` end it, the rest of it with its newline (to be printed
    /// whatever the mode: a line begun on the screen ends there) and the
    /// bytes after it; else nothing and all of `bytes`.
    private func endOfPrompt(in bytes: [UInt8]) -> (String?, ArraySlice<UInt8>) {
        guard promptShown > 0, let newline = bytes.firstIndex(of: 0x0A) else { return (nil, bytes[...]) }
        let rest = lines.unfinished.dropFirst(shownKept) + bytes[...newline]
        _ = lines.flush()
        promptShown = 0
        return (String(decoding: rest, as: UTF8.self), bytes[(newline + 1)...])
    }

    /// On the presenter thread, while the command asks the user something:
    /// the bytes of its unfinished line not shown yet, from now on shown.
    private func unshownPrompt() -> [UInt8] {
        lock.withLock {
            let unshown = Array(lines.unfinished.dropFirst(shownKept))
            promptShown += unshown.count
            return unshown
        }
    }

    /// Under `lock`: how many of the kept bytes of the unfinished line
    /// were shown as a prompt (those before them were forgotten).
    private var shownKept: Int { max(0, promptShown - lines.forgotten) }

    /// Takes what is left once the pump finished: the log's last line, the
    /// rest of a line begun as a prompt (with a newline: a line begun on
    /// the screen ends there), and with plain lines `--output stream`'s
    /// unfinished last line, as it is.
    func flush() {
        keep(lock.withLock { progress.flush() })
        if log.hasFile, let last = logLines.flush() { log.record("presenter-host: output: " + last) }
        let (promptRest, stream): (String?, [UInt8]) = lock.withLock {
            defer { promptShown = 0 }
            guard promptShown > 0 else {
                guard mode == .stream && !terminal else { return (nil, []) }
                defer { _ = lines.flush() }
                return (nil, lines.unfinished)
            }
            let rest = lines.unfinished.dropFirst(shownKept)
            _ = lines.flush()
            return (rest.isEmpty ? nil : String(decoding: rest, as: UTF8.self), [])
        }
        if let promptRest { runtime.printAbove(promptRest + "\n") }
        // On the presenter thread, in order with the plain lines.
        if !stream.isEmpty { runtime.sync { _ = TerminalShim.writeAll(.standardError, stream) } }
    }

    /// `--output stream` in a terminal, once the region is gone: writes
    /// the unfinished last line to `fd` as `CMD` wrote it.
    func finishStream(to fd: FileDescriptor) {
        let bytes: [UInt8] = lock.withLock {
            defer { _ = lines.flush() }
            return mode == .stream ? lines.unfinished : []
        }
        guard !bytes.isEmpty else { return }
        _ = TerminalShim.writeAll(fd, bytes)
    }

    /// Writes what was kept (only with `--output on-failure` and `tail`).
    func replay(to fd: FileDescriptor) {
        kept.write(to: fd)
    }
}
