import Dispatch
import Foundation
import Glibc
import Testing
@testable import PresenterHost

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
        #expect(throws: ChildProcess.SpawnError.notExecutable(command: dir.path, reason: "Permission denied")) {
            try ChildProcess.resolve(dir.path, path: nil)
        }
        #expect(throws: ChildProcess.SpawnError.notFound(command: dir.path + "/missing")) {
            try ChildProcess.resolve(dir.path + "/missing", path: nil)
        }
        // In PATH: a match that cannot run is reported only if nothing else matches.
        #expect(throws: ChildProcess.SpawnError.notExecutable(command: "script.sh", reason: "Permission denied")) {
            try ChildProcess.resolve("script.sh", path: "/nonexistent:\(dir.path)")
        }
        #expect(try ChildProcess.resolve("sh", path: "\(dir.path):/bin:/usr/bin").hasSuffix("/sh"))
        // spawn itself reports a file that is not a program.
        let text = dir.appendingPathComponent("text")
        try Data("just text\n".utf8).write(to: text)
        chmod(text.path, 0o755)
        #expect(throws: ChildProcess.SpawnError.notExecutable(command: "text", reason: "Exec format error")) {
            try ChildProcess.spawn(text.path, ["text"])
        }
    }

    @Test func capturesStdoutAndStderrInOrder() throws {
        let child = try start(["sh", "-c", "echo one; echo two >&2; printf three"],
                                           captureStdout: true, captureStderr: true)
        let collected = Collected()
        let pump = OutputPump(fd: try #require(child.outputFD)) { collected.append($0) }
        #expect(child.wait() == .exited(0))
        pump.finish()
        #expect(String(decoding: collected.bytes, as: UTF8.self) == "one\ntwo\nthree")
    }

    @Test func finishDoesNotWaitForAGrandchildHoldingThePipe() throws {
        let child = try start(["sh", "-c", "echo done; sleep 5 & exit 0"],
                                           captureStdout: true, captureStderr: true)
        let collected = Collected()
        let pump = OutputPump(fd: try #require(child.outputFD)) { collected.append($0) }
        let start = Date()
        #expect(child.wait() == .exited(0))
        pump.finish()
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(String(decoding: collected.bytes, as: UTF8.self) == "done\n")
    }

    @Test func childGetsDefaultDispositionsEvenWhenTheHostIgnores() throws {
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        #expect(try start(["sh", "-c", "kill -PIPE $$; exit 0"]).wait() == .signaled(SIGPIPE))
    }

    @Test func signalTrapReportsSignalsSentWithKill() throws {
        let queue = DispatchQueue(label: "trap-test")
        let received = Collected()
        let semaphore = DispatchSemaphore(value: 0)
        let trap = SignalTrap(signals: [SIGUSR2], queue: queue) { event in
            received.append([UInt8(event.signal), event.fromTerminal ? 1 : 0])
            semaphore.signal()
        }
        kill(getpid(), SIGUSR2)
        #expect(semaphore.wait(timeout: .now() + 5) == .success)
        trap.cancel()
        #expect(received.bytes == [UInt8(SIGUSR2), 0])
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
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        output.write(to: fd)
        close(fd)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }
}

/// Starts `arguments` as `run` does: resolved in PATH, then spawned.
private func start(_ arguments: [String], captureStdout: Bool = false,
                   captureStderr: Bool = false) throws -> ChildProcess {
    let path = try ChildProcess.resolve(arguments[0], path: ProcessInfo.processInfo.environment["PATH"])
    return try ChildProcess.spawn(path, arguments, captureStdout: captureStdout, captureStderr: captureStderr)
}

/// Bytes gathered from another thread.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []
    func append(_ bytes: [UInt8]) { lock.withLock { storage += bytes } }
    var bytes: [UInt8] { lock.withLock { storage } }
}
