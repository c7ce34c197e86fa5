#if canImport(Glibc)
    import Glibc
#endif

/// What this process is, as /proc tells it: what a process that is about
/// to confine itself reads first (``PluginConfinement``), as it can read
/// none of it after.
package enum ProcessSelf {
    /// The names of the entries of the folder `path` (`.` and `..` left out), in readdir's order.
    static func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
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
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = readlink("/proc/self", &buffer, buffer.count)
        return count > 0 ? "/proc/" + String(decoding: buffer[..<count], as: UTF8.self) : "/proc/\(getpid())"
    }

    /// The folders of the shared libraries mapped in this process, in the
    /// order /proc/self/maps lists them (not the executable's own folder).
    package static var libraryFolders: [String] {
        guard let maps = try? FileDescriptor.open("/proc/self/maps", O_RDONLY).closeAfter({ try $0.readAll() })
        else { return [] }
        var folders: [String] = []
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = line[slash...]
            guard path.contains(".so"), let last = path.lastIndex(of: "/"), last != path.startIndex else { continue }
            let folder = String(path[..<last])
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }

    /// Whether `path` exists (a dangling link does not).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}

/// The namespaces a process is in, by the inode numbers of /proc/self/ns/*:
/// two processes are in the same namespace when the numbers are equal.
package struct NamespaceIdentity: Equatable {
    let user: UInt64
    let pid: UInt64
    let network: UInt64

    /// This process's.
    package static var ofThisProcess: NamespaceIdentity {
        func inode(_ name: String) -> UInt64 {
            var info = stat()
            return stat("/proc/self/ns/\(name)", &info) == 0 ? UInt64(info.st_ino) : 0
        }
        return NamespaceIdentity(user: inode("user"), pid: inode("pid"), network: inode("net"))
    }

    /// `user:N pid:N net:N`.
    package var encoded: String { "user:\(user) pid:\(pid) net:\(network)" }

    init(user: UInt64, pid: UInt64, network: UInt64) {
        (self.user, self.pid, self.network) = (user, pid, network)
    }

    /// From ``encoded``; nil when it is not one.
    init?(encoded: String) {
        var values: [String: UInt64] = [:]
        for field in encoded.split(separator: " ") {
            let parts = field.split(separator: ":")
            guard parts.count == 2, let value = UInt64(parts[1]) else { return nil }
            values[String(parts[0])] = value
        }
        guard let user = values["user"], let pid = values["pid"], let network = values["net"] else { return nil }
        self.init(user: user, pid: pid, network: network)
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
        return entered
    }
}
