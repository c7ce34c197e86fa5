import Foundation
import Glibc
import Synchronization
import Testing
@testable import HostSystem

/// `run --pty`'s pseudo-terminal (``OutputTerminal``) under a real child:
/// the child sees a terminal, the bytes read are those written (no `\r\n`
/// made of a `\n`), its end does not wait for a grandchild holding it, and
/// it takes the size of the terminal it follows.
@Suite("run --pty: the command's output terminal")
struct OutputTerminalTests {
    @Test func theCommandSeesATerminalAndItsBytesComeAsWritten() throws {
        let child = try start(["sh", "-c", "[ -t 1 ] && [ -t 2 ] && echo tty; printf 'a\\nb\\r\\nc\\t'; echo e >&2"])
        let collected = Collected()
        let pump = OutputPump(fd: try #require(child.outputFD)) { collected.append($0) }
        #expect(child.wait() == .exited(0))
        pump.finish()
        #expect(collected.bytes == Array("tty\na\nb\r\nc\te\n".utf8))
    }

    @Test func everythingWrittenBeforeTheEndIsReadThoughAGrandchildHoldsIt() throws {
        // The grandchild holds the terminal for a minute (then the test ends
        // it): finishing within half of that is not waiting for it, and the
        // last of 300,000 bytes, pushed to the leader by the kernel after the
        // write returned, is read all the same.
        let pidFile = TestPaths.temporaryDirectory("pty").appendingPathComponent("pid").path
        let child = try start([
            "sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x; echo; sleep 60 & echo $! > \(pidFile); exit 0",
        ])
        let collected = Collected()
        let pump = OutputPump(fd: try #require(child.outputFD)) { collected.append($0) }
        let start = Date()
        #expect(child.wait() == .exited(0))
        let grandchild = try waitForPid(in: pidFile)
        defer { kill(grandchild, SIGKILL) }
        pump.finish()
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(collected.bytes.count == 300_001)
    }

    @Test func itTakesTheSizeOfTheTerminalItFollows() throws {
        // SIGWINCH to this process: in a test process of its own.
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        let real = try PseudoTerminal(cols: 100, rows: 30)
        let (leader, follower) = try OutputTerminal.open(sizedLike: real.followerFD)
        defer {
            try? leader.close()
            try? follower.close()
        }
        #expect(TerminalShim.windowSize(follower).map { [$0.cols, $0.rows] } == [100, 30])
        let resized = SharedFlag(false)
        let following = try #require(OutputTerminal.follow(real.followerFD, onto: leader) { resized.isSet = true })
        real.resize(cols: 40, rows: 12)
        kill(getpid(), SIGWINCH)
        #expect(waitUntil(timeout: 10) { resized.isSet })
        #expect(TerminalShim.windowSize(follower).map { [$0.cols, $0.rows] } == [40, 12])
        following.stop()
    }
}

private func start(_ arguments: [String]) throws -> ChildProcess {
    let path = try ChildProcess.resolve(arguments[0], path: ProcessInfo.processInfo.environment["PATH"])
    return try ChildProcess.spawn(path, arguments, captureStdout: true, captureStderr: true, pseudoTerminal: true)
}

/// Bytes gathered from another thread.
private final class Collected: Sendable {
    private let storage = Mutex<[UInt8]>([])
    func append(_ bytes: [UInt8]) { storage.withLock { $0 += bytes } }
    var bytes: [UInt8] { storage.withLock { $0 } }
}
