import SystemShims
#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose ends are close-on-exec from their creation (`pipe2`), so no
/// process that another thread spawns meanwhile can inherit them.
func makePipe(_ fds: inout [Int32], nonBlocking: Bool = false) -> Bool {
    fds.withUnsafeMutableBufferPointer { ph_pipe_cloexec($0.baseAddress, nonBlocking ? 1 : 0) } == 0
}

/// A connected pair of Unix stream sockets, close-on-exec from their creation.
func makeSocketPair(_ fds: inout [Int32]) -> Bool {
    fds.withUnsafeMutableBufferPointer { ph_socketpair_cloexec($0.baseAddress) } == 0
}

/// The lowest descriptor number from 3 up that a command started now would
/// not inherit (closed, or close-on-exec in the host): a number to give it a
/// descriptor under without hiding one its caller passed (`3>file`). Low
/// numbers matter: `sh` redirects only to single digits (`>&7`).
func freeChildDescriptorNumber() -> Int32 {
    var fd: Int32 = 3
    while true {
        let flags = fcntl(fd, F_GETFD)
        if flags == -1 || flags & FD_CLOEXEC != 0 { return fd }
        fd += 1
    }
}

/// strerror's text for an errno value.
func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// Everything `fd` reads until end of file, or `nil` with errno set.
func readAll(_ fd: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n == 0 { return bytes }
        if n < 0 {
            if errno == EINTR { continue }
            return nil
        }
        bytes.append(contentsOf: buffer[..<n])
    }
}
