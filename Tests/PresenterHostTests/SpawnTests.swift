import Foundation
@testable import PresenterHost
import Testing

/// The one spawn helper: a child gets exactly the descriptors it is given.
@Suite("Process: spawning")
struct SpawnTests {
    /// Runs `script` with `sh -c` under `options` (its stdout on a pipe added
    /// as descriptor 1) and returns what it printed.
    private func run(_ script: String, _ options: Spawn.Options, shell: String = "/bin/sh") throws -> String {
        var pipe: [Int32] = [-1, -1]
        #expect(makePipe(&pipe))
        var options = options
        options.descriptors[1] = .descriptor(pipe[1])
        let spawned = Spawn.start(shell, [shell, "-c", script], options)
        close(pipe[1])
        defer { close(pipe[0]) }
        let pid = try spawned.get()
        let output = readAll(pipe[0]) ?? []
        var status: Int32 = 0
        _ = try? retryingOnInterrupt("waitpid") { waitpid(pid, &status, 0) }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func aFailedStartIsTheCallAndItsErrno() {
        let result = Spawn.start("/nonexistent/program", ["program"], Spawn.Options())
        #expect(throws: Errno(call: "posix_spawn", code: ENOENT)) { try result.get() }
    }

    @Test func descriptorsArePassedWhereAskedAndNothingElseWithCloseOthers() throws {
        var extra: [Int32] = [-1, -1]
        #expect(makePipe(&extra))
        defer { extra.forEach { close($0) } }
        var options = Spawn.Options()
        options.descriptors = [0: .null(O_RDONLY), 2: .null(O_WRONLY), 3: .descriptor(extra[1])]
        options.closeOthers = true
        // A simple command, no pipeline: a shell holds a pipeline's pipes while it runs.
        let output = try run("ls /proc/$$/fd; readlink /proc/$$/fd/0 /proc/$$/fd/2", options).split(separator: "\n")
        #expect(output.compactMap { Int($0) }.sorted() == [0, 1, 2, 3])
        #expect(output.filter { $0 == "/dev/null" }.count == 2)
    }

    @Test func aSourceAtItsOwnNumberOrAnotherTargetsNumberArrivesIntact() throws {
        // Two pipes whose write ends swap places: 1000 spare numbers later, each lands where asked.
        var first: [Int32] = [-1, -1], second: [Int32] = [-1, -1]
        #expect(makePipe(&first) && makePipe(&second))
        // The read ends here; the write ends are closed below, once each.
        defer { [first[0], second[0]].forEach { close($0) } }
        var options = Spawn.Options()
        options.descriptors = [first[1]: .descriptor(second[1]), second[1]: .descriptor(first[1])]
        options.closeOthers = false
        // bash: dash redirects only descriptors 0 to 9.
        _ = try run("echo to-second >&\(first[1]); echo to-first >&\(second[1])", options, shell: "/bin/bash")
        close(first[1]); close(second[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(String(decoding: buffer[..<max(0, read(second[0], &buffer, 64))], as: UTF8.self) == "to-second\n")
        #expect(String(decoding: buffer[..<max(0, read(first[0], &buffer, 64))], as: UTF8.self) == "to-first\n")
    }

    @Test func aNewSessionHasNoControllingTerminal() throws {
        var options = Spawn.Options()
        options.newSession = true
        options.closeOthers = true
        #expect(
            try run(
                "[ \"$(ps -o sid= -p $$ | tr -d ' ')\" = $$ ] && echo leader; (: </dev/tty) 2>/dev/null || echo no-tty",
                options)
                == "leader\nno-tty\n")
    }

    @Test func theHostsDescriptorsCloseOnExec() throws {
        var pipe: [Int32] = [-1, -1], sockets: [Int32] = [-1, -1]
        #expect(makePipe(&pipe) && makeSocketPair(&sockets))
        defer { (pipe + sockets).forEach { close($0) } }
        for fd in pipe + sockets { #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0) }
    }
}
