import Foundation
@testable import HostSystem

/// A pipe standing in for the terminal: the backend writes, the test reads.
final class OutputPipe {
    let readEnd: FileDescriptor, writeEnd: FileDescriptor
    init() {
        // Close-on-exec, so no child another test starts meanwhile holds it.
        guard let pipe = try? FileDescriptor.pipe() else { preconditionFailure("cannot create a pipe") }
        (readEnd, writeEnd) = pipe
        try? readEnd.setNonBlocking()
    }
    deinit {
        try? readEnd.close()
        try? writeEnd.close()
    }
    /// Everything written since the last read.
    func read() -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while let count = try? readEnd.read(into: &buffer), count > 0 {
            result += buffer[0..<count]
        }
        return result
    }
}
