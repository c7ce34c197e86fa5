import HostSystem
import HostText

#if canImport(Glibc)
    import Glibc
#endif

/// What a process that runs plugin code may do, and putting it under those
/// rules: the presenter process, the scan helper, and `check`'s presenter
/// processes (SECURITY.md, and docs/ABI.md's table of what a presenter
/// may do).
///
/// A presenter decides how progress looks, and nothing else. Before the
/// first byte of plugin code runs (before `dlopen`, as a library's
/// constructor is plugin code), such a process gives up, for ever:
/// - signals, ptrace, `process_vm_*` and pidfds but to itself;
/// - files but reading the shared-library folders (and locale, time-zone
///   and terminfo data, and its own `/proc/PID/fd`), which are all that
///   exist in its own root; it reads its plugins through descriptors it was
///   given or opened first, and writes nothing anywhere;
/// - the user's environment but the locale, TERM and NO_COLOR (``passes(_:)``);
/// - the network: no socket (the channel to the host is its only way out);
/// - processes: no exec, no fork (threads are allowed);
/// - core files and file size; descriptors and threads are capped.
///
/// Each rule is held by more than one of the kernel's mechanisms, the
/// layers of ``ConfinementReport/Layer``: a layer the kernel lacks is
/// reported, never silently weaker.
package enum PluginConfinement {
    #if PRESENTER_HOST_TEST_SWITCHES
        /// Turns layers off, for tests that show what each holds by itself: a
        /// comma-separated list of ``ConfinementReport/Layer`` names
        /// (`seccomp,namespaces`) or `all`. `privileges` cannot be turned off
        /// (seccomp and Landlock need it). Every report says which are off.
        /// Only in a test build (the debug configuration, Package.swift):
        /// a shipped binary never reads it, so no inherited variable runs
        /// third-party code with a layer off.
        static let offVariable = "PRESENTER_HOST_SANDBOX_OFF"
    #endif
    /// The host's namespaces (`user:INODE pid:INODE net:INODE mnt:INODE`), set by the
    /// host for the processes it starts, which compare theirs with them to
    /// know which namespaces of their own they got.
    static let namespaceVariable = "PRESENTER_HOST_NAMESPACES"
    /// The most descriptors beyond those it needs that such a process may
    /// open (RLIMIT_NOFILE).
    static let spareDescriptors: rlim_t = 64
    /// The most threads such a process may run (RLIMIT_NPROC, which counts
    /// the tasks of its user namespace).
    static let maxThreads: rlim_t = 64
    /// The most process ids its own PID namespace has (`pid_max`, whose
    /// least is 301): the threads of a process whose RLIMIT_NPROC cannot
    /// bind it (root's).
    static let maxProcessIDs: rlim_t = 301
    /// Where the process builds its own root (a folder every system has;
    /// hidden under the root's tmpfs until the process leaves it).
    static let rootScratch = "/tmp"

    /// The layers `environment` turns off (``offVariable``; none in a build
    /// that is not a test build).
    static func layersOff(_ environment: [String: String]) -> Set<ConfinementReport.Layer> {
        #if PRESENTER_HOST_TEST_SWITCHES
            guard let value = environment[offVariable], !value.isEmpty else { return [] }
            let names = value.split(separator: ",").map { $0.trimmingWhitespace() }
            if names.contains("all") { return Set(ConfinementReport.Layer.allCases).subtracting([.privileges]) }
            return Set(names.compactMap { ConfinementReport.Layer(rawValue: String($0)) }).subtracting([.privileges])
        #else
            return []
        #endif
    }

    /// What a report says of a layer turned off.
    static var offDetail: String {
        #if PRESENTER_HOST_TEST_SWITCHES
            offVariable
        #else
            "turned off"
        #endif
    }

    /// Sets up the start of a process that will run plugin code: the
    /// namespaces it is started in, and its environment: of `environment`
    /// (the host's, as the command line read it and passed it down) only
    /// what ``passes(_:)``, with `setting` (the host's own variables for it,
    /// passed whatever their names) and the variable that lets it see which
    /// namespaces it got. The one place that decides both, for the scan
    /// helper (`ScanProcess`), the presenter process
    /// (`PresenterProcessLaunch`) and so `check`'s.
    package static func prepare(
        _ options: inout Spawn.Options, environment: [String: String], setting: [String: String] = [:]
    ) {
        let entries = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        options.environment = Self.environment(from: entries, setting: setting)
        if !layersOff(environment).contains(.namespaces) {
            options.namespaces = [.user, .pid, .network, .mount]
        }
    }

    /// Puts this process under the rules, for ever, and says which layers
    /// hold. Call it on the process's only thread (Landlock restricts the
    /// threads started after it, not those that run already), before any
    /// plugin code.
    /// - Parameters:
    ///   - environment: this process's, as its command line read it: the
    ///     layers a test build turns off, the host's namespaces, the
    ///     library folders of `LD_LIBRARY_PATH`.
    ///   - files: the plugin files it will load by path (`/proc/PID/fd/N`),
    ///     opened already: each may be read (Landlock checks a file by
    ///     where it is, however it is opened again).
    ///   - violations: where the SIGSYS handler writes what stopped the
    ///     process (``ConfinementViolation``), for the host.
    package static func enter(
        files: [FileDescriptor] = [], violations: FileDescriptor?, environment: [String: String]
    ) -> ConfinementReport {
        let off = layersOff(environment)
        let namespaces = NamespaceIdentity.entered(apartFrom: environment[namespaceVariable])
        let threads = ProcessSelf.threadCount
        // Read before Landlock, which then allows none of it.
        let folders = readableFolders(environment)
        let highest = ProcessSelf.highestOpenDescriptor
        // Process 1 of its PID namespace: a signal it sends itself cannot
        // end it, so its handlers end it instead.
        try? SeccompFilter.reportViolations(to: violations, asNamespaceInit: namespaces?.contains(.pid) == true)
        let limitsEntry = limits(
            off: off.contains(.limits), descriptors: rlim_t(max(highest, 2) + 1) + spareDescriptors,
            userNamespace: namespaces?.contains(.user) == true, pidNamespace: namespaces?.contains(.pid) == true)
        // After the limits (pid_max is written in /proc/sys), before the
        // privileges (mounting needs the capabilities of its user namespace).
        let root: Result<Void, Errno>? =
            namespaces?.contains(.mount) == true && !off.contains(.namespaces) ? enterOwnRoot(folders) : nil
        let entries = [
            namespaceEntry(namespaces, root: root, off: off.contains(.namespaces)),
            limitsEntry,
            privileges(),
            off.contains(.landlock)
                ? .init(layer: .landlock, state: .off, detail: offDetail)
                : landlock(folders: folders, files: files, threads: threads),
            // Last: the calls that set up the layers before it are not allowed after it.
            off.contains(.seccomp) ? .init(layer: .seccomp, state: .off, detail: offDetail) : seccomp(),
        ]
        return ConfinementReport(
            entries: ConfinementReport.Layer.allCases.compactMap { layer in entries.first { $0.layer == layer } })
    }

    // MARK: - The layers

    private static func privileges() -> ConfinementReport.Entry {
        do throws(Errno) {
            try ProcessPrivileges.forbidNew()
        } catch {
            return .init(layer: .privileges, state: .missing, detail: "no_new_privs: \(errnoText(error.code))")
        }
        do throws(Errno) {
            try ProcessPrivileges.dropCapabilities()
        } catch {
            return .init(
                layer: .privileges, state: .partial,
                detail: "no new privileges; capabilities kept (capset: \(errnoText(error.code)))")
        }
        return .init(layer: .privileges, state: .on, detail: "no new privileges, no capabilities")
    }

    /// The namespaces entry: those it was started in, and its own root
    /// (`root`: nil when it got no mount namespace; a failure says the
    /// step and its errno).
    private static func namespaceEntry(
        _ entered: Spawn.Namespaces?, root: Result<Void, Errno>?, off: Bool
    ) -> ConfinementReport.Entry {
        if off { return .init(layer: .namespaces, state: .off, detail: offDetail) }
        guard let entered else {
            return .init(layer: .namespaces, state: .missing, detail: "started without \(namespaceVariable)")
        }
        let names: [(Spawn.Namespaces, String)] = [
            (.user, "user"), (.pid, "PID"), (.network, "network"), (.mount, rootDetail),
        ]
        var held = names.filter { entered.contains($0.0) }.map(\.1)
        let lacking = names.filter { !entered.contains($0.0) }.map { $0.0 == .mount ? "mount" : $0.1 }
        var failures: [String] = []
        if case .failure(let error) = root {
            held.removeAll { $0 == rootDetail }
            failures.append("mount namespace without a root of its own (\(error))")
        }
        if !lacking.isEmpty {
            failures.append(
                "the kernel refused " + lacking.joined(separator: ", ")
                    + " (unprivileged user namespaces off, or restricted by AppArmor)")
        }
        let detail = (held.isEmpty ? [] : [held.joined(separator: ", ")]) + failures
        let state: ConfinementReport.State = failures.isEmpty ? .on : held.isEmpty ? .missing : .partial
        return .init(layer: .namespaces, state: state, detail: detail.joined(separator: "; "))
    }

    /// What the namespaces entry says of a root of its own.
    static let rootDetail = "mount: only the library folders"

    /// Enters a root of its own (``PrivateRoot``) that holds what
    /// ``rootPaths(_:)`` names of `folders`.
    private static func enterOwnRoot(_ folders: [String]) -> Result<Void, Errno> {
        let (paths, links) = rootPaths(folders)
        do throws(Errno) {
            try PrivateRoot.enter(PrivateRoot.plan(holding: paths, links: links), buildingIn: rootScratch)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// What the root holds: the readable folders and files, but of its own
    /// /proc folder only `fd` (where plugins are loaded from, as
    /// `/proc/PID/fd/N`) and `/proc/self` as a link to it; so other
    /// processes, /proc/net, its own mountinfo, environ and maps are gone.
    static func rootPaths(_ folders: [String]) -> (paths: [String], links: [PrivateRoot.Link]) {
        let proc = ProcessSelf.procFolder
        #if PRESENTER_SANITIZER
            // A sanitizer's runtime reads /proc/self/maps and statm for its
            // reports (scripts/sanitize): the whole folder, in that build only.
            let paths = folders
        #else
            let paths = folders.map { $0 == proc ? proc + "/fd" : $0 }
        #endif
        return (paths, [PrivateRoot.Link(path: "/proc/self", target: String(PathName(proc).lastComponent))])
    }

    private static func limits(
        off: Bool, descriptors: rlim_t, userNamespace: Bool, pidNamespace: Bool
    ) -> ConfinementReport.Entry {
        if off { return .init(layer: .limits, state: .off, detail: offDetail) }
        var failed: [String] = []
        if !ResourceLimit.cap(RLIMIT_CORE, at: 0) { failed.append("core files") }
        if !ResourceLimit.cap(RLIMIT_FSIZE, at: 0) { failed.append("file size") }
        if !ResourceLimit.cap(RLIMIT_NOFILE, at: descriptors) { failed.append("descriptors") }
        // Threads: its PID namespace's pid_max caps its tasks, whoever the
        // user; RLIMIT_NPROC counts the tasks of the user in its user
        // namespace (in the process's own, its threads; outside one, every
        // process the user runs, which no fixed cap fits), and never binds root.
        var threads: String?
        if pidNamespace && ResourceLimit.capProcessIDsOfOwnNamespace(at: Int(maxProcessIDs)) {
            threads = "\(maxProcessIDs - 1) threads (pid_max)"
        }
        if userNamespace && UserAccount.effectiveUserID != 0 && ResourceLimit.cap(__RLIMIT_NPROC, at: maxThreads) {
            threads = "\(maxThreads) threads"
        }
        let why =
            !pidNamespace ? "no PID namespace of its own" : "the kernel keeps no pid_max per PID namespace (Linux 6.14)"
        let uncapped =
            "threads not capped (\(why)\(UserAccount.effectiveUserID == 0 ? "; RLIMIT_NPROC does not bind root" : ""))"
        let detail = "no core files, no file size, \(descriptors) descriptors, " + (threads ?? uncapped)
        guard failed.isEmpty else {
            return .init(
                layer: .limits, state: .partial, detail: detail + "; not set: " + failed.joined(separator: ", "))
        }
        // Threads not capped: in part, said as such (a missing rule is never silent).
        return .init(layer: .limits, state: threads == nil ? .partial : .on, detail: detail)
    }

    private static func landlock(folders: [String], files: [FileDescriptor], threads: Int) -> ConfinementReport.Entry {
        let abi: Int
        switch Landlock.abi {
        case .success(let version): abi = version
        case .failure(let error):
            let why =
                error.code == EOPNOTSUPP ? "turned off at boot (lsm=)" : "the kernel has none (Linux 5.13 or later)"
            return .init(layer: .landlock, state: .missing, detail: why)
        }
        guard threads <= 1 else {
            return .init(
                layer: .landlock, state: .missing,
                detail: "the process had \(threads) threads when it entered the sandbox (a bug of presenter-host)")
        }
        let network: Landlock.NetworkAccess = abi >= 4 ? [.bindTCP, .connectTCP] : []
        let scopes: Landlock.Scope = abi >= 6 ? [.abstractUnixSocket, .signal] : []
        do throws(Errno) {
            let ruleset = try Landlock.Ruleset(handling: .handled(byABI: abi), network: network, scopes: scopes)
            for path in folders {
                guard let target = try? FileDescriptor.openPath(path) else { continue }
                defer { try? target.close() }
                guard let info = try? target.status() else { continue }
                let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
                try? ruleset.allow(isFolder ? [.readFile, .readDirectory] : [.readFile], beneath: target)
            }
            for file in files { try ruleset.allow([.readFile], beneath: file) }
            try ruleset.restrict()
        } catch {
            return .init(layer: .landlock, state: .missing, detail: "\(error)")
        }
        var holds = ["files read-only in \(folders.count) system folders, nothing written"]
        var lacks: [String] = []
        if abi >= 4 { holds.append("no TCP") } else { lacks.append("TCP (Linux 6.7)") }
        if abi >= 6 {
            holds.append("signals and abstract sockets kept within")
        } else {
            lacks.append("signal and abstract-socket scopes (Linux 6.12)")
        }
        let detail = "ABI \(abi): " + holds.joined(separator: ", ")
        guard lacks.isEmpty else {
            return .init(
                layer: .landlock, state: .partial,
                detail: detail + "; the kernel lacks " + lacks.joined(separator: " and "))
        }
        return .init(layer: .landlock, state: .on, detail: detail)
    }

    private static func seccomp() -> ConfinementReport.Entry {
        do throws(Errno) {
            let filter = try SeccompFilter(unlisted: .fail(EPERM))
            let allowed = try SystemCallPolicy.install(in: filter, selfPID: ProcessSelf.id)
            try filter.load()
            return .init(
                layer: .seccomp, state: .on,
                detail: "\(allowed) calls allowed; exec, new processes, sockets, ptrace and signals to others stop it")
        } catch {
            return .init(layer: .seccomp, state: .missing, detail: "\(error)")
        }
    }

    // MARK: - What may be read

    /// The folders and files whose files may be read: the shared-library
    /// folders (the system's, each folder a library of this process was
    /// loaded from, the absolute entries of LD_LIBRARY_PATH), the dynamic
    /// loader's cache, locale, time-zone and terminfo data (all under /usr,
    /// or these), the CPU list, a few character devices, and its own /proc.
    static func readableFolders(_ environment: [String: String]) -> [String] {
        var paths = [
            "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/etc/ld.so.cache", "/etc/ld.so.preload",
            "/etc/localtime", "/etc/terminfo", "/sys/devices/system/cpu", "/dev/null", "/dev/zero", "/dev/urandom",
            "/dev/random", ProcessSelf.procFolder,
        ]
        paths += ProcessSelf.libraryFolders
        for entry in (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":") where entry.hasPrefix("/") {
            paths.append(String(entry))
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted && FileStatus.exists($0) }
    }
}
