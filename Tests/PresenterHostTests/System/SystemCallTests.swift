import Foundation
import Synchronization
@testable import HostSystem
import SystemShims
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
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { [readEnd, writeEnd].forEach { try? $0.close() } }
        let calls = Count()
        // The byte comes only once a read was called again, which happens
        // only after a signal ended one with EINTR.
        Self.interrupt(pthread_self(), until: { calls.value >= 2 }) {
            var byte: UInt8 = 7
            _ = write(writeEnd.rawValue, &byte, 1)
        }
        var byte: UInt8 = 0
        let count = try retryingOnInterrupt("read") {
            calls.increment()
            return read(readEnd.rawValue, &byte, 1)
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
        // Before the one retry, the write loop gave up (EAGAIN) when a signal
        // (a resize, a child's end) ended its wait for room in a full pipe.
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        Self.catchSIGUSR1WithoutRestart()
        let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
        defer { [readEnd, writeEnd].forEach { try? $0.close() } }
        let chunk = [UInt8](repeating: 1, count: 4096)
        while write(writeEnd.rawValue, chunk, chunk.count) > 0 {}
        let asked = Count()
        let finished = Count()
        // Room is made only once `whenFull` was asked again, after a signal
        // ended the wait it gave.
        Self.interrupt(pthread_self(), until: { asked.value >= 2 || finished.value > 0 }) {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while read(readEnd.rawValue, &buffer, buffer.count) > 0 {}
        }
        let result = Result { () throws(Errno) in
            try writeEnd.writeAll(Array("after the signal".utf8)) {
                asked.increment()
                return 10_000
            }
        }
        finished.increment()
        #expect((try? result.get()) != nil)
        #expect(asked.value >= 2)
    }
}
