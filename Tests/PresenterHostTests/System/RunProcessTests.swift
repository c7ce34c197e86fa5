import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
@testable import HostSystem

@Suite("run: child process, signals and output")
struct RunProcessTests {
    @Test func exitStatusesAndSignals() throws {
        #expect(try start(["true"]).wait() == .exited(0))
        #expect(try start(["sh", "-c", "exit 3"]).wait() == .exited(3))
        let sleeper = try start(["sleep", "10"])
        sleeper.send(SIGTERM)
        let ended = sleeper.wait()
        #expect(ended == .signaled(SIGTERM))
        #expect(ended.shellStatus == 143)
        // Reaped: the pid is no longer our child.
        #expect(waitpid(sleeper.pid, nil, WNOHANG) == -1 && errno == ECHILD)
    }

    @Test func notFoundAndNotExecutable() throws {
        #expect(throws: ChildProcess.SpawnError.notFound(command: "no-such-command-ph")) {
            try ChildProcess.resolve("no-such-command-ph", path: "/usr/bin:/bin")
        }
        let dir = TestPaths.temporaryDirectory("spawn")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("script.sh")
        try Data("#!/bin/sh\necho hi\n".utf8).write(to: script)
        #expect(throws: ChildProcess.SpawnError.notExecutable(command: script.path, reason: "Permission denied")) {
            try ChildProcess.resolve(script.path, path: nil)
        }
        #expect(throws: ChildProcess.SpawnError.isDirectory(command: dir.path)) {
            try ChildProcess.resolve(dir.path, path: nil)
        }
        // In PATH a directory of that name is passed over, as shells do.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sh"), withIntermediateDirectories: true)
        #expect(try ChildProcess.resolve("sh", path: "\(dir.path):/bin:/usr/bin").hasSuffix("/bin/sh"))
        #expect(throws: ChildProcess.SpawnError.notFound(command: dir.path + "/missing")) {
            try ChildProcess.resolve(dir.path + "/missing", path: nil)
        }
        // In PATH: a match that cannot run is reported only if nothing else matches.
        #expect(throws: ChildProcess.SpawnError.notExecutable(command: "script.sh", reason: "Permission denied")) {
            try ChildProcess.resolve("script.sh", path: "/nonexistent:\(dir.path)")
        }
        #expect(try ChildProcess.resolve("sh", path: "\(dir.path):/bin:/usr/bin").hasSuffix("/sh"))
        // A binary the kernel refuses is reported by spawn.
        let binary = dir.appendingPathComponent("binary")
        try writeExecutable([0, 1, 2, 3, 0x0a], to: binary)
        #expect(throws: ChildProcess.SpawnError.notExecutable(command: "binary", reason: "Exec format error")) {
            try ChildProcess.spawn(binary.path, ["binary"])
        }
    }

    @Test func scriptWithoutAShebangRunsWithBinSh() throws {
        let dir = TestPaths.temporaryDirectory("spawn")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("noshebang")
        try writeExecutable(Array("echo \"$0:$1:$2\"; exit 4\n".utf8), to: script)
        let child = try ChildProcess.spawn(
            try ChildProcess.resolve(script.path, path: nil), ["noshebang", "a", "b c"],
            captureStdout: true)
        let collected = Collected()
        let pump = OutputPump(fd: try #require(child.outputFD)) { collected.append($0) }
        #expect(child.wait() == .exited(4))
        pump.finish()
        #expect(String(decoding: collected.bytes, as: UTF8.self) == "\(script.path):a:b c\n")
    }

    @Test func shebangNamingAMissingOrUnusableInterpreterIsCaughtBeforeSpawning() throws {
        let dir = TestPaths.temporaryDirectory("spawn")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("script")
        try writeExecutable(Array("#!/nonexistent/interpreter -x\necho hi\n".utf8), to: script)
        #expect(
            throws: ChildProcess.SpawnError.interpreterNotFound(
                command: script.path,
                interpreter: "/nonexistent/interpreter")
        ) {
            try ChildProcess.resolve(script.path, path: nil)
        }
        try Data("#! \(dir.path)\n".utf8).write(to: script)  // a directory, after a space
        #expect(
            throws: ChildProcess.SpawnError.notExecutable(
                command: "script", reason: "its interpreter \(dir.path) cannot be executed: Is a directory")
        ) {
            try ChildProcess.resolve("script", path: dir.path)
        }
        try Data("#!/bin/sh\necho hi\n".utf8).write(to: script)
        #expect(try ChildProcess.resolve(script.path, path: nil) == script.path)
    }

    @Test func processStatParsesNamesWithSpacesAndParentheses() throws {
        let line = "42 (a) b (c)) S 7 42 42 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 123456 0 0"
        let stat = try #require(ProcessStat.parse(ArraySlice(line.utf8)))
        #expect(stat.state == UInt8(ascii: "S") && stat.parent == 7 && stat.startTime == 123456)
        let own = try #require(ProcessStat.read(getpid()))
        #expect(own.parent == getppid() && !own.isDead && !own.isStopped)
        #expect(ProcessStat.read(-1) == nil)
    }

    @Test func treeHoldsTheCommandAndWhatItStartedAndSignalsThemAll() throws {
        let dir = TestPaths.temporaryDirectory("tree")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pids = dir.appendingPathComponent("pids").path
        // sh -> (sh -> sleep), sleep: two levels below the command.
        let child = try start([
            "sh", "-c", "sh -c 'sleep 30 & echo $! >> \(pids); wait' & sleep 30 & echo $! >> \(pids); wait",
        ])
        let sleepers = try waitForLines(pids, count: 2)
        let tree = ProcessTree.collect(root: child.pid, freeze: true)
        #expect(tree.members.first?.pid == child.pid && tree.members.first?.depth == 0)
        let depths = Dictionary(uniqueKeysWithValues: tree.members.map { ($0.pid, $0.depth) })
        #expect(tree.members.count == 4)
        #expect(Set(sleepers.compactMap { depths[$0] }) == [1, 2])
        // Frozen: every member is stopped until thawed.
        #expect(tree.members.allSatisfy { ProcessStat.read($0.pid)?.isStopped == true })
        tree.thaw()
        #expect(tree.survivors.count == 3)
        let signalled = child.sendToTree(SIGTERM, freeze: true)
        #expect(Set(signalled.members.map(\.pid)) == Set(tree.members.map(\.pid)))
        #expect(child.wait() == .signaled(SIGTERM))
        for pid in sleepers { #expect(waitUntilEnded(pid), "\(pid) still runs") }
        // Once reaped, nothing is signalled.
        #expect(child.sendToTree(SIGTERM, freeze: false).members.isEmpty)
    }

    @Test func treeNeverSignalsAPidThatNowNamesAnotherProcess() throws {
        let child = try start(["sleep", "30"])
        defer { child.send(SIGKILL); _ = child.wait() }
        let tree = ProcessTree.collect(root: child.pid, freeze: false)
        let real = try #require(tree.members.first)
        let forged = ProcessTree.Member(pid: real.pid, startTime: real.startTime + 1, depth: 0)
        #expect(real.isSameProcess && !forged.isSameProcess)
    }

    @Test func capturesStdoutAndStderrInOrder() throws {
        let child = try start(
            ["sh", "-c", "echo one; echo two >&2; printf three"],
            captureStdout: true, captureStderr: true)
        let collected = Collected()
        let pump = OutputPump(fd: try #require(child.outputFD)) { collected.append($0) }
        #expect(child.wait() == .exited(0))
        pump.finish()
        #expect(String(decoding: collected.bytes, as: UTF8.self) == "one\ntwo\nthree")
    }

    @Test func finishDoesNotWaitForAGrandchildHoldingThePipe() throws {
        // The grandchild holds the pipe for a minute (then the test ends it):
        // finishing within half of that is not waiting for it.
        let pidFile = TestPaths.temporaryDirectory("pump").appendingPathComponent("pid").path
        let child = try start(
            ["sh", "-c", "echo done; sleep 60 & echo $! > \(pidFile); exit 0"],
            captureStdout: true, captureStderr: true)
        let collected = Collected()
        let pump = OutputPump(fd: try #require(child.outputFD)) { collected.append($0) }
        let start = Date()
        #expect(child.wait() == .exited(0))
        let grandchild = try waitForPid(in: pidFile)
        defer { kill(grandchild, SIGKILL) }
        pump.finish()
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(String(decoding: collected.bytes, as: UTF8.self) == "done\n")
    }

    @Test func childGetsDefaultDispositionsEvenWhenTheHostIgnores() throws {
        // Ignoring SIGPIPE is process-wide: in a test process of its own.
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        #expect(try start(["sh", "-c", "kill -PIPE $$; exit 0"]).wait() == .signaled(SIGPIPE))
    }

    @Test func signalTrapReportsSignalsSentWithKill() throws {
        // A trap and a signal to this process: in a test process of its own.
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        let queue = DispatchQueue(label: "trap-test")
        let received = Collected()
        let semaphore = DispatchSemaphore(value: 0)
        let trap = try SignalTrap(signals: [SIGUSR2], queue: queue) { event in
            received.append([UInt8(event.signal), event.fromTerminal ? 1 : 0])
            semaphore.signal()
        }
        kill(getpid(), SIGUSR2)
        #expect(semaphore.wait(timeout: .now() + 5) == .success)
        trap.cancel()
        #expect(received.bytes == [UInt8(SIGUSR2), 0])
    }

    @Test func aCancelledTrapHoldsNothingOfItsHandler() throws {
        // `run`'s handler holds its runtime: were it released later on the
        // queue, the process could exit while a dispatch thread frees the
        // runtime (LeakSanitizer then saw its weak-reference table leak).
        // The queue is busy when cancel() is called, so a cancel that did
        // not wait would return with the handler still held.
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        final class Held: Sendable {}
        let queue = DispatchQueue(label: "trap-test")
        weak var held: Held?
        do {
            let value = Held()
            held = value
            let trap = try SignalTrap(signals: [SIGUSR2], queue: queue) { _ in _ = value }
            let gate = DispatchSemaphore(value: 0)
            queue.async { gate.wait() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { gate.signal() }
            trap.cancel()
        }
        #expect(held == nil, "the handler (and what it holds) outlived cancel()")
    }

    @Test func aFinishedPumpHoldsNothingOfItsSink() throws {
        // The progress channel's sink reaches `run`'s whole runtime: had the
        // pacing delay kept the pump, the runtime's last release would come
        // on a dispatch thread, up to the delay after run returned, while
        // the process exits. The pump read a byte and is paused for an hour
        // when finish() is called: a delay holding the pump would hold the
        // sink for that hour.
        final class Held: Sendable {}
        weak var held: Held?
        let pipe = try FileDescriptor.pipe()
        defer { try? pipe.writeEnd.close() }
        do {
            let value = Held()
            held = value
            let read = DispatchSemaphore(value: 0)
            let pump = OutputPump(fd: pipe.readEnd, pacing: .seconds(3600)) { _ in
                _ = value
                read.signal()
            }
            try pipe.writeEnd.writeAll([1])
            read.wait()
            pump.finish()
        }
        #expect(held == nil, "the pump's sink (and what it holds) outlived finish()")
    }

    @Test func aPumpsPipeIsNeverWatchedByLibdispatch() throws {
        // libdispatch (Swift 6.3.1, Linux) races itself when a pipe it
        // watches reports data and its hang-up at once, which is how a
        // child's pipe ends: its manager thread traps ("Source finalized
        // twice", docs/soak/libdispatch-hup-race.c). So the pump reads on a
        // thread of its own, and its descriptor is in no epoll set of
        // libdispatch's, even once it delivered data.
        let pipe = try FileDescriptor.pipe()
        defer { try? pipe.writeEnd.close() }
        let read = DispatchSemaphore(value: 0)
        let pump = OutputPump(fd: pipe.readEnd) { _ in read.signal() }
        try pipe.writeEnd.writeAll([1])
        read.wait()
        #expect(!Self.descriptorsInEpollSets().contains(pipe.readEnd.rawValue))
        pump.finish()
    }

    @Test func aCancelledTrapClosesItsPipeOnlyOnceLibdispatchLetGoOfIt() throws {
        // Its write end closed while libdispatch still watched the read end
        // would hang the pipe up under a source being cancelled: the race
        // above. The queue is held while cancel() runs on another thread; the
        // write end must still be open when that thread waits for the cancel
        // handler, which cannot run before the queue is let go.
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        let queue = DispatchQueue(label: "trap-test")
        // Safe: cancel() is called on that thread alone, the write end only read here.
        nonisolated(unsafe) let trap = try SignalTrap(signals: [SIGUSR2], queue: queue) { _ in }
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let cancelling = LockedBox<String?>(nil)
        let published = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let task = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
            cancelling.mutate { $0 = task }
            published.signal()
            trap.cancel()
            cancelled.signal()
        }
        published.wait()
        let task = try #require(cancelling.value)
        // Until that thread sleeps in cancel() (or the write end is closed).
        var writeEndOpen = true
        while writeEndOpen && !Self.isWaiting(task: task) {
            writeEndOpen = fcntl(trap.writeEnd.rawValue, F_GETFD) != -1
            sched_yield()
        }
        writeEndOpen = writeEndOpen && fcntl(trap.writeEnd.rawValue, F_GETFD) != -1
        #expect(writeEndOpen, "cancel() closed the write end while libdispatch still watched the read end")
        gate.signal()
        cancelled.wait()
        #expect(fcntl(trap.writeEnd.rawValue, F_GETFD) == -1, "cancel() returned with the write end open")
    }

    /// The descriptors some epoll set of this process watches (libdispatch's).
    private static func descriptorsInEpollSets() -> Set<Int32> {
        var watched = Set<Int32>()
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for number in descriptors {
            guard
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(number)"))
                    == "anon_inode:[eventpoll]",
                let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(number)", encoding: .utf8)
            else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("tfd:") {
                if let fd = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({
                    Int32($0)
                }) {
                    watched.insert(fd)
                }
            }
        }
        return watched
    }

    /// Whether the thread `task` ("PID/task/TID", from /proc/thread-self)
    /// sleeps in a futex wait (a semaphore's).
    private static func isWaiting(task: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(task)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            let wchan = try? String(contentsOfFile: "/proc/\(task)/wchan", encoding: .utf8)
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "S" && wchan.contains("futex")
    }

    @Test func outputLinesAreWhole() {
        var lines = OutputLines()
        #expect(lines.append(Array("a\nb".utf8)) == ["a"])
        #expect(lines.append(Array("c\r\n\n".utf8)) == ["bc", ""])
        #expect(lines.append(Array("10%\r20%\r30%\ndone".utf8)) == ["30%"])
        #expect(lines.flush() == "done")
        #expect(lines.flush() == nil)
        #expect(lines.append(Array("é".utf8).prefix(1).map { $0 }) == [])
        #expect(lines.append(Array("é\n".utf8).dropFirst().map { $0 }) == ["é"])
    }

    @Test func capturedOutputSpillsToAFileAndKeepsEverything() throws {
        let output = CapturedOutput(memoryLimit: 8)
        var expected: [UInt8] = []
        for index in 0..<1000 {
            let chunk = Array("line \(index)\n".utf8)
            output.append(chunk)
            expected += chunk
        }
        #expect(output.count == expected.count)
        let dir = TestPaths.temporaryDirectory("captured")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out").path
        let fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o600)
        output.write(to: fd)
        try fd.close()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }
}

/// Starts `arguments` as `run` does: resolved in PATH, then spawned.
private func start(
    _ arguments: [String], captureStdout: Bool = false,
    captureStderr: Bool = false
) throws -> ChildProcess {
    let path = try ChildProcess.resolve(arguments[0], path: ProcessInfo.processInfo.environment["PATH"])
    return try ChildProcess.spawn(path, arguments, captureStdout: captureStdout, captureStderr: captureStderr)
}

/// Bytes gathered from another thread.
private final class Collected: Sendable {
    private let storage = Mutex<[UInt8]>([])
    func append(_ bytes: [UInt8]) { storage.withLock { $0 += bytes } }
    var bytes: [UInt8] { storage.withLock { $0 } }
}
