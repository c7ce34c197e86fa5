import Dispatch
import Glibc
#if canImport(Glibc)
    import Glibc
#endif

/// A command started with ``Spawn``, in the host's own process group.
///
/// The child stays in our process group on purpose: it is then in the
/// terminal's foreground group like any command a shell runs, so it can read
/// the terminal, Ctrl-Z stops it together with the host, and a Ctrl-C typed
/// at the terminal reaches it directly (see `SignalTrap` for how the host
/// avoids sending it a second one).
package final class ChildProcess: Sendable {
    /// The child's process id.
    package let pid: pid_t
    /// The read end of the pipe (or the leader of the ``OutputTerminal``)
    /// that receives the child's captured output, or `nil` when nothing is
    /// captured. The caller owns it and closes it.
    package let outputFD: FileDescriptor?
    /// Whether the child was reaped: then its pid may be another process's.
    private let reaped = LockedValue(false)

    /// How a child ended.
    package enum Termination: Equatable, Sendable {
        /// It called exit with this status.
        case exited(Int32)
        /// A signal killed it.
        case signaled(Int32)

        /// Decodes a status from waitpid(2) (WIFEXITED / WTERMSIG are macros
        /// Swift cannot import).
        init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        }

        /// The status a shell would report: the exit status, or 128 + the signal.
        package var shellStatus: Int32 {
            switch self {
            case .exited(let status): return status
            case .signaled(let signal): return 128 + signal
            }
        }
    }

    /// Why a command could not be started.
    package enum SpawnError: Error, Equatable, Sendable {
        /// No such command in `PATH` (or no such file, for a path).
        case notFound(command: String)
        /// The file exists but cannot be executed; `reason` says why
        /// (strerror's text, or what is wrong with its `#!` line).
        case notExecutable(command: String, reason: String)
        /// The path names a directory.
        case isDirectory(command: String)
        /// The file's `#!` line names an interpreter that does not exist.
        case interpreterNotFound(command: String, interpreter: String)
        /// Anything else (no memory, too many processes, no pipe).
        case failed(command: String, reason: String)
        /// No pseudo-terminal for its output could be opened (`reason`:
        /// strerror's text): no `/dev/pts` in a container, or none left.
        case noPseudoTerminal(command: String, reason: String)
    }

    private init(pid: pid_t, outputFD: FileDescriptor?) {
        self.pid = pid
        self.outputFD = outputFD
    }

    /// The file `command` names: itself when it holds a `/`, else the first
    /// executable regular file called `command` in a `PATH` directory (as
    /// execvp(3) searches, an empty entry meaning the current directory).
    /// A script's `#!` interpreter is checked too. Lets a caller report a
    /// command that cannot start before it shows anything.
    /// - Throws: `.notFound`; `.isDirectory` for a path that names one (a
    ///   directory in a `PATH` directory is passed over, as shells do);
    ///   `.notExecutable` when the only matches cannot be executed (no
    ///   permission) or the interpreter cannot; `.interpreterNotFound`.
    package static func resolve(_ command: String, path: String?) throws(SpawnError) -> String {
        let found = try find(command, path: path)
        try checkInterpreter(of: found, command: command)
        return found
    }

    private static func find(_ command: String, path: String?) throws(SpawnError) -> String {
        if command.contains("/") {
            switch executableCheck(command) {
            case 0: return command
            case ENOENT, ENOTDIR: throw .notFound(command: command)
            case EISDIR: throw .isDirectory(command: command)
            case let code: throw .notExecutable(command: command, reason: errnoText(code))
            }
        }
        var denied: Int32?
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(
            separator: ":", omittingEmptySubsequences: false)
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + command
            switch executableCheck(candidate) {
            case 0: return candidate
            case ENOENT, ENOTDIR, EISDIR: continue
            case let code: denied = denied ?? code
            }
        }
        if let denied { throw .notExecutable(command: command, reason: errnoText(denied)) }
        throw .notFound(command: command)
    }

    /// 0 when `candidate` is a file we may execute, else the errno that says why not.
    private static func executableCheck(_ candidate: String) -> Int32 {
        var info = stat()
        guard stat(candidate, &info) == 0 else { return errno }
        if info.st_mode & S_IFMT == S_IFDIR { return EISDIR }
        return access(candidate, X_OK) == 0 ? 0 : errno
    }

    /// When `file` starts with `#!`, checks that the interpreter it names
    /// can be executed (the kernel would fail with ENOENT or EACCES, which
    /// would otherwise read as if `file` itself were missing).
    private static func checkInterpreter(of file: String, command: String) throws(SpawnError) {
        let head = readHead(of: file)
        guard head.starts(with: Array("#!".utf8)) else { return }
        let line = head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }
        let words = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        guard let first = words.first else { return }
        let interpreter = String(decoding: first, as: UTF8.self)
        switch executableCheck(interpreter) {
        case 0: return
        case ENOENT, ENOTDIR: throw .interpreterNotFound(command: command, interpreter: interpreter)
        case let code:
            throw .notExecutable(
                command: command, reason: "its interpreter \(interpreter) cannot be executed: \(errnoText(code))")
        }
    }

    /// The first bytes of `file` (none when it cannot be read).
    private static func readHead(of file: String) -> [UInt8] {
        guard let file = try? FileDescriptor.open(file, O_RDONLY) else { return [] }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = file.closeAfter { (try? $0.read(into: &buffer)) ?? 0 }
        return Array(buffer[..<count])
    }

    /// A file the kernel refused (ENOEXEC) is binary when its first line
    /// holds a NUL byte, as bash judges; else it is a shell script.
    private static func looksBinary(_ file: String) -> Bool {
        readHead(of: file).prefix { $0 != UInt8(ascii: "\n") }.contains(0)
    }

    /// Starts the program at `executable` (a path, as ``resolve(_:path:)``
    /// returns) with `arguments` (its name first), the host's environment
    /// and standard input.
    ///
    /// - Parameters:
    ///   - captureStdout: send the child's stdout into the capture pipe.
    ///   - captureStderr: send the child's stderr into the capture pipe.
    ///   Both go into one pipe, so their order is kept as the child wrote it.
    ///   - pseudoTerminal: capture into an ``OutputTerminal`` sized like
    ///     the caller's terminal instead of a pipe: the child then sees a
    ///     terminal on what is captured.
    ///   - passing: descriptors of the host the child gets, by the child's
    ///     number (the progress channel).
    ///   - environment: `NAME=value` entries; `nil` passes the host's.
    /// - Note: signals the host ignores or catches are reset to their default
    ///   and the signal mask is emptied in the child, so Ctrl-C and forwarded
    ///   signals act on it as they would under a shell.
    /// - Note: a file the kernel cannot execute (ENOEXEC: a script without
    ///   `#!`) is run with `/bin/sh`, as execvp(3) and shells do, unless it
    ///   looks binary.
    package static func spawn(
        _ executable: String, _ arguments: [String], captureStdout: Bool = false,
        captureStderr: Bool = false, pseudoTerminal: Bool = false, passing: [FileDescriptor: FileDescriptor] = [:],
        environment: [String]? = nil
    ) throws(SpawnError) -> ChildProcess {
        precondition(!arguments.isEmpty, "a command needs at least its name")
        let command = arguments[0]

        var capture: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
        if (captureStdout || captureStderr) && pseudoTerminal {
            do throws(Errno) {
                let terminal = try OutputTerminal.open(sizedLike: OutputTerminal.callersTerminal)
                capture = (readEnd: terminal.leader, writeEnd: terminal.follower)
            } catch {
                throw .noPseudoTerminal(command: command, reason: errnoText(error.code))
            }
        } else if captureStdout || captureStderr {
            do throws(Errno) {
                capture = try FileDescriptor.pipe()
            } catch {
                throw .failed(command: command, reason: "cannot create a pipe: \(errnoText(error.code))")
            }
        }

        var options = Spawn.Options()
        if captureStdout, let capture { options.descriptors[.standardOutput] = .descriptor(capture.writeEnd) }
        if captureStderr, let capture { options.descriptors[.standardError] = .descriptor(capture.writeEnd) }
        for (target, fd) in passing { options.descriptors[target] = .descriptor(fd) }
        options.environment = environment
        // What the host traps or ignores acts on the command as under a shell;
        // a signal the host's own caller ignored for it stays ignored.
        options.defaultSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGWINCH, SIGTTOU, SIGTTIN, SIGTSTP]

        func start(_ path: String, _ words: [String]) -> (pid_t, Int32) {
            switch Spawn.start(path, words, options) {
            case .success(let pid): return (pid, 0)
            case .failure(let failure): return (0, failure.code)
            }
        }
        var (pid, result) = start(executable, arguments)
        if result == ENOEXEC && !looksBinary(executable) {
            (pid, result) = start("/bin/sh", ["/bin/sh", executable] + arguments.dropFirst())
        }
        try? capture?.writeEnd.close()
        guard result == 0 else {
            try? capture?.readEnd.close()
            switch result {
            case ENOENT, ENOTDIR:
                throw .notFound(command: command)
            case EACCES, ENOEXEC, EPERM, EISDIR, ETXTBSY, ELIBBAD:
                throw .notExecutable(command: command, reason: errnoText(result))
            default:
                throw .failed(command: command, reason: errnoText(result))
            }
        }
        return ChildProcess(pid: pid, outputFD: capture?.readEnd)
    }

    /// Sends `signal` to the child (not to the process group, which holds
    /// the host). Does nothing once the child was reaped, so a signal can
    /// never reach another process that reused the pid. Any thread.
    package func send(_ signal: Int32) {
        reaped.withLock { if !$0 { _ = kill(pid, signal) } }
    }

    /// Sends `signal` to the child and to every process it started that is
    /// still its descendant, the deepest first (see ``ProcessTree``). With
    /// `freeze` the tree is stopped while it is read, so nothing forks
    /// unseen, and continued after the signal unless it is SIGKILL. Returns
    /// the tree signalled (empty once the child was reaped). Any thread.
    @discardableResult
    package func sendToTree(_ signal: Int32, freeze: Bool) -> ProcessTree {
        reaped.withLock { reaped in
            guard !reaped else { return .empty }
            let tree = ProcessTree.collect(root: pid, freeze: freeze)
            tree.send(signal)
            if freeze && signal != SIGKILL { tree.thaw() }
            return tree
        }
    }

    /// Waits for the child to end and reaps it, so no zombie is left.
    /// Blocks the calling thread; call it once.
    package func wait() -> Termination {
        // Wait without reaping first: until the pid is released, `send`
        // cannot hit anyone else.
        var info = siginfo_t()
        _ = try? retryingOnInterrupt("waitid") { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
        reaped.withLock { $0 = true }
        var status: Int32 = 0
        // A failure cannot happen for our own child (EX_SOFTWARE, 70, if it
        // ever did: this layer knows no command line).
        guard (try? retryingOnInterrupt("waitpid") { waitpid(pid, &status, 0) }) != nil else { return .exited(70) }
        return Termination(waitStatus: status)
    }
}
