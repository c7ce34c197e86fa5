import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// What this process is: its ids, and what /proc tells of it, which a
/// process that is about to confine itself reads first
/// (``PluginConfinement``), as it can read none of it after.
package enum ProcessSelf {
    /// This process's id (`getpid`), as its own PID namespace numbers it:
    /// what the host passes to the helpers it starts, so that they can
    /// tell when it is gone, and names its temporary files by.
    package static var id: pid_t { getpid() }

    /// The id of this process's parent (`getppid`): 0 in a PID namespace of
    /// its own, whose parent has no number there; once the parent ended,
    /// the process that adopted it.
    package static var parentID: pid_t { getppid() }

    /// Names this process as `ps` and `top` show it (`prctl(PR_SET_NAME)`,
    /// the first 15 bytes), from its main thread: a helper started as
    /// `/proc/self/exe` would otherwise be named `exe`.
    package static func rename(_ name: String) {
        _ = ph_set_process_name(name)
    }

    /// Runs the program at `path` in this process, in place of this one
    /// (`execv`: the same process id, descriptors, signal mask and
    /// environment), with `arguments` (its name first); returns only when
    /// it cannot, with why.
    package static func replace(with path: String, arguments: [String]) -> Errno {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        execv(path, argv)
        return Errno(call: "execv", code: errno)
    }

    /// The names of the entries of the folder `path` (`.` and `..` left
    /// out), in readdir's order; none when it cannot be read.
    static func entries(of path: String) -> [String] {
        ((try? DirectoryEntries.names(in: path)) ?? []).map { String(decoding: $0, as: UTF8.self) }
    }

    /// How many threads this process runs.
    package static var threadCount: Int { entries(of: "/proc/self/task").count }

    /// The highest descriptor open in this process, -1 for none.
    package static var highestOpenDescriptor: Int32 {
        // The listing's own descriptor is among them: one more than it needs is harmless.
        entries(of: "/proc/self/fd").compactMap { Int32($0) }.max() ?? -1
    }

    /// This process's folder in /proc (`/proc/1234`): named as /proc's own
    /// PID namespace numbers it, which is not `getpid()` in a PID namespace
    /// of its own.
    package static var procFolder: String {
        PathName.linkTarget(of: "/proc/self").map { "/proc/" + $0 } ?? "/proc/\(getpid())"
    }

    /// The folders of the shared libraries loaded in this process, in the
    /// dynamic loader's order (not the executable's own folder): the folder
    /// of each library's file, a file that is a symbolic link followed (ld.so
    /// is loaded as /lib64/ld-linux-x86-64.so.2, a link into
    /// /usr/lib/x86_64-linux-gnu); a folder reached through a link needs
    /// nothing, as it opens as the folder it leads to. From the loader's own
    /// list (`dl_iterate_phdr`): reading /proc/self/maps instead, some 300
    /// lines the kernel writes out, was a tenth of a presenter process's start.
    package static var libraryFolders: [String] {
        final class Folders { var list: [String] = [] }
        let folders = Folders()
        withExtendedLifetime(folders) {
            ph_each_loaded_object(
                { path, context in
                    guard let path, let context else { return }
                    let folders = Unmanaged<Folders>.fromOpaque(context).takeUnretainedValue()
                    var file = String(cString: path)
                    // The vDSO's name has no slash and is no file's (a file of
                    // that name in the current folder must not open it up).
                    guard file.contains("/") else { return }
                    // A relative name (a relative LD_LIBRARY_PATH entry) is
                    // made absolute, as /proc/self/maps would show it.
                    if !file.hasPrefix("/") || FileStatus.isSymbolicLink(file) {
                        guard let target = try? PathName.realPath(file) else { return }
                        file = target
                    }
                    let location = PathName(file)
                    guard location.hasParentBelowRoot else { return }
                    let folder = location.parent
                    if !folders.list.contains(folder) { folders.list.append(folder) }
                }, Unmanaged.passUnretained(folders).toOpaque())
        }
        return folders.list
    }
}

/// The namespaces a process is in, by the inode numbers of /proc/self/ns/*:
/// two processes are in the same namespace when the numbers are equal.
package struct NamespaceIdentity: Equatable {
    let user: UInt64
    let pid: UInt64
    let network: UInt64
    let mount: UInt64

    /// This process's.
    package static var ofThisProcess: NamespaceIdentity {
        func inode(_ name: String) -> UInt64 {
            (try? FileStatus.of("/proc/self/ns/\(name)")).map { UInt64($0.st_ino) } ?? 0
        }
        return NamespaceIdentity(user: inode("user"), pid: inode("pid"), network: inode("net"), mount: inode("mnt"))
    }

    /// `user:N pid:N net:N mnt:N`.
    package var encoded: String { "user:\(user) pid:\(pid) net:\(network) mnt:\(mount)" }

    init(user: UInt64, pid: UInt64, network: UInt64, mount: UInt64) {
        (self.user, self.pid, self.network, self.mount) = (user, pid, network, mount)
    }

    /// From ``encoded``; nil when it is not one.
    init?(encoded: String) {
        var values: [String: UInt64] = [:]
        for field in encoded.split(separator: " ") {
            let parts = field.split(separator: ":")
            guard parts.count == 2, let value = UInt64(parts[1]) else { return nil }
            values[String(parts[0])] = value
        }
        guard let user = values["user"], let pid = values["pid"], let network = values["net"],
            let mount = values["mnt"]
        else { return nil }
        self.init(user: user, pid: pid, network: network, mount: mount)
    }

    /// The namespaces this process has apart from `host` (a process's
    /// ``encoded`` identity); nil when `host` is not one.
    package static func entered(apartFrom host: String?) -> Spawn.Namespaces? {
        guard let host = host.flatMap(NamespaceIdentity.init(encoded:)) else { return nil }
        let own = ofThisProcess
        var entered: Spawn.Namespaces = []
        if own.user != host.user { entered.insert(.user) }
        if own.pid != host.pid { entered.insert(.pid) }
        if own.network != host.network { entered.insert(.network) }
        if own.mount != host.mount { entered.insert(.mount) }
        return entered
    }
}
