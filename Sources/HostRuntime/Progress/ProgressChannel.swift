import Dispatch
import HostSystem
#if canImport(Glibc)
    import Glibc
#endif

/// `run`'s progress channel: a pipe whose write end the command gets under
/// the descriptor number in `PRESENTER_PROGRESS_FD`, read line by line
/// (``ProgressLine``) into a ``ProgressRelay``. A bad line is ignored and
/// named in the `--verbose` log (the first ``loggedInvalidLines`` of them,
/// then one line saying more were ignored); it never fails the command.
package final class ProgressChannel {
    /// The variable that holds the descriptor number.
    package static let environmentVariable = "PRESENTER_PROGRESS_FD"
    /// Bad lines named in the log before the rest are only counted.
    static let loggedInvalidLines = 10
    /// A line longer than this is not a progress line: it is cut there.
    static let longestLine = 4096

    /// The write end, for the command; closed in the host once the command
    /// has started (``commandStarted()``).
    package let writeFD: FileDescriptor
    /// The number the command gets it under (`PRESENTER_PROGRESS_FD`).
    package let childFD = FileDescriptor.lowestNumberFreeForChild()
    private var writeOpen = true
    private let pump: OutputPump
    private let lines: LineState

    /// Opens the pipe and starts reading it.
    /// - Throws: the errno when no pipe can be made.
    package init(relay: ProgressRelay, invalid: @escaping @Sendable (String) -> Void) throws(Errno) {
        let pipe = try FileDescriptor.pipe()
        writeFD = pipe.writeEnd
        let lines = LineState(relay: relay, invalid: invalid)
        self.lines = lines
        // Read at most every 10 ms: lines written 1,000 a second cost a
        // wake-up per 10 of them, and still reach the next frame (50 ms).
        pump = OutputPump(fd: pipe.readEnd, pacing: .milliseconds(10)) { lines.receive($0) }
    }

    /// The command has its copy: the host's is closed, so the pipe ends when
    /// the command (and whatever it gave the descriptor to) is done.
    package func commandStarted() {
        guard writeOpen else { return }
        writeOpen = false
        try? writeFD.close()
    }

    /// Reads what is left (the command was reaped) and stops.
    package func finish() {
        commandStarted()
        pump.finish()
        lines.flush()
    }

    /// The line splitting and parsing, on the pump's queue.
    private final class LineState {
        private let relay: ProgressRelay
        private let invalid: @Sendable (String) -> Void
        private var splitter = OutputLines()
        private var invalidCount = 0

        init(relay: ProgressRelay, invalid: @escaping @Sendable (String) -> Void) {
            self.relay = relay
            self.invalid = invalid
        }

        func receive(_ bytes: [UInt8]) {
            for line in splitter.append(bytes) { handle(line) }
        }

        func flush() {
            if let last = splitter.flush() { handle(last) }
        }

        private func handle(_ line: String) {
            do throws(ProgressLine.Invalid) {
                if let report = try ProgressLine.parse(String(line.prefix(ProgressChannel.longestLine))) {
                    relay.deliver(report)
                }
            } catch {
                invalidCount += 1
                if invalidCount <= ProgressChannel.loggedInvalidLines {
                    invalid("ignored a progress line: \(error.reason)")
                } else if invalidCount == ProgressChannel.loggedInvalidLines + 1 {
                    invalid("ignoring further bad progress lines without naming them")
                }
            }
        }
    }
}
