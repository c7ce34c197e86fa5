#if canImport(Glibc)
import Glibc
#endif

/// `pipe` with both ends close-on-exec (glibc's pipe2 is not visible to Swift).
func makePipe(_ fds: inout [Int32], nonBlocking: Bool = false) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    return true
}

/// strerror's text for an errno value.
func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
