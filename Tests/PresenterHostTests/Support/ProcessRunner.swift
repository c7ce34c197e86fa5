import Foundation
@testable import HostSystem
#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program as a real process and captures what it printed.
struct ProcessResult {
    /// The exit status, or 128 + the signal that killed the program (as a
    /// shell reports it).
    var status: Int32
    var stdout: String
    var stderr: String
    /// How it ended, as its wait status says: exited (with which status),
    /// or killed by a signal (which `status` cannot tell from an exit with
    /// 128 + it).
    var termination: ChildProcess.Termination
    /// Run in a terminal (``ProcessRunner/runInTerminal(_:_:environment:cols:)``):
    /// what its screen shows at the end, its non-empty lines.
    var screen: [String] = []
}

enum ProcessRunner {
    /// Runs `executable` with `arguments` and waits for it to end.
    ///
    /// `environment` entries are added to a copy of this process's
    /// environment with `CI`, `NO_COLOR` and `PRESENTER_PLUGIN_PATH` removed
    /// (the CI machine sets `CI=true`); pass `"CI": "true"` to test that mode.
    /// `stdin`, if given, is written to the program's standard input, which
    /// is then closed (it is an empty pipe otherwise). Standard output and
    /// standard error are read concurrently until both end, so the program
    /// can never block on a full pipe. With `currentDirectory` the program is
    /// started through `/usr/bin/env -C` (`Spawn` has no chdir option; no
    /// test uses it), so a directory or program that is not there gives
    /// env's status (125, 127) instead of a throw.
    /// - Throws: ``TestProcess/StartFailure`` when the program cannot be
    ///   started (no such file, not executable).
    /// `stdout` is what the program's stdout is (a pipe whose output is
    /// captured, by default).
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        stdin: String? = nil, stdout: TestProcess.Stream = .pipe, currentDirectory: URL? = nil
    ) throws -> ProcessResult {
        let process = try TestProcess(
            executable, arguments, environment: environment, stdout: stdout,
            currentDirectory: currentDirectory)
        let (out, err) = process.communicate(input: Array((stdin ?? "").utf8))
        return ProcessResult(
            status: process.wait(),
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), termination: process.termination ?? .exited(-1))
    }

    /// Runs the built `presenter-host` with `arguments`.
    static func host(
        _ arguments: [String], environment: [String: String] = [:], stdout: TestProcess.Stream = .pipe
    ) throws -> ProcessResult {
        try run(TestPaths.binary, arguments, environment: environment, stdout: stdout)
    }
}

/// A program a test starts, with its standard descriptors on pipes.
///
/// Why not Foundation's `Process` and `Pipe`: Foundation may create its
/// pipes without close-on-exec, and the tests run in parallel, so a program
/// another test spawns at the same moment can inherit this test's pipe and
/// hold its write end open; this test then waits for an end of file that
/// never comes (until that other program ends). Here every pipe is
/// close-on-exec from its creation (`FileDescriptor.pipe`, pipe2 with O_CLOEXEC) and
/// the program is started with the host's own `Spawn` with `closeOthers`,
/// so it gets exactly its descriptors 0, 1 and 2 and nothing else.
final class TestProcess {
    /// What one of the program's standard descriptors is.
    enum Stream: Equatable {
        /// A pipe to or from this process.
        case pipe
        /// `/dev/null`.
        case null
        /// This process's own descriptor of that number.
        case inherit
        /// A pipe whose read end is closed before the program starts: its
        /// first write finds the reader gone (EPIPE, or SIGPIPE), as
        /// `| head -1` after head has exited, with no race.
        case brokenPipe
        /// This process's descriptor `fd` (a terminal's follower).
        case descriptor(Int32)
    }

    /// Why a program could not be started.
    struct StartFailure: Error, CustomStringConvertible {
        let path: String
        let errno: Int32
        var description: String { "cannot start \(path): \(errnoText(errno))" }
    }

    /// The program's process id.
    let pid: pid_t
    /// The write end of the program's stdin pipe; -1 once closed or when
    /// stdin is not `.pipe`.
    private var input: Int32
    /// The read ends of its stdout and stderr pipes; -1 once at end of file
    /// or when not `.pipe`.
    private var output: Int32
    private var errorOutput: Int32
    /// The status, once reaped.
    private var status: Int32?
    /// How it ended, once reaped (nil when waitpid failed).
    private(set) var termination: ChildProcess.Termination?
    /// It dumped core (WCOREDUMP), once reaped.
    private(set) var dumpedCore = false

    /// Starts `executable` with `arguments`; see ``ProcessRunner/run(_:_:environment:stdin:currentDirectory:)``
    /// for `environment` and `currentDirectory`.
    init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        stdin: Stream = .pipe, stdout: Stream = .pipe, stderr: Stream = .pipe,
        currentDirectory: URL? = nil
    ) throws {
        var path = executable.path
        var argv = [path] + arguments
        if let currentDirectory {
            path = "/usr/bin/env"
            argv = ["env", "-C", currentDirectory.path, "--"] + argv
        }

        // Every pipe end is close-on-exec; Spawn dups the child's ends onto
        // 0, 1 and 2 (clearing the flag on those copies only).
        var parentEnds: [Int32] = [-1, -1, -1]
        var childEnds: [Int32] = []
        func closeAll() {
            (parentEnds + childEnds).filter { $0 >= 0 }.forEach { close($0) }
        }
        var options = Spawn.Options()
        for (number, stream) in [stdin, stdout, stderr].enumerated() {
            let target = FileDescriptor(rawValue: Int32(number))
            switch stream {
            case .pipe, .brokenPipe:
                let fds: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
                do throws(Errno) {
                    fds = try FileDescriptor.pipe()
                } catch {
                    closeAll()
                    throw StartFailure(path: path, errno: error.code)
                }
                // stdin: the child reads the read end; stdout, stderr: it writes the write end.
                let (child, parent) = number == 0 ? (fds.readEnd, fds.writeEnd) : (fds.writeEnd, fds.readEnd)
                childEnds.append(child.rawValue)
                if stream == .brokenPipe {
                    try? parent.close()  // the reader is gone before the program starts
                } else {
                    parentEnds[number] = parent.rawValue
                }
                options.descriptors[target] = .descriptor(child)
            case .null:
                options.descriptors[target] = .null(number == 0 ? O_RDONLY : O_WRONLY)
            case .inherit:
                options.descriptors[target] = .descriptor(target)
            case .descriptor(let fd):
                options.descriptors[target] = .descriptor(FileDescriptor(rawValue: fd))
            }
        }
        options.closeOthers = true
        options.environment = TestProcess.environment(adding: environment)

        let started = Spawn.start(path, argv, options)
        childEnds.forEach { close($0) }
        switch started {
        case .success(let pid):
            self.pid = pid
            (input, output, errorOutput) = (parentEnds[0], parentEnds[1], parentEnds[2])
        case .failure(let failure):
            parentEnds.filter { $0 >= 0 }.forEach { close($0) }
            throw StartFailure(path: path, errno: failure.code)
        }
    }

    deinit {
        [input, output, errorOutput].filter { $0 >= 0 }.forEach { close($0) }
        // A test that failed before waiting: do not leave the program running
        // or a zombie behind.
        if status == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// This process's environment without `CI`, `NO_COLOR`,
    /// `PRESENTER_PLUGIN_PATH` and `PRESENTER_HOST_BUNDLED_ONLY`, with a
    /// fresh, empty `XDG_CACHE_HOME` (each program starts with a cold
    /// registry cache of its own unless a test gives one) and the UTF-8
    /// locale the tests' expectations are written in (the caller's `LANG`
    /// and `LC_*` dropped: a container started with none, or with
    /// `LC_ALL=C`, must not turn `✖` into `[FAILED]`), plus `entries`,
    /// as `KEY=VALUE` strings.
    static func environment(adding entries: [String: String]) -> [String] {
        var env = ProcessInfo.processInfo.environment.filter { $0.key != "LANG" && !$0.key.hasPrefix("LC_") }
        env["LANG"] = "C.UTF-8"
        env["CI"] = nil
        env["NO_COLOR"] = nil
        env["PRESENTER_PLUGIN_PATH"] = nil
        env["PRESENTER_HOST_BUNDLED_ONLY"] = nil
        // The user's default presenter and settings file are not the tests'.
        env["PRESENTER_HOST_PRESENTER"] = nil
        env["XDG_CONFIG_HOME"] = "/nonexistent/presenter-host-tests"
        env["XDG_CACHE_HOME"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
        for (key, value) in entries { env[key] = value }
        return env.map { "\($0.key)=\($0.value)" }
    }

    /// Sends `signal` to the program (unless it has been reaped already).
    func send(_ signal: Int32) {
        if status == nil { kill(pid, signal) }
    }

    /// Closes the program's stdin (it reads end of file).
    func closeInput() {
        if input >= 0 { close(input); input = -1 }
    }

    /// Reads stdout and stderr (those that are pipes) until both are at end
    /// of file, polling both, so the program never blocks on a full pipe.
    /// Meanwhile writes `input`, if given, to stdin and then closes it (a
    /// program that stops reading early just does not get the rest); with
    /// `input` nil, stdin is left as it is.
    func communicate(input pending: [UInt8]? = nil) -> (stdout: [UInt8], stderr: [UInt8]) {
        let writes = pending != nil
        var pending = pending ?? []
        var offset = 0
        if writes && pending.isEmpty {
            closeInput()
        } else if writes && input >= 0 {
            // Only this end: the program's read end is its own open file.
            _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        } else {
            pending = []
        }
        var out: [UInt8] = [], err: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while output >= 0 || errorOutput >= 0 || (input >= 0 && offset < pending.count) {
            // poll ignores negative descriptors.
            let writing = offset < pending.count ? input : -1
            var fds = [
                pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorOutput, events: Int16(POLLIN), revents: 0),
                pollfd(fd: writing, events: Int16(POLLOUT), revents: 0),
            ]
            guard (try? retryingOnInterrupt("poll") { poll(&fds, nfds_t(fds.count), -1) }) != nil else { break }
            if fds[0].revents != 0 { Self.read(&output, into: &out, buffer: &buffer) }
            if fds[1].revents != 0 { Self.read(&errorOutput, into: &err, buffer: &buffer) }
            if fds[2].revents != 0 {
                if Self.write(input, pending, from: &offset) == false || offset == pending.count {
                    closeInput()
                }
            }
        }
        if writes { closeInput() }
        return (out, err)
    }

    /// Reads what is there on stdout, blocking until something is; empty at
    /// end of file.
    func readAvailable() -> [UInt8] {
        guard output >= 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        guard let count = try? FileDescriptor(rawValue: output).read(into: &buffer), count > 0 else {
            close(output)
            output = -1
            return []
        }
        return Array(buffer[..<count])
    }

    /// Waits for the program to end and reaps it; returns its exit status,
    /// or 128 + the signal that killed it. May be called again.
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        // -1: ECHILD, which cannot happen for our own child.
        if (try? retryingOnInterrupt("waitpid") { waitpid(pid, &raw, 0) }) != nil {
            termination = ChildProcess.Termination(waitStatus: raw)
            dumpedCore = raw & 0x80 != 0
        }
        let result = termination?.shellStatus ?? -1
        status = result
        return result
    }

    /// One read from `fd` appended to `data`; closes `fd` (and sets it to
    /// -1) at end of file or on an error.
    private static func read(_ fd: inout Int32, into data: inout [UInt8], buffer: inout [UInt8]) {
        do throws(Errno) {
            let count = try FileDescriptor(rawValue: fd).read(into: &buffer)
            if count > 0 { return data.append(contentsOf: buffer[..<count]) }
        } catch {
            if error.wouldBlock { return }
        }
        close(fd)
        fd = -1
    }

    /// One write of the rest of `data` to the non-blocking `fd`; false when
    /// the reader is gone. SIGPIPE is blocked on this thread for the write
    /// and a SIGPIPE it raised is taken back, so a program that closed its
    /// stdin cannot kill the test process.
    private static func write(_ fd: Int32, _ data: [UInt8], from offset: inout Int) -> Bool {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        do throws(Errno) {
            offset += try retryingOnInterrupt("write") {
                data[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            }
            return true
        } catch {
            if error.code == EPIPE {
                var now = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            return error.wouldBlock
        }
    }
}
