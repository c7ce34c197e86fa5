import Glibc

/// Keeps plugin output away from the host's results.
///
/// Plugin code (library constructors, entry points, hooks) may print to
/// stdout although the ABI forbids it. While a diversion is active, file
/// descriptor 1 points at stderr, so such prints land there, and the host
/// writes its results (a table, JSON) to `output`, a duplicate of the
/// original stdout. Output that plugins buffered in C's `stdout` is flushed
/// into stderr as long as the diversion is active, which is why commands that
/// load plugins and then exit simply never `restore()`.
public final class StandardOutputDiversion {
    /// The original stdout; 1 when it could not be duplicated (then nothing
    /// is diverted) and after `restore()`.
    public private(set) var output: Int32

    /// Diverts file descriptor 1 to stderr.
    public init() {
        fflush(nil)  // all streams: Swift 6 refuses the C global `stdout`
        let saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        if saved >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 {
            output = saved
        } else {
            if saved >= 0 { close(saved) }
            output = STDOUT_FILENO
        }
    }

    /// Writes `text` to the original stdout, all of it (``writeFully``).
    /// Returns false when the stream is closed or broken.
    @discardableResult
    public func write(_ text: String) -> Bool {
        writeAll(output, Array(text.utf8))
    }

    /// Points file descriptor 1 back at the original stdout, after flushing
    /// whatever plugins buffered into stderr. Later calls do nothing.
    public func restore() {
        guard output != STDOUT_FILENO else { return }
        fflush(nil)  // all streams: Swift 6 refuses the C global `stdout`
        dup2(output, STDOUT_FILENO)
        close(output)
        output = STDOUT_FILENO
    }
}
