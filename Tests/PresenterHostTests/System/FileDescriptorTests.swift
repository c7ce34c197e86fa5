import Foundation
import Synchronization
@testable import HostSystem
import Testing

/// ``FileDescriptor``, the one descriptor layer, against real pipes,
/// sockets and files: what each method promises in its comment.
@Suite("Process: file descriptors")
struct FileDescriptorTests {
    private struct Failed: Error {}

    /// A pipe whose ends are closed when the test ends (either may be
    /// closed earlier by the test, through `closed`).
    private final class Pipe {
        let readEnd: FileDescriptor, writeEnd: FileDescriptor
        var closed: Set<FileDescriptor> = []
        init(nonBlocking: Bool = false) throws {
            (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: nonBlocking)
        }
        func close(_ end: FileDescriptor) throws {
            closed.insert(end)
            try end.close()
        }
        deinit {
            for end in [readEnd, writeEnd] where !closed.contains(end) { try? end.close() }
        }
    }

    /// Bytes that are not one repeated value, so a lost or repeated chunk shows.
    private static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
    }

    @Test func writeAllGoesOnPastAFullPipeUntilEveryByteIsWritten() throws {
        // One write(2) to a non-blocking pipe takes at most its buffer (64 KiB).
        let pipe = try Pipe(nonBlocking: true)
        let bytes = Self.pattern((1 << 20) + 13)
        let reader = pipe.readEnd
        let received = Mutex<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                _ = try? reader.wait(for: .input) { 10_000 }
                guard let count = try? reader.read(into: &buffer) else { continue }
                if count == 0 { break }
                received.withLock { $0 += buffer[..<count] }
            }
            done.signal()
        }
        try pipe.writeEnd.writeAll(bytes, whenFull: { 10_000 })
        try pipe.close(pipe.writeEnd)
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(received.withLock { $0 } == bytes)
    }

    @Test func aFullNonBlockingPipeIsEAGAINWhenNotWaiting() throws {
        let pipe = try Pipe(nonBlocking: true)
        let chunk = [UInt8](repeating: 1, count: 4096)
        var asked = 0
        #expect(throws: Errno(call: "write", code: EAGAIN)) {
            // Fills the pipe, then is told not to wait.
            try pipe.writeEnd.writeAll(Self.pattern(1 << 20)) {
                asked += 1
                return nil
            }
        }
        #expect(asked == 1)
        // Still full: a write of any size waits for nothing.
        #expect(throws: Errno(call: "write", code: EAGAIN)) { try pipe.writeEnd.writeAll(chunk) }
    }

    @Test func aWaitThatRanOutIsTriedAgainWhileThereIsTimeLeft() throws {
        // A terminal can get room without waking who waits for it
        // (TerminalWriter): each wait that ran out is followed by a new try.
        let pipe = try Pipe(nonBlocking: true)
        var asked = 0
        #expect(throws: Errno(call: "write", code: EAGAIN)) {
            try pipe.writeEnd.writeAll(Self.pattern(1 << 20)) {
                asked += 1
                return asked <= 3 ? 10 : nil
            }
        }
        #expect(asked == 4)
    }

    @Test func readingANonBlockingEmptyPipeWouldBlockAndItsEndIsZero() throws {
        let pipe = try Pipe()
        try pipe.readEnd.setNonBlocking()
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(throws: Errno(call: "read", code: EAGAIN)) { try pipe.readEnd.read(into: &buffer) }
        try pipe.writeEnd.writeAll(Array("ab".utf8))
        #expect(try pipe.readEnd.read(into: &buffer) == 2)
        try pipe.close(pipe.writeEnd)
        #expect(try pipe.readEnd.read(into: &buffer) == 0)
    }

    @Test func closeAfterClosesTheDescriptorHoweverTheBodyEnds() throws {
        let pipe = try Pipe(nonBlocking: true)
        pipe.closed.insert(pipe.writeEnd)
        #expect(throws: Failed.self) { try pipe.writeEnd.closeAfter { _ throws(Failed) in throw Failed() } }
        // Every write end is closed: the reader sees the end, not EAGAIN.
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try pipe.readEnd.read(into: &buffer) == 0)
    }

    @Test func closingANumberThatIsNotOpenIsEBADF() {
        // Not retried, not hidden: the caller learns the number was not its own.
        #expect(throws: Errno(call: "close", code: EBADF)) { try FileDescriptor(rawValue: -1).close() }
    }

    @Test func everyDescriptorItMakesIsCloseOnExec() throws {
        let pipe = try Pipe()
        #expect(pipe.readEnd.isClosedOnExec && pipe.writeEnd.isClosedOnExec)
        let (one, other) = try FileDescriptor.socketPair()
        defer { [one, other].forEach { try? $0.close() } }
        #expect(one.isClosedOnExec && other.isClosedOnExec)
        // Even when the flags do not ask for it.
        let null = try FileDescriptor.open("/dev/null", O_RDONLY)
        defer { try? null.close() }
        #expect(null.isClosedOnExec)
        let copy = try null.duplicate(atLeast: 10)
        defer { try? copy.close() }
        #expect(copy.rawValue >= 10 && copy.isClosedOnExec)
    }

    @Test func duplicateAsPutsTheOpenFileAtTheNumberForAChildToInherit() throws {
        let first = try Pipe(nonBlocking: true), second = try Pipe(nonBlocking: true)
        // second's write end becomes a copy of first's: its own pipe loses
        // its only writer, and what is written there goes into first.
        #expect(try first.writeEnd.duplicate(as: second.writeEnd) == second.writeEnd)
        #expect(!second.writeEnd.isClosedOnExec)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try second.readEnd.read(into: &buffer) == 0)
        try second.writeEnd.writeAll(Array("moved".utf8))
        #expect(try first.readEnd.read(into: &buffer) == 5)
        #expect(Array(buffer[..<5]) == Array("moved".utf8))
    }

    @Test func theNumberForAChildIsOneItWouldNotInherit() throws {
        let number = FileDescriptor.lowestNumberFreeForChild()
        #expect(number.rawValue >= 3)
        #expect(number.isClosedOnExec)
        // A number the child would inherit is passed over.
        let inherited = try FileDescriptor.standardError.duplicate(atLeast: number.rawValue)
        defer { try? inherited.close() }
        if inherited == number {
            try FileDescriptor.standardError.duplicate(as: inherited)
            #expect(FileDescriptor.lowestNumberFreeForChild() != number)
        }
    }

    @Test func sendToAPeerThatWentAwayIsEPIPENotASignal() throws {
        let (one, other) = try FileDescriptor.socketPair()
        defer { try? one.close() }
        try other.close()
        // SIGPIPE would end the test process here.
        #expect(throws: Errno(call: "send", code: EPIPE)) { try one.send(Array("gone".utf8)) }
    }

    @Test func sendWithoutWaitingGivesUpOnAFullBlockingSocket() throws {
        let (one, other) = try FileDescriptor.socketPair()
        defer { [one, other].forEach { try? $0.close() } }
        // A blocking socket: without MSG_DONTWAIT this would wait forever.
        #expect(throws: Errno(call: "send", code: EAGAIN)) {
            try one.send(Self.pattern(16 << 20), waiting: false)
        }
    }

    @Test func waitSaysWhatIsReadyAndNothingWhenTheTimeRunsOut() throws {
        let first = try Pipe(), second = try Pipe()
        #expect(try first.readEnd.wait(for: .input) { 0 }.isEmpty)
        #expect(try first.readEnd.wait(for: .input) { nil }.isEmpty)
        #expect(try first.writeEnd.wait(for: .output) { 0 } == .output)
        try second.writeEnd.writeAll([1])
        let ready = try FileDescriptor.wait(for: .input, on: [first.readEnd, second.readEnd]) { 1000 }
        #expect(ready == [[], .input])
        try first.close(first.writeEnd)
        #expect(try first.readEnd.wait(for: .input) { 1000 }.contains(.hangUp))
    }

    @Test func readLinesHandsOverEachLineAndCutsLongOnes() throws {
        let pipe = try Pipe()
        try pipe.writeEnd.writeAll(Array("ab\n\(String(repeating: "x", count: 10))\n\ncd".utf8))
        try pipe.close(pipe.writeEnd)
        var lines: [String?] = []
        try pipe.readEnd.readLines(limit: 5) { lines.append($0.map { String(decoding: $0, as: UTF8.self) }) }
        #expect(lines == ["ab", nil, "", "cd"])
    }

    @Test func aFileIsReadAtAnOffsetAndToItsEnd() throws {
        let path = TestPaths.temporaryDirectory("fd").appendingPathComponent("file").path
        let bytes = Self.pattern(100_000)
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o600)
        try file.writeAll(bytes)
        try file.sync()
        #expect(try file.status().st_size == 100_000)
        try file.close()
        try FileDescriptor.open(path, O_RDONLY).closeAfter { fd throws(Errno) in
            #expect(try fd.read(count: 10, at: 99_995) == Array(bytes[99_995...]))
            #expect(try fd.readAll() == bytes)
            try fd.seek(to: 99_990)
            #expect(try fd.readAll() == Array(bytes[99_990...]))
        }
        #expect(throws: Errno(call: "open", code: EEXIST)) {
            try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o600)
        }
    }
}
