import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// A command's output kept while a presenter is on screen, to be shown only
/// if the command fails. It stays in memory up to `memoryLimit` bytes, then
/// moves to an unlinked temporary file, so nothing is lost however much the
/// command prints.
public final class CapturedOutput {
    /// Bytes kept in memory before spilling to a file.
    public let memoryLimit: Int
    private var memory: [UInt8] = []
    private var fileFD: Int32 = -1
    /// Total bytes appended.
    public private(set) var count = 0
    /// Set when the spill file could not be created or written; the bytes
    /// from then on are dropped and `write(to:)` says so.
    public private(set) var lostBytes = 0

    /// Creates an empty buffer.
    public init(memoryLimit: Int = 4 << 20) {
        self.memoryLimit = memoryLimit
    }

    deinit {
        if fileFD >= 0 { close(fileFD) }
    }

    /// Keeps `bytes`.
    public func append(_ bytes: [UInt8]) {
        count += bytes.count
        if fileFD < 0 && memory.count + bytes.count <= memoryLimit {
            memory.append(contentsOf: bytes)
            return
        }
        if fileFD < 0 {
            guard let fd = Self.makeSpillFile(), writeAll(fd, memory) else {
                lostBytes += bytes.count
                return
            }
            fileFD = fd
            memory = []
        }
        if !writeAll(fileFD, bytes) { lostBytes += bytes.count }
    }

    /// Writes everything kept, in order, to `fd`.
    public func write(to fd: Int32) {
        if fileFD >= 0 {
            _ = lseek(fileFD, 0, SEEK_SET)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                guard let n = try? readSome(fileFD, into: &buffer), n > 0, writeAll(fd, Array(buffer[..<n])) else {
                    break
                }
            }
        } else {
            _ = writeAll(fd, memory)
        }
        if lostBytes > 0 {
            _ = writeAll(
                fd,
                Array(
                    "presenter-host: \(lostBytes) bytes of the command's output were lost (cannot write a temporary file in \(Self.temporaryDirectory))\n"
                        .utf8))
        }
    }

    private static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    }

    /// A temporary file that is already unlinked, so it vanishes with the process.
    private static func makeSpillFile() -> Int32? {
        var template = Array("\(temporaryDirectory)/presenter-host-output-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { ph_mkstemp_cloexec($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }
}
