import Foundation
@testable import PresenterHost

/// A pipe standing in for the terminal: the backend writes, the test reads.
final class OutputPipe {
    let readEnd: Int32, writeEnd: Int32
    init() {
        var fds: [Int32] = [0, 0]
        // Close-on-exec, so no child another test starts meanwhile holds it.
        precondition(makePipe(&fds), "cannot create a pipe")
        readEnd = fds[0]
        writeEnd = fds[1]
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
    }
    deinit { close(readEnd); close(writeEnd) }
    /// Everything written since the last read.
    func read() -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(readEnd, &buffer, buffer.count)
            if count <= 0 { return result }
            result += buffer[0..<count]
        }
    }
}
