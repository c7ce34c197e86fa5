#if canImport(Glibc)
    import Glibc
#endif

/// Cuts a byte stream, fed in pieces as they are read, into lines without
/// their newlines, so that a line is the same however its bytes arrived.
/// A line longer than `limit` bytes is cut: it is handed over as nil and
/// the rest up to its newline skipped, so that at most `limit` bytes are
/// ever kept for a source (the drive socket's poll loop keeps one splitter
/// for each client).
package struct LineSplitter {
    /// The longest line handed over; a longer one is nil.
    package let limit: Int
    private var pending: [UInt8] = []
    private var skipping = false

    package init(limit: Int) {
        self.limit = limit
    }

    /// Takes the next `bytes` of the stream and calls `line` for each line
    /// they complete (nil for one longer than ``limit``).
    package mutating func feed(_ bytes: ArraySlice<UInt8>, _ line: ([UInt8]?) -> Void) {
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            if !skipping {
                pending.append(contentsOf: bytes[start..<index])
                line(pending.count > limit ? nil : pending)
            }
            pending.removeAll(keepingCapacity: pending.count <= 4096)
            skipping = false
            start = index + 1
        }
        if !skipping {
            pending.append(contentsOf: bytes[start...])
            if pending.count > limit {
                line(nil)
                pending = []
                skipping = true
            }
        }
    }

    /// The stream ended: a last line without a newline counts too.
    package mutating func finish(_ line: ([UInt8]?) -> Void) {
        if !skipping && !pending.isEmpty { line(pending) }
        pending = []
        skipping = false
    }
}

extension FileDescriptor {
    /// Reads to the end and calls `line` with each line (``LineSplitter``:
    /// without its newline, a last one without a newline too, nil for one
    /// longer than `limit`). A non-blocking descriptor (stdin inherited
    /// with O_NONBLOCK from a parent or a shared terminal) is waited on
    /// with `poll` when it has nothing yet, never taken as the end, and its
    /// flags are left as they are: they belong to everyone who shares it.
    /// - Throws: a read error (the line it cut off is dropped); returns at
    ///   the end of file.
    package func readLines(limit: Int, _ line: ([UInt8]?) -> Void) throws(Errno) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var splitter = LineSplitter(limit: limit)
        while true {
            let count: Int
            do throws(Errno) {
                count = try read(into: &buffer)
            } catch  where error.wouldBlock {
                _ = try wait(for: .input) { -1 }
                continue
            }
            if count == 0 { break }
            splitter.feed(buffer[..<count], line)
        }
        splitter.finish(line)
    }
}
