import Foundation
import Synchronization
@testable import PresenterHost
import Testing

/// The one EINTR retry (``retryingOnInterrupt(_:_:)``) and the one error
/// of a failed call (``Errno``), against real system calls interrupted by a
/// real signal.
@Suite("Process: system calls")
struct SystemCallTests {
    /// A count that two threads share.
    private final class Count: Sendable {
        private let count = Atomic(0)
        func increment() { count.add(1, ordering: .sequentiallyConsistent) }
        var value: Int { count.load(ordering: .sequentiallyConsistent) }
    }

    /// Catches SIGUSR1 without SA_RESTART, so a blocking call that it
    /// interrupts fails with EINTR instead of being restarted by the kernel,
    /// and lets it reach the calling thread (the test runner's threads
    /// block signals). Process-wide: only in a child test process.
    private static func catchSIGUSR1WithoutRestart() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        #expect(sigaction(SIGUSR1, &action, nil) == 0)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGUSR1)
        #expect(pthread_sigmask(SIG_UNBLOCK, &signals, nil) == 0)
    }

    /// Sends SIGUSR1 to `thread` until `done` holds (or 10 s have passed),
    /// then runs `then`; on a thread of its own.
    private static func interrupt(
        _ thread: pthread_t, until done: @escaping @Sendable () -> Bool, then: @escaping @Sendable () -> Void
    ) {
        Thread.detachNewThread {
            _ = waitUntil(timeout: 10) {
                pthread_kill(thread, SIGUSR1)
                return done()
            }
            then()
        }
    }

    @Test func aReadInterruptedBySignalsIsRetriedUntilItsBytesCome() throws {
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        Self.catchSIGUSR1WithoutRestart()
        var pipe: [Int32] = [-1, -1]
        #expect(makePipe(&pipe))
        defer { pipe.forEach { close($0) } }
        let calls = Count()
        // The byte comes only once a read was called again, which happens
        // only after a signal ended one with EINTR.
        let writeEnd = pipe[1]
        Self.interrupt(pthread_self(), until: { calls.value >= 2 }) {
            var byte: UInt8 = 7
            _ = write(writeEnd, &byte, 1)
        }
        var byte: UInt8 = 0
        let count = try retryingOnInterrupt("read") {
            calls.increment()
            return read(pipe[0], &byte, 1)
        }
        #expect(count == 1)
        #expect(byte == 7)
        #expect(calls.value >= 2)
    }

    @Test func anotherFailureIsTheCallsNameAndErrno() {
        var byte: UInt8 = 0
        #expect(throws: Errno(call: "read", code: EBADF)) {
            try retryingOnInterrupt("read") { read(-1, &byte, 1) }
        }
        let error = Errno(call: "read", code: EBADF)
        #expect(error.description == "read: \(String(cString: strerror(EBADF)))")
        #expect(!error.wouldBlock)
        #expect(Errno(call: "read", code: EAGAIN).wouldBlock)
    }

    @Test func aSignalWhileWaitingForRoomDoesNotEndTheWrite() throws {
        // Before the one retry, writeFully gave up (EAGAIN) when a signal
        // (a resize, a child's end) ended its wait for room in a full pipe.
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        Self.catchSIGUSR1WithoutRestart()
        var pipe: [Int32] = [-1, -1]
        #expect(makePipe(&pipe, nonBlocking: true))
        defer { pipe.forEach { close($0) } }
        let chunk = [UInt8](repeating: 1, count: 4096)
        while write(pipe[1], chunk, chunk.count) > 0 {}
        let asked = Count()
        let finished = Count()
        // Room is made only once `whenFull` was asked again, after a signal
        // ended the wait it gave.
        let readEnd = pipe[0]
        Self.interrupt(pthread_self(), until: { asked.value >= 2 || finished.value > 0 }) {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while read(readEnd, &buffer, buffer.count) > 0 {}
        }
        let result = writeFully(pipe[1], Array("after the signal".utf8)) {
            asked.increment()
            return 10_000
        }
        finished.increment()
        #expect(result == 0)
        #expect(asked.value >= 2)
    }

    @Test func readSomeSaysWhenANonBlockingDescriptorHasNothingYet() throws {
        var pipe: [Int32] = [-1, -1]
        #expect(makePipe(&pipe, nonBlocking: true))
        defer { pipe.forEach { close($0) } }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(throws: Errno(call: "read", code: EAGAIN)) { try readSome(pipe[0], into: &buffer) }
        #expect(writeAll(pipe[1], Array("ab".utf8)))
        #expect(try readSome(pipe[0], into: &buffer) == 2)
        close(pipe[1])
        pipe[1] = -1
        #expect(try readSome(pipe[0], into: &buffer) == 0)
    }
}
