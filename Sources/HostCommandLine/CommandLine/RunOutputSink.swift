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
/// The line `CMD` is still writing shows live in a terminal's `--output
/// tail` and `stream` (``RunView``): its latest state (``LiveLine``: the
/// text after its last `\r`), as it comes, before its newline. Stream
/// prints it above the region once, in its last state, when the newline
/// comes, as it prints every line; the output kept for a failure keeps
/// each line's last state only (``RedrawnLines``), so a replay shows a
/// tqdm bar once, as the terminal showed it.
///
/// A line without a newline is bounded (``OutputLines``): past 64 KiB it
/// is passed on in pieces, each a line of its own, in every mode and in
/// the `--log` file, and what a carriage return redrew of it is forgotten,
/// so a 1 GB line or a `\r`-redrawn bar costs 64 KiB, not its size; its
/// live state costs 4 KiB.
final class RunOutputSink: Sendable {
    private let mode: OutputMode
    /// Shown in a terminal region (not plain lines).
    private let terminal: Bool
    private let runtime: PresenterRuntime
    private let relay: ProgressRelay
    private let log: RunLog
    /// The lines as they come (the pump's queue) and as the prompt shows
    /// them (the presenter thread).
    private let state = LockedValue(Lines())
    /// The `--log` file's lines (the pump's queue).
    private let logLines = LockedValue(OutputLines())
    /// What is kept for the replay (the pump's queue, then the end's).
    private let kept = LockedValue(Kept())
    /// The unfinished line shows live (a terminal's tail or stream), or
    /// becomes the working message (`--working-from-output`).
    private let showsLive: Bool
    /// `--working-from-output`: the view gets every line, in every mode but hide.
    private let followsOutput: Bool

    /// Gets the whole lines of `--output tail` and the live state of the
    /// unfinished line (nil: unchanged; empty: none) of `tail` and `stream`
    /// (on the pump's queue; on the presenter thread when a prompt hides it).
    private let show: @Sendable ([String], [UInt8]?) -> Void

    private struct Kept {
        var fold = RedrawnLines()
        let output = CapturedOutput()
    }

    private struct Lines {
        var progress = TerminalProgressFilter()
        var lines = OutputLines()
        var live = LiveLine()
        /// How many bytes of the unfinished line were shown as a prompt.
        var promptShown = 0

        /// When part of the unfinished line was shown as a prompt and
        /// `bytes` end it, the rest of it with its newline (to be printed
        /// whatever the mode: a line begun on the screen ends there) and
        /// the bytes after it; else nothing and all of `bytes`.
        mutating func endOfPrompt(in bytes: [UInt8]) -> (String?, ArraySlice<UInt8>) {
            guard promptShown > 0, let newline = bytes.firstIndex(of: 0x0A) else { return (nil, bytes[...]) }
            let rest = lines.unfinished.dropFirst(shownKept) + bytes[...newline]
            _ = lines.flush()
            promptShown = 0
            return (String(decoding: rest, as: UTF8.self), bytes[(newline + 1)...])
        }

        /// How many of the kept bytes of the unfinished line were shown as
        /// a prompt (those before them were forgotten).
        var shownKept: Int { max(0, promptShown - lines.forgotten) }
    }

    init(
        mode: OutputMode, terminal: Bool, followsOutput: Bool = false, runtime: PresenterRuntime,
        relay: ProgressRelay, log: RunLog, show: @escaping @Sendable ([String], [UInt8]?) -> Void
    ) {
        self.mode = mode
        self.terminal = terminal
        self.runtime = runtime
        self.relay = relay
        self.log = log
        self.show = show
        self.followsOutput = terminal && followsOutput && mode != .hide
        showsLive = terminal && (mode == .tail || mode == .stream || self.followsOutput)
        // The region reads the prompt when it steps aside (presenter thread).
        runtime.showsPrompts { [weak self] in self?.unshownPrompt() ?? [] }
    }

    /// Takes the OSC 9;4 progress sequences out (to the relay) and passes
    /// the rest on.
    func receive(_ chunk: [UInt8]) {
        let (bytes, reports) = state.withLock { $0.progress.filter(chunk) }
        for report in reports { relay.deliver(report) }
        keep(bytes)
    }

    private func keep(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if log.hasFile {
            for line in logLines.withLock({ $0.append(bytes) }) { log.record("presenter-host: output: " + line) }
        }
        if mode == .onFailure || mode == .tail { kept.withLock { $0.output.append($0.fold.fold(bytes)) } }
        let showsLive = showsLive
        let (promptEnd, complete, live): (String?, [String], [UInt8]?) = state.withLock { state in
            let (promptEnd, rest) = state.endOfPrompt(in: bytes)
            let complete = rest.isEmpty ? [] : state.lines.append(Array(rest))
            guard showsLive, state.live.append(bytes[...]) else { return (promptEnd, complete, nil) }
            // A line shown as a prompt is on the screen already, the region off.
            return (promptEnd, complete, state.promptShown > 0 ? [] : state.live.bytes)
        }
        if let promptEnd { runtime.printAbove(promptEnd) }
        switch mode {
        case .hide: return
        case .onFailure: if followsOutput { show(complete, live) }
        case .tail: show(complete, live)
        case .stream:
            if !complete.isEmpty { runtime.printAbove(complete.joined(separator: "\n") + "\n") }
            show(followsOutput ? complete : [], live)
        }
    }

    /// On the presenter thread, while the command asks the user something:
    /// the bytes of its unfinished line not shown yet, from now on shown.
    private func unshownPrompt() -> [UInt8] {
        let (unshown, first) = state.withLock { state in
            let unshown = Array(state.lines.unfinished.dropFirst(state.shownKept))
            defer { state.promptShown += unshown.count }
            return (unshown, state.promptShown == 0 && !unshown.isEmpty)
        }
        // The line is on the screen as it is from now on: not live as well.
        if first && showsLive { show([], []) }
        return unshown
    }

    /// Takes what is left once the pump finished: the log's last line, the
    /// rest of a line begun as a prompt (with a newline: a line begun on
    /// the screen ends there), and with plain lines `--output stream`'s
    /// unfinished last line, as it is.
    func flush() {
        keep(state.withLock { $0.progress.flush() })
        if log.hasFile, let last = logLines.withLock({ $0.flush() }) {
            log.record("presenter-host: output: " + last)
        }
        let (mode, terminal) = (mode, terminal)
        let (promptRest, stream): (String?, [UInt8]) = state.withLock { state in
            defer { state.promptShown = 0 }
            guard state.promptShown > 0 else {
                guard mode == .stream && !terminal else { return (nil, []) }
                defer { _ = state.lines.flush() }
                return (nil, state.lines.unfinished)
            }
            let rest = state.lines.unfinished.dropFirst(state.shownKept)
            _ = state.lines.flush()
            return (rest.isEmpty ? nil : String(decoding: rest, as: UTF8.self), [])
        }
        if let promptRest { runtime.printAbove(promptRest + "\n") }
        // On the presenter thread, in order with the plain lines.
        if !stream.isEmpty { runtime.sync { _ = TerminalShim.writeAll(.standardError, stream) } }
    }

    /// `--output stream` in a terminal, once the region is gone: writes
    /// the unfinished last line to `fd` as `CMD` wrote it.
    func finishStream(to fd: FileDescriptor) {
        let mode = mode
        let bytes: [UInt8] = state.withLock { state in
            defer { _ = state.lines.flush() }
            return mode == .stream ? state.lines.unfinished : []
        }
        guard !bytes.isEmpty else { return }
        _ = TerminalShim.writeAll(fd, bytes)
    }

    /// Writes what was kept (only with `--output on-failure` and `tail`).
    func replay(to fd: FileDescriptor) {
        kept.withLock { kept in
            kept.output.append(kept.fold.flush())
            kept.output.write(to: fd)
        }
    }
}
