import SystemShims
#if canImport(Glibc)
    import Glibc
#endif

/// The one place the host starts a process (`ph_spawn_begin` and `_end`: a fork and an
/// exec): the command of `run`, the scan helper, the presenter process and
/// the fetcher.
///
/// Not `posix_spawn`: glibc's is a vfork, whose calling thread waits in the
/// kernel, unstoppably, until the child has exec'd. A Ctrl-Z that comes
/// while the child is between the two stops it there (the terminal signals
/// the whole foreground group), and then no thread of the host can stop or
/// go on: the job hangs with the terminal. `ph_spawn_end` waits for the exec in
/// `read(2)`, which a stop takes like any other wait (see system_shims.c).
///
/// Every descriptor the host opens is close-on-exec from its creation, so a
/// child gets exactly what its ``Options`` name: the descriptors given in
/// `descriptors`, and, unless `closeOthers` is set, whatever the host itself
/// inherited (a `run` command must get the descriptors its caller opened for
/// it, `3>file`). The helpers the host starts for itself set `closeOthers`.
package struct Spawn {
    /// Where a descriptor of the child comes from.
    package enum Source: Equatable {
        /// A copy of this descriptor of the host.
        case descriptor(FileDescriptor)
        /// This file, opened by the child with these flags.
        case file(String, Int32)

        /// `/dev/null`, opened with these flags.
        package static func null(_ flags: Int32) -> Source { .file("/dev/null", flags) }
    }

    /// How to start the child.
    package struct Options {
        /// The child's descriptors that are set up, by number.
        package var descriptors: [FileDescriptor: Source] = [:]
        /// Closes every descriptor above the highest one in `descriptors`;
        /// name every number up to it (the helpers name 0 to 3), as one not
        /// named below it is kept as inherited.
        package var closeOthers = false
        /// The child leads a new process group.
        package var newProcessGroup = false
        /// The child leads a new session: no controlling terminal, and no
        /// signal the terminal sends reaches it.
        package var newSession = false
        /// Signals reset to their default action in the child; `nil` resets
        /// every signal (the helpers), a list only those (the command keeps
        /// a SIG_IGN its caller set for it, as a shell's child would). A
        /// signal the host catches is reset in any case.
        package var defaultSignals: [Int32]? = nil
        /// The environment, `NAME=value` entries; `nil`: the child inherits
        /// the host's as it is, passed on unread.
        package var environment: [String]? = nil
        /// The namespaces the child starts in, where the kernel lets an
        /// unprivileged process make them (``Child/namespaces`` says which
        /// it got): the processes that run plugin code (SECURITY.md).
        package var namespaces: Namespaces = []

        package init() {}
    }

    /// Namespaces a child can be started in (`PH_NAMESPACE_*`).
    package struct Namespaces: OptionSet, Hashable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// A user namespace of its own, its uid and gid mapped to themselves
        /// (the others need it: an unprivileged process may make them there).
        package static let user = Namespaces(rawValue: PH_NAMESPACE_USER)
        /// A PID namespace of its own: the child is its process 1, sees no
        /// other process, and every process it starts ends with it.
        package static let pid = Namespaces(rawValue: PH_NAMESPACE_PID)
        /// A network namespace of its own: a loopback that is down, nothing else.
        package static let network = Namespaces(rawValue: PH_NAMESPACE_NETWORK)
        /// A mount namespace of its own, with the right to mount there after
        /// its exec (CAP_SYS_ADMIN of its user namespace, ambient), which it
        /// must drop itself: for ``PrivateRoot``.
        package static let mount = Namespaces(rawValue: PH_NAMESPACE_MOUNT)
    }

    /// A started child.
    package struct Child: Equatable {
        package let pid: pid_t
        /// The namespaces it was started in: those asked for that the kernel allowed.
        let namespaces: Namespaces
        /// Why the kernel refused a namespace asked for (an errno), 0 for none.
        let namespaceError: Int32
    }

    /// Starts `path` with `arguments` (its name first) and returns its pid,
    /// or the call that failed: `spawn` (the fork, a descriptor of the
    /// child or its exec: ENOENT, EACCES, ENOEXEC...) or one setting it up.
    package static func start(_ path: String, _ arguments: [String], _ options: Options) -> Result<pid_t, Errno> {
        launch(path, arguments, options).map(\.pid)
    }

    /// ``start(_:_:_:)``, with the namespaces the child got.
    package static func launch(_ path: String, _ arguments: [String], _ options: Options) -> Result<Child, Errno> {
        begin(path, arguments, options).flatMap { beginning in
            beginning.end().mapError { error in
                _ = ProcessExit.end(beginning.pid, waitingUpTo: 0)
                return error
            }
        }
    }

    /// A child forked and not yet known to have exec'd (``begin(_:_:_:)``).
    package struct Beginning {
        /// Its number, the caller's to reap (``ProcessExit``) unless
        /// ``end()`` succeeds: after closing ``report`` when it never calls
        /// that, and after a failed ``end()``, whose child has ended.
        package let pid: pid_t
        /// Where it says how its exec went: end of file once it exec'd.
        package let report: FileDescriptor
        let namespaceError: Int32

        /// Waits, in read(2), until the child has exec'd (and closes
        /// ``report``): the child, or why its exec failed (it has ended
        /// then, not reaped: its number stays the caller's until it reaps
        /// it, so that no one who may still signal it hits another process).
        package func end() -> Result<Child, Errno> {
            var result = ph_spawn_result(pid: pid, namespaces: 0, namespace_error: namespaceError)
            let status = ph_spawn_end(&result, report.rawValue)
            guard status == 0 else { return .failure(Errno(call: "spawn", code: status)) }
            return .success(
                Child(
                    pid: pid, namespaces: Namespaces(rawValue: Int32(result.namespaces)),
                    namespaceError: Int32(result.namespace_error)))
        }
    }

    /// ``launch(_:_:_:)`` without waiting for the exec: the fork only. A
    /// caller whose thread must not wait for a child's start (a process
    /// started ahead, whose exec must not delay what follows) ends it later,
    /// on another thread (``Beginning/end()``).
    package static func begin(_ path: String, _ arguments: [String], _ options: Options) -> Result<Beginning, Errno> {
        // A source at or below the highest target number could be taken by
        // an earlier dup2 (or be its own target, where dup2 would keep
        // FD_CLOEXEC): such a source first gets a copy above every target,
        // close-on-exec, closed again here once the child exists. Then
        // every dup2 lands where asked, in any order, with no fixed spare
        // number that a low RLIMIT_NOFILE would refuse.
        let highest = options.descriptors.keys.map(\.rawValue).max() ?? 2
        var copies: [FileDescriptor] = []
        defer { copies.forEach { try? $0.close() } }
        var paths: [UnsafeMutablePointer<CChar>?] = []
        defer { paths.forEach { free($0) } }
        var descriptors: [ph_spawn_descriptor] = []
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
                descriptors.append(
                    ph_spawn_descriptor(target: target.rawValue, source: fd.rawValue, path: nil, flags: 0))
            case .file(let path, let flags):
                let copy = strdup(path)
                paths.append(copy)
                descriptors.append(ph_spawn_descriptor(target: target.rawValue, source: -1, path: copy, flags: flags))
            }
        }
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

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = (options.environment.map { $0.map { strdup($0) } } ?? []) + [nil]
        defer { envp.forEach { free($0) } }
        // The maps are written by the child, which may not format numbers.
        let uidMap = strdup("\(geteuid()) \(geteuid()) 1\n"), gidMap = strdup("\(getegid()) \(getegid()) 1\n")
        defer { free(uidMap); free(gidMap) }
        var result = ph_spawn_result()
        var report: Int32 = -1
        let status = descriptors.withUnsafeBufferPointer { descriptors in
            withUnsafePointer(to: &defaults) { defaults in
                withUnsafePointer(to: &emptyMask) { mask in
                    var plan = ph_spawn_plan(
                        descriptors: descriptors.baseAddress, descriptor_count: Int32(descriptors.count),
                        close_from: options.closeOthers ? highest + 1 : -1,
                        leader: options.newSession ? 1 : options.newProcessGroup ? 2 : 0,
                        defaults: defaults, mask: mask, namespaces: options.namespaces.rawValue, uid_map: uidMap,
                        gid_map: gidMap)
                    if options.environment == nil {
                        return ph_spawn_begin(&result, &report, path, argv, environ, &plan)
                    }
                    return ph_spawn_begin(&result, &report, path, argv, envp, &plan)
                }
            }
        }
        guard status == 0 else { return .failure(Errno(call: "spawn", code: status)) }
        return .success(
            Beginning(
                pid: result.pid, report: FileDescriptor(rawValue: report), namespaceError: result.namespace_error))
    }
}
