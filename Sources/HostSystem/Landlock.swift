import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// Landlock (Linux 5.13 and later): a process restricts, for ever, which
/// files it may read or change, which TCP ports it may bind or connect, and
/// whom it may signal or reach through an abstract Unix socket. The host's
/// thin view of its three system calls (`ph_landlock_*`); which accesses a
/// plugin's process keeps is ``PluginConfinement``'s.
///
/// A ruleset *handles* accesses: those it handles are denied everywhere but
/// beneath the files and folders a rule allows them for; those it does not
/// handle stay as they were. Each ABI version handles more (``abi``).
package enum Landlock {
    /// Accesses to files and folders (`LANDLOCK_ACCESS_FS_*`).
    package struct FileAccess: OptionSet, Hashable, Sendable {
        package let rawValue: UInt64
        package init(rawValue: UInt64) { self.rawValue = rawValue }
        static let execute = FileAccess(rawValue: 1 << 0)
        static let writeFile = FileAccess(rawValue: 1 << 1)
        package static let readFile = FileAccess(rawValue: 1 << 2)
        package static let readDirectory = FileAccess(rawValue: 1 << 3)
        static let removeDirectory = FileAccess(rawValue: 1 << 4)
        static let removeFile = FileAccess(rawValue: 1 << 5)
        static let makeCharacterDevice = FileAccess(rawValue: 1 << 6)
        static let makeDirectory = FileAccess(rawValue: 1 << 7)
        static let makeRegularFile = FileAccess(rawValue: 1 << 8)
        static let makeSocket = FileAccess(rawValue: 1 << 9)
        static let makeFIFO = FileAccess(rawValue: 1 << 10)
        static let makeBlockDevice = FileAccess(rawValue: 1 << 11)
        static let makeSymbolicLink = FileAccess(rawValue: 1 << 12)
        /// ABI 2: linking or renaming a file into another folder.
        static let refer = FileAccess(rawValue: 1 << 13)
        /// ABI 3: truncating a file.
        static let truncate = FileAccess(rawValue: 1 << 14)
        /// ABI 5: ioctl on a device file opened after the restriction.
        static let ioctlDevice = FileAccess(rawValue: 1 << 15)

        /// What the accesses of a regular file are (a rule on a file may name only these).
        static let ofAFile: FileAccess = [.execute, .writeFile, .readFile, .truncate, .ioctlDevice]

        /// Every access ABI `version` handles.
        package static func handled(byABI version: Int) -> FileAccess {
            var access = FileAccess(rawValue: (1 << 13) - 1)
            if version >= 2 { access.insert(.refer) }
            if version >= 3 { access.insert(.truncate) }
            if version >= 5 { access.insert(.ioctlDevice) }
            return access
        }
    }

    /// TCP accesses (`LANDLOCK_ACCESS_NET_*`, ABI 4).
    package struct NetworkAccess: OptionSet, Hashable, Sendable {
        package let rawValue: UInt64
        package init(rawValue: UInt64) { self.rawValue = rawValue }
        package static let bindTCP = NetworkAccess(rawValue: 1 << 0)
        package static let connectTCP = NetworkAccess(rawValue: 1 << 1)
    }

    /// What a domain keeps within itself (`LANDLOCK_SCOPE_*`, ABI 6).
    package struct Scope: OptionSet, Hashable, Sendable {
        package let rawValue: UInt64
        package init(rawValue: UInt64) { self.rawValue = rawValue }
        /// Connecting to an abstract Unix socket made outside the domain.
        package static let abstractUnixSocket = Scope(rawValue: 1 << 0)
        /// Signalling a process outside the domain.
        package static let signal = Scope(rawValue: 1 << 1)
    }

    /// The kernel's Landlock ABI version, or why there is none (ENOSYS: not
    /// built in; EOPNOTSUPP: turned off at boot).
    package static var abi: Result<Int, Errno> {
        let version = ph_landlock_abi()
        return version > 0 ? .success(Int(version)) : .failure(Errno(call: "landlock_create_ruleset", code: errno))
    }

    /// A ruleset being made; ``restrict()`` puts the calling thread under it.
    package struct Ruleset: ~Copyable {
        private let descriptor: FileDescriptor

        /// A ruleset that handles these accesses and scopes (each one the
        /// kernel's ABI has: the caller asks ``abi`` first).
        package init(handling files: FileAccess, network: NetworkAccess, scopes: Scope) throws(Errno) {
            let fd = ph_landlock_ruleset(files.rawValue, network.rawValue, scopes.rawValue)
            guard fd >= 0 else { throw Errno(call: "landlock_create_ruleset", code: errno) }
            descriptor = FileDescriptor(rawValue: fd)
        }

        deinit { try? descriptor.close() }

        /// Allows `access` beneath what `target` names (a folder, or a file
        /// with ``FileAccess/ofAFile`` accesses only).
        package func allow(_ access: FileAccess, beneath target: FileDescriptor) throws(Errno) {
            guard ph_landlock_allow(descriptor.rawValue, target.rawValue, access.rawValue) == 0 else {
                throw Errno(call: "landlock_add_rule", code: errno)
            }
        }

        /// Restricts the calling thread, and every thread and process it
        /// starts from now on, for ever. Threads that exist already are not
        /// restricted: call it while the process has one thread.
        package func restrict() throws(Errno) {
            guard ph_landlock_restrict(descriptor.rawValue) == 0 else {
                throw Errno(call: "landlock_restrict_self", code: errno)
            }
        }
    }
}
