#if canImport(Glibc)
    import Glibc
#endif

// The free functions of the descriptor layer, over ``FileDescriptor``,
// while the callers move to its methods (removed once none is left).

func makePipe(_ fds: inout [Int32], nonBlocking: Bool = false) -> Bool {
    guard let pipe = try? FileDescriptor.pipe(nonBlocking: nonBlocking) else { return false }
    fds = [pipe.readEnd.rawValue, pipe.writeEnd.rawValue]
    return true
}

func makeSocketPair(_ fds: inout [Int32]) -> Bool {
    guard let pair = try? FileDescriptor.socketPair() else { return false }
    fds = [pair.0.rawValue, pair.1.rawValue]
    return true
}

func freeChildDescriptorNumber() -> Int32 {
    FileDescriptor.lowestNumberFreeForChild().rawValue
}

func writeFully(_ fd: Int32, _ bytes: [UInt8], socket: Bool = false, whenFull: () -> Int32? = { nil }) -> Int32 {
    do throws(Errno) {
        if socket {
            try FileDescriptor(rawValue: fd).send(bytes, whenFull: whenFull)
        } else {
            try FileDescriptor(rawValue: fd).writeAll(bytes, whenFull: whenFull)
        }
        return 0
    } catch {
        return error.code
    }
}

@discardableResult
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    writeFully(fd, bytes) == 0
}

func readSome(_ fd: Int32, into buffer: inout [UInt8]) throws(Errno) -> Int {
    try FileDescriptor(rawValue: fd).read(into: &buffer)
}

func readAll(_ fd: Int32) -> [UInt8]? {
    do throws(Errno) {
        return try FileDescriptor(rawValue: fd).readAll()
    } catch {
        errno = error.code
        return nil
    }
}

func listenUnixSocket(_ path: String, backlog: Int32 = 128) -> Result<Int32, Errno> {
    Result { () throws(Errno) in try FileDescriptor.listen(atUnixSocket: path, backlog: backlog).rawValue }
}

func connectUnixSocket(_ path: String) -> Result<Int32, Errno> {
    Result { () throws(Errno) in try FileDescriptor.connect(toUnixSocket: path).rawValue }
}

@discardableResult
func sendDatagram(_ text: String, to path: String) -> Bool {
    FileDescriptor.sendDatagram(text, to: path)
}

func acceptConnection(_ fd: Int32) -> Int32 {
    (try? FileDescriptor(rawValue: fd).accept().rawValue) ?? -1
}

func readLines(_ fd: Int32, limit: Int, _ line: ([UInt8]?) -> Void) {
    FileDescriptor(rawValue: fd).readLines(limit: limit, line)
}
