import HostSystem

/// Keeps plugin output away from the host's results.
///
/// Plugin code (library constructors, entry points, hooks) may print to
/// stdout although the ABI forbids it. While a diversion is active, file
/// descriptor 1 points at stderr, so such prints land there, and the host
/// writes its results (a table, JSON) to `output`, a duplicate of the
/// original stdout. Output that plugins buffered in C's `stdout` is flushed
/// into stderr as long as the diversion is active, which is why commands that
/// load plugins and then exit simply never `restore()`.
package final class StandardOutputDiversion {
    /// The original stdout; 1 when it could not be duplicated (then nothing
    /// is diverted) and after `restore()`.
    package private(set) var output: FileDescriptor

    /// Diverts file descriptor 1 to stderr.
    package init() {
        FileDescriptor.flushCStreams()
        let saved = try? FileDescriptor.standardOutput.duplicate(atLeast: 3)
        if let saved, (try? FileDescriptor.standardError.duplicate(as: .standardOutput)) != nil {
            output = saved
        } else {
            try? saved?.close()
            output = .standardOutput
        }
    }

    /// Writes `text` to the original stdout, all of it
    /// (``FileDescriptor/writeAll(_:whenFull:)``).
    /// - Throws: the write's error (the stream is closed or broken).
    package func write(_ text: String) throws(Errno) {
        try output.writeAll(Array(text.utf8))
    }

    /// Points file descriptor 1 back at the original stdout, after flushing
    /// whatever plugins buffered into stderr. Later calls do nothing.
    package func restore() {
        guard output != .standardOutput else { return }
        FileDescriptor.flushCStreams()
        _ = try? output.duplicate(as: .standardOutput)
        try? output.close()
        output = .standardOutput
    }
}
