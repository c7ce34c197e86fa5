import Foundation
@testable import HostSystem
import SystemShims
import Synchronization
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
        #expect(throws: Errno(call: "spawn", code: ENOENT)) { try result.get() }
    }

    /// A file source is opened by the child; a file it cannot open is the
    /// start's failure, with its errno, and leaves no child behind.
    @Test func aFileSourceIsOpenedByTheChild() throws {
        let directory = TestPaths.temporaryDirectory("spawn-file")
        let path = directory.appendingPathComponent("input").path
        try Data("from the file\n".utf8).write(to: URL(fileURLWithPath: path))
        var options = Spawn.Options()
        options.descriptors[.standardInput] = .file(path, O_RDONLY)
        #expect(try run("cat", options) == "from the file\n")
        options.descriptors[.standardInput] = .file(directory.appendingPathComponent("missing").path, O_RDONLY)
        #expect(throws: Errno(call: "spawn", code: ENOENT)) {
            try Spawn.start("/bin/true", ["true"], options).get()
        }
    }

    /// A Ctrl-Z (SIGTSTP to the foreground group) that stops a child before
    /// its exec must not hold the thread that starts it where a stop cannot
    /// take it: the whole host could then never stop (a group stop waits
    /// for every thread), and the job would hang with the terminal. So the
    /// child is held before its exec here (its stdin is a FIFO nobody has
    /// opened for writing yet: its open(2) waits), stopped there, and the
    /// starting thread must sleep interruptibly ('S', in read(2)), not in the
    /// kernel's uninterruptible vfork wait ('D', as under posix_spawn). Once
    /// continued and given a writer, the child runs its program.
    @Test func aChildStoppedBeforeItsExecDoesNotHoldTheStartingThreadUnstoppably() throws {
        let fifo = TestPaths.temporaryDirectory("spawn-stop").appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Mutex<(thread: String?, result: Result<pid_t, Errno>?)>((nil, nil))
        Thread.detachNewThread {
            // /proc/thread-self is /proc/PID/task/TID: this thread's own entry.
            let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            started.withLock { $0.thread = "/proc/" + me }
            var options = Spawn.Options()
            options.descriptors[.standardInput] = .file(fifo, O_RDONLY)
            let result = Spawn.start("/bin/sh", ["sh", "-c", "exit 7"], options)
            started.withLock { $0.result = result }
        }
        // The child this thread made (the children of other tests' threads are not in its list).
        var child: pid_t = 0
        #expect(
            waitUntil {
                guard let thread = started.withLock({ $0.thread }),
                    let list = try? String(contentsOfFile: thread + "/children", encoding: .utf8),
                    let pid = list.split(separator: " ").first.flatMap({ pid_t($0) })
                else { return false }
                child = pid
                return true
            })
        try #require(child > 0)
        #expect(kill(child, SIGSTOP) == 0)
        #expect(waitUntil { Self.state(of: "/proc/\(child)") == "T" })
        let thread = try #require(started.withLock { $0.thread })
        // Give the kernel no excuse: the thread has had the time to get where it waits.
        #expect(waitUntil { ["S", "D"].contains(Self.state(of: thread)) })
        #expect(Self.state(of: thread) == "S", "the starting thread waits where a stop cannot take it")
        #expect(started.withLock { $0.result } == nil, "the start returned before the child's exec")

        // Continued, with a writer for its stdin: the child runs its program.
        // (The stop took its open back: only the continued child's open
        // again is a reader for ours.)
        #expect(kill(child, SIGCONT) == 0)
        let writer = open(fifo, O_WRONLY | O_CLOEXEC)
        defer { if writer >= 0 { close(writer) } }
        #expect(waitUntil { started.withLock { $0.result } != nil })
        #expect(try started.withLock { $0.result }?.get() == child)
        var status: Int32 = 0
        _ = try? retryingOnInterrupt("waitpid") { waitpid(child, &status, 0) }
        #expect(status >> 8 & 0xff == 7)
    }

    /// ``Spawn/begin(_:_:_:)`` only forks: it returns while the child has
    /// not exec'd (held here in its open(2) of a FIFO nobody writes yet),
    /// so a thread that starts a helper ahead never waits for the helper's
    /// setup; ``Spawn/Beginning/end()`` then waits for the exec.
    @Test func aBeginningReturnsBeforeTheExecAndItsEndWaitsForIt() throws {
        let fifo = TestPaths.temporaryDirectory("spawn-begin").appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var options = Spawn.Options()
        options.descriptors[.standardInput] = .file(fifo, O_RDONLY)
        let beginning = try Spawn.begin("/bin/sh", ["sh", "-c", "exit 5"], options).get()
        // Nothing on the report yet: the child waits in its open, before the exec.
        #expect(try beginning.report.wait(for: .input) { 0 }.isEmpty)
        #expect(ProcessExit.hasExited(beginning.pid) == false)
        let writer = open(fifo, O_WRONLY | O_CLOEXEC)
        defer { if writer >= 0 { close(writer) } }
        #expect(try beginning.end().get().pid == beginning.pid)
        var status: Int32 = 0
        _ = try? retryingOnInterrupt("waitpid") { waitpid(beginning.pid, &status, 0) }
        #expect(status >> 8 & 0xff == 5)
    }

    /// An exec that fails is ``Spawn/Beginning/end()``'s error, and the
    /// child, ended, is left for the caller to reap: its number is not
    /// anyone else's while the caller may still signal it.
    @Test func aBeginningWhoseExecFailsLeavesItsChildToTheCaller() throws {
        let beginning = try Spawn.begin("/nonexistent/program", ["program"], Spawn.Options()).get()
        #expect(throws: Errno(call: "spawn", code: ENOENT)) { try beginning.end().get() }
        #expect(waitUntil { ProcessExit.hasExited(beginning.pid) })
        var status: Int32 = 0
        #expect(try retryingOnInterrupt("waitpid") { waitpid(beginning.pid, &status, WNOHANG) } == beginning.pid)
        #expect(status >> 8 & 0xff == 127)
    }

    /// The one-letter state of a process or thread (`/proc/.../stat`).
    private static func state(of entry: String) -> String? {
        guard let stat = try? String(contentsOfFile: entry + "/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: end)...].split(separator: " ").first.map(String.init)
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

/// A Ctrl-Z that reaches a child between its fork and the moment it leads a
/// process group of its own stays pending (every signal is blocked there);
/// once unblocked it would stop the child where no `fg` continues it, and
/// the host would wait for its exec for ever (docs/SOAK.md). The child
/// discards it first: the very call, on a thread that blocks SIGTSTP and
/// has one pending.
@Suite("Spawn: a pending stop signal")
struct SpawnPendingStopTests {
    @Test func aPendingStopSignalIsDiscarded() throws {
        let outcome = Mutex<(before: Bool, after: Bool)?>(nil)
        let thread = Thread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTSTP)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            pthread_kill(pthread_self(), SIGTSTP)
            var pending = sigset_t()
            sigpending(&pending)
            let before = sigismember(&pending, SIGTSTP) == 1
            ph_discard_pending_stops()
            sigpending(&pending)
            let after = sigismember(&pending, SIGTSTP) == 1
            // One left pending must not stop the test's process: taken here.
            var taken: Int32 = 0
            if after { sigwait(&blocked, &taken) }
            outcome.withLock { $0 = (before, after) }
            pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
        }
        thread.start()
        #expect(waitUntil { outcome.withLock { $0 } != nil })
        let seen = try #require(outcome.withLock { $0 })
        #expect(seen.before, "the stop signal was not pending")
        #expect(!seen.after, "the pending stop signal was kept")
    }
}
