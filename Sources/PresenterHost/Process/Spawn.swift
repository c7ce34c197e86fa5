import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// The one place the host starts a process (`posix_spawn`): the command of
/// `run`, the scan helper and the presenter process.
///
/// Every descriptor the host opens is close-on-exec from its creation, so a
/// child gets exactly what its ``Options`` name: the descriptors given in
/// `descriptors`, and, unless `closeOthers` is set, whatever the host itself
/// inherited (a `run` command must get the descriptors its caller opened for
/// it, `3>file`). The helpers the host starts for itself set `closeOthers`.
struct Spawn {
    /// Where a descriptor of the child comes from.
    enum Source: Equatable {
        /// A copy of this descriptor of the host.
        case descriptor(FileDescriptor)
        /// `/dev/null`, opened with these flags.
        case null(Int32)
    }

    /// How to start the child.
    struct Options {
        /// The child's descriptors that are set up, by number.
        var descriptors: [FileDescriptor: Source] = [:]
        /// Closes every descriptor above the highest one in `descriptors`;
        /// name every number up to it (the helpers name 0 to 3), as one not
        /// named below it is kept as inherited.
        var closeOthers = false
        /// The child leads a new process group.
        var newProcessGroup = false
        /// The child leads a new session: no controlling terminal, and no
        /// signal the terminal sends reaches it.
        var newSession = false
        /// Signals reset to their default action in the child; `nil` resets
        /// every signal (the helpers), a list only those (the command keeps
        /// a SIG_IGN its caller set for it, as a shell's child would).
        var defaultSignals: [Int32]? = nil
        /// The environment; `nil` passes the host's.
        var environment: [String]? = nil
    }

    /// Starts `path` with `arguments` (its name first) and returns its pid,
    /// or the call that failed, `posix_spawn` or one setting it up.
    static func start(_ path: String, _ arguments: [String], _ options: Options) -> Result<pid_t, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A source at or below the highest target number could be taken by
        // an earlier dup2 (or be its own target, where dup2 would keep
        // FD_CLOEXEC): such a source first gets a copy above every target,
        // close-on-exec, closed again here once the child exists. Then
        // every dup2 lands where asked, in any order, with no fixed spare
        // number that a low RLIMIT_NOFILE would refuse.
        let highest = options.descriptors.keys.map(\.rawValue).max() ?? 2
        var copies: [FileDescriptor] = []
        defer { copies.forEach { try? $0.close() } }
        var status: Int32 = 0
        for (target, source) in options.descriptors.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            switch source {
            case .descriptor(var fd):
                if fd.rawValue <= highest {
                    do throws(Errno) {
                        fd = try fd.duplicate(atLeast: highest + 1)
                    } catch {
                        return .failure(error)
                    }
                    copies.append(fd)
                }
                status = posix_spawn_file_actions_adddup2(&actions, fd.rawValue, target.rawValue)
                guard status == 0 else {
                    return .failure(Errno(call: "posix_spawn_file_actions_adddup2", code: status))
                }
            case .null(let flags):
                status = posix_spawn_file_actions_addopen(&actions, target.rawValue, "/dev/null", flags, 0)
                guard status == 0 else {
                    return .failure(Errno(call: "posix_spawn_file_actions_addopen", code: status))
                }
            }
        }
        if options.closeOthers {
            status = ph_spawn_add_close_from(&actions, highest + 1)
            guard status == 0 else {
                return .failure(Errno(call: "posix_spawn_file_actions_addclosefrom_np", code: status))
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        if let signals = options.defaultSignals {
            sigemptyset(&defaults)
            for signal in signals { sigaddset(&defaults, signal) }
        } else {
            sigfillset(&defaults)
        }
        // The caller's thread may block signals (a dispatch thread blocks
        // them all); the child starts with none blocked, as from a shell.
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var flags = Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if options.newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
        }
        if options.newSession { flags |= ph_spawn_setsid_flag() }
        posix_spawnattr_setflags(&attributes, flags)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        if let environment = options.environment {
            let envp = environment.map { strdup($0) } + [nil]
            defer { envp.forEach { free($0) } }
            status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        } else {
            status = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        return status == 0 ? .success(pid) : .failure(Errno(call: "posix_spawn", code: status))
    }
}

extension Spawn {
    /// The host's environment as `NAME=value` entries, in its order, with
    /// `name` set to `value` (replacing every entry of that name).
    static func environment(setting name: String, to value: String) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix(name + "=") { entries.append(text) }
            pointer += 1
        }
        return entries + ["\(name)=\(value)"]
    }
}
