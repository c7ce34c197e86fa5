import Foundation
@testable import PresenterHost
import Testing

/// The one spawn helper: a child gets exactly the descriptors it is given.
@Suite("Process: spawning")
struct SpawnTests {
    /// Runs `script` with `sh -c` under `options` (its stdout on a pipe added
    /// as descriptor 1) and returns what it printed.
    private func run(_ script: String, _ options: Spawn.Options, shell: String = "/bin/sh") throws -> String {
        let pipe = try FileDescriptor.pipe()
        var options = options
        options.descriptors[.standardOutput] = .descriptor(pipe.writeEnd)
        let spawned = Spawn.start(shell, [shell, "-c", script], options)
        try pipe.writeEnd.close()
        defer { try? pipe.readEnd.close() }
        let pid = try spawned.get()
        let output = try pipe.readEnd.readAll()
        var status: Int32 = 0
        _ = try? retryingOnInterrupt("waitpid") { waitpid(pid, &status, 0) }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func aFailedStartIsTheCallAndItsErrno() {
        let result = Spawn.start("/nonexistent/program", ["program"], Spawn.Options())
        #expect(throws: Errno(call: "posix_spawn", code: ENOENT)) { try result.get() }
    }

    @Test func descriptorsArePassedWhereAskedAndNothingElseWithCloseOthers() throws {
        let extra = try FileDescriptor.pipe()
        defer { [extra.readEnd, extra.writeEnd].forEach { try? $0.close() } }
        var options = Spawn.Options()
        options.descriptors = [
            .standardInput: .null(O_RDONLY), .standardError: .null(O_WRONLY),
            FileDescriptor(rawValue: 3): .descriptor(extra.writeEnd),
        ]
        options.closeOthers = true
        // A simple command, no pipeline: a shell holds a pipeline's pipes while it runs.
        let output = try run("ls /proc/$$/fd; readlink /proc/$$/fd/0 /proc/$$/fd/2", options).split(separator: "\n")
        #expect(output.compactMap { Int($0) }.sorted() == [0, 1, 2, 3])
        #expect(output.filter { $0 == "/dev/null" }.count == 2)
    }

    @Test func aSourceAtItsOwnNumberOrAnotherTargetsNumberArrivesIntact() throws {
        // Two pipes whose write ends swap places: 1000 spare numbers later, each lands where asked.
        let first = try FileDescriptor.pipe(), second = try FileDescriptor.pipe()
        // The read ends here; the write ends are closed below, once each.
        defer { [first.readEnd, second.readEnd].forEach { try? $0.close() } }
        var options = Spawn.Options()
        options.descriptors = [
            first.writeEnd: .descriptor(second.writeEnd), second.writeEnd: .descriptor(first.writeEnd),
        ]
        options.closeOthers = false
        // bash: dash redirects only descriptors 0 to 9.
        _ = try run(
            "echo to-second >&\(first.writeEnd.rawValue); echo to-first >&\(second.writeEnd.rawValue)", options,
            shell: "/bin/bash")
        try first.writeEnd.close()
        try second.writeEnd.close()
        #expect(String(decoding: try second.readEnd.readAll(), as: UTF8.self) == "to-second\n")
        #expect(String(decoding: try first.readEnd.readAll(), as: UTF8.self) == "to-first\n")
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
        let pipe = try FileDescriptor.pipe(), sockets = try FileDescriptor.socketPair()
        let all = [pipe.readEnd, pipe.writeEnd, sockets.0, sockets.1]
        defer { all.forEach { try? $0.close() } }
        for fd in all { #expect(fcntl(fd.rawValue, F_GETFD) & FD_CLOEXEC != 0) }
    }
}
