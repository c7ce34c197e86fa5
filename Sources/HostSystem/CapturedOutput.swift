import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// A command's output kept while a presenter is on screen, to be shown only
/// if the command fails. It stays in memory up to `memoryLimit` bytes, then
/// moves to an unlinked temporary file, so nothing is lost however much the
/// command prints.
package final class CapturedOutput {
    /// Bytes kept in memory before spilling to a file.
    package let memoryLimit: Int
    private var memory: [UInt8] = []
    private var file: FileDescriptor?
    /// Total bytes appended.
    package private(set) var count = 0
    /// Set when the spill file could not be created or written; the bytes
    /// from then on are dropped and `write(to:)` says so.
    package private(set) var lostBytes = 0

    /// Creates an empty buffer.
    package init(memoryLimit: Int = 4 << 20) {
        self.memoryLimit = memoryLimit
    }

    deinit {
        try? file?.close()
    }

    /// Keeps `bytes`.
    package func append(_ bytes: [UInt8]) {
        count += bytes.count
        if file == nil && memory.count + bytes.count <= memoryLimit {
            memory.append(contentsOf: bytes)
            return
        }
        if file == nil {
            guard let spill = Self.makeSpillFile() else {
                lostBytes += bytes.count
                return
            }
            guard (try? spill.writeAll(memory)) != nil else {
                try? spill.close()
                lostBytes += bytes.count
                return
            }
            file = spill
            memory = []
        }
        if (try? file?.writeAll(bytes)) == nil { lostBytes += bytes.count }
    }

    /// Writes everything kept, in order, to `fd`.
    package func write(to fd: FileDescriptor) {
        if let file {
            try? file.seek(to: 0)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                guard let n = try? file.read(into: &buffer), n > 0, (try? fd.writeAll(Array(buffer[..<n]))) != nil
                else { break }
            }
        } else {
            try? fd.writeAll(memory)
        }
        if lostBytes > 0 {
            try? fd.writeAll(
                Array(
                    "presenter-host: \(lostBytes) bytes of the command's output were lost (cannot write a temporary file in \(Self.temporaryDirectory))\n"
                        .utf8))
        }
    }

    private static var temporaryDirectory: String {
        ProcessEnvironment.current["TMPDIR"] ?? "/tmp"
    }

    /// A temporary file that is already unlinked, so it vanishes with the process.
    private static func makeSpillFile() -> FileDescriptor? {
        var template = Array("\(temporaryDirectory)/presenter-host-output-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { ph_mkstemp_cloexec($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return FileDescriptor(rawValue: fd)
    }
}
