import Glibc
import HostEngine
import HostRuntime
import HostSystem
import HostText

/// The presenter log of one `run`: the presenters' log lines, what their
/// process printed, and the host's decisions about them (a failing hook,
/// the watchdog, the move to plain lines).
///
/// With `--verbose` each entry is a line on stderr (above the region in a
/// terminal, so it never tears it); with `--log FILE` it is appended to the
/// file with a timestamp. Both are the entry's one line, what the plugin
/// said escaped (``PresenterLogEntry/line``). Without either, nothing is
/// kept. Any thread; entries are written one at a time.
///
/// The file's lines are written by a thread of their own through a bounded
/// queue (``QueuedWriter``), as `--events`' are: a `--log` FIFO or pipe
/// whose reader stopped never stalls the run. Lines past the bound are
/// dropped, and ``flush()`` writes one line that counts them.
final class RunLog: Sendable {
    private let verbose: Bool
    private let file: QueuedWriter?
    /// Where verbose lines go, under one lock: entries are written one at a time.
    private let state = LockedValue(State())

    private struct State {
        /// Where verbose lines go while the presenter is on screen.
        var above = WeakRuntime()
        /// Lines that came once the runtime was shutting down (or while a
        /// full screen is shown: ``RunLog/hold()``), written after it.
        var held: [String] = []
        var holding = false
    }

    /// A log for `--verbose` and `--log path`.
    /// - Throws: `.cannotCreate` naming the file when it cannot be opened.
    init(verbose: Bool, path: String?) throws(CommandError) {
        self.verbose = verbose
        guard let path else {
            file = nil
            return
        }
        let fd = try Self.openForAppending(path, option: "--log")
        file = QueuedWriter(name: "log") { bytes in
            TerminalShim.writeAll(fd, bytes, patient: true)
        }
    }

    /// Opens `path` (the value of `option`) for appending, creating it
    /// 0644: not following a link another user placed in a shared folder
    /// (``FileStatus/foreignLinkOwner(_:)``), not writing to a file another
    /// user made there (``FileStatus/foreignFileOwner(_:named:)``), and
    /// without waiting for a reader of a FIFO (non-blocking: a FIFO with
    /// none is refused).
    /// - Throws: `.cannotCreate`, one line naming the file.
    static func openForAppending(_ path: String, option: String) throws(CommandError) -> FileDescriptor {
        let shown = PrintableText.escaping(path)
        if let owner = FileStatus.foreignLinkOwner(path) {
            throw .cannotCreate(
                "\(option) \(shown): a symbolic link that another user (uid \(owner)) placed in a shared folder; it is not followed: remove it, or give a path in a folder only you can write"
            )
        }
        // Not a link of another user's when checked: a link put there since is refused (ELOOP).
        let noFollow = FileStatus.isSymbolicLink(path) ? 0 : O_NOFOLLOW
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(
                path, O_WRONLY | O_CREAT | O_APPEND | O_NOCTTY | O_NONBLOCK | noFollow, permissions: 0o644)
        } catch {
            throw .cannotCreate(
                "\(option) \(shown): cannot open it for writing (\(errnoText(error.code))); give a file in a directory you can write"
            )
        }
        if let owner = FileStatus.foreignFileOwner(fd, named: path) {
            try? fd.close()
            throw .cannotCreate(
                "\(option) \(shown): a file that another user (uid \(owner)) made in a shared folder; it is not written to: remove it, or give a path in a folder only you can write"
            )
        }
        return fd
    }

    /// True when there is a `--log` file.
    var hasFile: Bool { file != nil }

    /// True when entries go anywhere.
    var isEnabled: Bool { verbose || file != nil }

    /// From now on, verbose lines go above `runtime`'s region.
    func show(above runtime: PresenterRuntime) {
        state.withLock { $0.above.runtime = runtime }
    }

    /// From now on, verbose lines are kept until ``flush()``: a full screen
    /// (the Add Bookmark screen) has nowhere to print them.
    func hold() {
        state.withLock { $0.holding = true }
    }

    /// Records `entry`.
    func write(_ entry: PresenterLogEntry) {
        guard isEnabled else { return }
        state.withLock { state in
            file?.push(Array((Self.timestamp() + " " + entry.line + "\n").utf8))
            guard verbose else { return }
            if state.holding {
                state.held.append(entry.line)
            } else if let runtime = state.above.runtime {
                // Refused once the runtime is shutting down: written after it.
                if !runtime.printAbove(entry.line + "\n") { state.held.append(entry.line) }
            } else {
                PresenterHostCommand.writeStandardError(entry.line + "\n")
            }
        }
    }

    /// Records a line already shown on stderr (a presenter's failure) in the
    /// log file only.
    func record(_ line: String) {
        guard let file else { return }
        state.withLock { _ in _ = file.push(Array((Self.timestamp() + " " + PrintableText.escaping(line) + "\n").utf8))
        }
    }

    /// Writes what came while the runtime was shutting down: call it once
    /// the runtime is shut down (the region is gone by then). The file gets
    /// a line counting the lines dropped, if any, and what is queued is let
    /// go to it while its reader takes some (``RunEvents/patience``).
    func flush() {
        if let file {
            let dropped = file.takeDropped()
            if dropped > 0 {
                let line =
                    "presenter-host: \(dropped) log line\(dropped == 1 ? "" : "s") dropped: the log's reader was too slow"
                file.push(Array((Self.timestamp() + " " + line + "\n").utf8), always: true)
            }
            file.drain(stalledAfter: RunEvents.patience, atMost: RunEvents.longestDrain)
        }
        let lines: [String] = state.withLock { state in
            defer { state = State() }
            return state.held
        }
        for line in lines { PresenterHostCommand.writeStandardError(line + "\n") }
    }

    /// Now in UTC, to the millisecond: `2026-11-30T22:12:07.123Z`.
    static func timestamp() -> String {
        WallClock.iso8601(WallClock.now(), milliseconds: true)
    }
}
