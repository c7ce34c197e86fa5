import FoundationEssentials
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
// Safe: `runtime` and `held` only under `lock`; the rest is immutable.
final class RunLog: @unchecked Sendable {
    private let verbose: Bool
    private let file: FileDescriptor?
    private let lock = Lock()
    /// Where verbose lines go while the presenter is on screen.
    private weak var runtime: PresenterRuntime?
    /// Lines that came once the runtime was shutting down (or while a full
    /// screen is shown: ``hold()``), written after it.
    private var held: [String] = []
    private var holding = false

    /// A log for `--verbose` and `--log path`.
    /// - Throws: `.cannotCreate` naming the file when it cannot be opened.
    init(verbose: Bool, path: String?) throws(CommandError) {
        self.verbose = verbose
        guard let path else {
            file = nil
            return
        }
        do throws(Errno) {
            file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOCTTY, permissions: 0o644)
        } catch {
            throw .cannotCreate(
                "--log \(PrintableText.escaping(path)): cannot open it for writing (\(errnoText(error.code))); give a file in a directory you can write"
            )
        }
    }

    deinit {
        try? file?.close()
    }

    /// True when there is a `--log` file.
    var hasFile: Bool { file != nil }

    /// True when entries go anywhere.
    var isEnabled: Bool { verbose || file != nil }

    /// From now on, verbose lines go above `runtime`'s region.
    func show(above runtime: PresenterRuntime) {
        lock.withLock { self.runtime = runtime }
    }

    /// From now on, verbose lines are kept until ``flush()``: a full screen
    /// (the Add Bookmark screen) has nowhere to print them.
    func hold() {
        lock.withLock { holding = true }
    }

    /// Records `entry`.
    func write(_ entry: PresenterLogEntry) {
        guard isEnabled else { return }
        lock.withLock {
            try? file?.writeAll(Array((Self.timestamp() + " " + entry.line + "\n").utf8))
            guard verbose else { return }
            if holding {
                held.append(entry.line)
            } else if let runtime {
                // Refused once the runtime is shutting down: written after it.
                if !runtime.printAbove(entry.line + "\n") { held.append(entry.line) }
            } else {
                PresenterHostCommand.writeStandardError(entry.line + "\n")
            }
        }
    }

    /// Records a line already shown on stderr (a presenter's failure) in the
    /// log file only.
    func record(_ line: String) {
        guard let file else { return }
        lock.withLock { try? file.writeAll(Array((Self.timestamp() + " " + PrintableText.escaping(line) + "\n").utf8)) }
    }

    /// Writes what came while the runtime was shutting down: call it once
    /// the runtime is shut down (the region is gone by then).
    func flush() {
        let lines: [String] = lock.withLock {
            defer { held = [] }
            runtime = nil
            holding = false
            return held
        }
        for line in lines { PresenterHostCommand.writeStandardError(line + "\n") }
    }

    /// Now in UTC, to the millisecond: `2026-11-30T22:12:07.123Z`.
    static func timestamp() -> String {
        let now = WallClock.now()
        let parts = WallClock.utc(now.tv_sec)
        return CFormat.string(
            "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec),
            Int(now.tv_nsec / 1_000_000))
    }
}
