import Glibc
import HostSystem

/// A plugin file opened once, checked through its descriptor, and loaded
/// through that same descriptor, so the file that was checked is the file
/// that is loaded.
///
/// `path` must be a real path (no symbolic link in it: discovery resolves
/// links and refuses those that leave their directory). The directory is
/// opened first and the file is opened in it with `O_NOFOLLOW`: a link put
/// in the file's place after discovery is refused. The owner and mode checks
/// (`PluginPolicy`), the ELF checks (`ELFPrecheck`) and the Swift
/// toolchain check (`SwiftToolchain`) read the descriptors;
/// `dlopen` is given `/proc/PID/fd/N`, so a file swapped after the checks
/// is never the one loaded. PID, not `self`: a debugger reads the name to
/// find the library's symbols, and in its own process `/proc/self/fd/N`
/// is one of its own descriptors (gdb then blocks reading its pipe).
///
/// A file larger than ``largestFile`` is refused before anything else is
/// read: the host copies a plugin whole into sealed memory for its
/// presenter process (``image()``), and a sparse file of gigabytes would
/// cost that much shared memory and the time to copy it.
package struct PluginFile {
    /// The largest plugin file the host loads: 256 MiB (docs/ABI.md), far
    /// above any presenter, debug information included.
    package static let largestFile = 256 << 20

    /// The open file (close-on-exec).
    let descriptor: FileDescriptor
    /// Its status, as checked.
    let info: stat
    /// The real path it was opened at.
    let path: String
    /// What it says it holds, read from its notes (ABI 1.3); nil when it
    /// has no description.
    let description: PluginDescription?

    /// Opens and checks `path` under `policy`; throws why it cannot be a plugin.
    package static func open(_ path: String, policy: PluginPolicy) throws(PluginLoadFailure) -> PluginFile {
        guard path.contains("/") else { throw .file(.missing) }
        let location = PathName(path)
        let directoryPath = location.parent, name = String(location.lastComponent)
        let directory: FileDescriptor, fd: FileDescriptor
        do throws(Errno) {
            directory = try FileDescriptor.open(directoryPath, O_RDONLY | O_DIRECTORY)
        } catch {
            throw .opening(path, error: error.code)
        }
        defer { try? directory.close() }
        do throws(Errno) {
            fd = try directory.open(named: name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        } catch {
            throw error.code == ELOOP ? .replacedByLink : .opening(path, error: error.code)
        }
        do throws(PluginLoadFailure) {
            let directoryInfo: stat, info: stat
            do throws(Errno) {
                (directoryInfo, info) = (try directory.status(), try fd.status())
            } catch {
                throw .file(.unreadable(errnoText(error.code)))
            }
            try ELFPrecheck.checkType(info)
            guard info.st_size <= largestFile else { throw .tooLarge(size: Int64(info.st_size)) }
            do throws(PluginPolicy.Violation) {
                try policy.check(file: info, path: path, directory: directoryInfo, directoryPath: directoryPath)
            } catch {
                throw .file(.insecure(error))
            }
            let headers = try ELFPrecheck.check(fd, info: info)
            try SwiftToolchain.check(fd, info: info)
            let description = try PluginDescription.read(fd, headers: headers, path: path)
            return PluginFile(descriptor: fd, info: info, path: path, description: description)
        } catch {
            try? fd.close()
            throw error
        }
    }

    /// What the file at `path` holds as far as reading it tells, under
    /// `policy`, without running any of its code: its description, nil
    /// when it has none; throws why it cannot be a plugin.
    package static func describe(_ path: String, policy: PluginPolicy) throws(PluginLoadFailure) -> PluginDescription? {
        let file = try open(path, policy: policy)
        try? file.descriptor.close()
        return file.description
    }

    /// A sealed copy of this checked file (``FileDescriptor/sealedCopy(size:)``):
    /// what the host passes a presenter process, whose sandbox lets it
    /// read no plugin folder (SECURITY.md). Closes this file.
    package func image() throws(PluginLoadFailure) -> FileDescriptor {
        defer { try? descriptor.close() }
        do throws(Errno) {
            return try descriptor.sealedCopy(size: Int(info.st_size))
        } catch {
            throw .file(.unreadable(errnoText(error.code)))
        }
    }

    /// A plugin file the host opened and checked, received as a sealed copy
    /// (``image()``) to load at `path`'s name.
    /// Its description is read again from the copy: the file it was made
    /// from was checked.
    package init(image: FileDescriptor, path: String) throws(PluginLoadFailure) {
        do throws(Errno) {
            info = try image.status()
        } catch {
            throw .file(.unreadable(errnoText(error.code)))
        }
        descriptor = image
        self.path = path
        description = try PluginDescription.read(
            image, headers: ELFPrecheck.check(image, info: info), path: path)
    }

    private init(descriptor: FileDescriptor, info: stat, path: String, description: PluginDescription?) {
        self.descriptor = descriptor
        self.info = info
        self.path = path
        self.description = description
    }

    /// This process's folder in /proc, as the path that loads a descriptor
    /// names it (``ProcessSelf/procFolder``: not /proc/`getpid()` in a PID
    /// namespace of its own). Read once, before a sandbox could hide it.
    private static let procFolder = ProcessSelf.procFolder

    /// Loads the checked file (`RTLD_NOW | RTLD_LOCAL`, running its
    /// constructors). On success the descriptor stays open for ever, as
    /// the library stays loaded: ld.so knows the library by the name
    /// `/proc/PID/fd/N` and would hand it out again for that name, so the
    /// number must never come to mean another file. On failure it is closed.
    func load() throws(PluginLoadFailure) -> DynamicLibrary {
        do throws(DynamicLibrary.OpenFailure) {
            return try DynamicLibrary.open("\(Self.procFolder)/fd/\(descriptor.rawValue)")
        } catch {
            try? descriptor.close()
            throw .dlopen(error.message)
        }
    }
}
