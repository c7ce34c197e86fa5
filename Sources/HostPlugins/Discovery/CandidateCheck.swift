import Glibc
import HostSystem
import HostText

/// The checks every candidate file passes before anything else is done with
/// it (looking it up in the registry cache, scanning, loading), each with
/// its own refusal:
///
/// 1. a symbolic link is resolved, and refused when its real file is
///    outside the link's plugin directory (a link within it is followed);
/// 2. a file already reached by another name (`lib64 -> lib`, a directory
///    twice on the path) counts once: the caller (`DiscoveredFile.all`)
///    dedupes on the real path;
/// 3. the real file and its directory pass the owner and mode checks
///    (`PluginPolicy`).
///
/// These read only file status (one `fstatat` per file in its opened
/// directory, one `fstat` per directory), never file contents: they run on
/// every start, warm or cold. `PluginFile` repeats 3 on the descriptor it
/// loads through.
final class CandidateCheck {
    let policy: PluginPolicy
    /// The real path of each directory seen, its status and an open descriptor.
    private var directories: [String: (real: String, info: stat, descriptor: FileDescriptor)?] = [:]

    init(policy: PluginPolicy) {
        self.policy = policy
    }

    deinit {
        for case let (_, _, descriptor)? in directories.values { try? descriptor.close() }
    }

    /// Checks `candidate`, found in the search path directory `entry`.
    func check(_ candidate: PluginDirectory.Candidate, in entry: SearchPathEntry) -> DiscoveredFile {
        let path = candidate.path
        func refused(_ problem: DiscoveryFailure) -> DiscoveredFile {
            DiscoveredFile(path: path, bundled: entry.origin == .bundled, checked: .failure(problem))
        }
        if let problem = candidate.problem { return refused(problem) }
        guard let (real, directoryInfo, descriptor) = resolve(entry.path) else { return refused(.missing) }
        let name =
            path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[path.utf8.index(after: $0)...]) } ?? path
        var info: stat
        do throws(Errno) {
            // In the opened directory: one name to look up, not the whole path.
            info = try descriptor.status(ofLink: name)
        } catch {
            return refused(DiscoveryFailure(reaching: path, error: error.code))
        }
        // The path as found when its directory is its real one (the common
        // case): the same text, without building it again for every file.
        // Compared as bytes: `==` on strings equates canonically equivalent
        // spellings (é composed or not), which name different directories.
        var file = real.utf8.elementsEqual(entry.path.utf8) ? path : (real == "/" ? "" : real) + "/" + name
        var fileDirectoryInfo = directoryInfo, fileDirectory = real
        if (info.st_mode & S_IFMT) == S_IFLNK {
            let resolved: String
            do throws(Errno) {
                resolved = try PathName.realPath(path)
            } catch {
                return refused(DiscoveryFailure(reaching: path, error: error.code))
            }
            guard resolved.hasPrefix(real == "/" ? "/" : real + "/") else {
                return refused(.linkOutsideDirectory(target: PrintableText.escaping(resolved)))
            }
            file = resolved
            fileDirectory = PathName(resolved).parent
            do throws(Errno) {
                info = try FileStatus.of(file)
            } catch {
                return refused(DiscoveryFailure(reaching: path, error: error.code))
            }
            if fileDirectory != real {
                guard let (_, subdirectoryInfo, _) = resolve(fileDirectory) else { return refused(.missing) }
                fileDirectoryInfo = subdirectoryInfo
            }
        }
        do throws(PluginPolicy.Violation) {
            try policy.check(file: info, path: file, directory: fileDirectoryInfo, directoryPath: fileDirectory)
        } catch {
            return refused(.insecure(error))
        }
        return DiscoveredFile(
            path: path, bundled: entry.origin == .bundled,
            checked: .success(.init(path: file, identity: FileIdentity(info))))
    }

    /// The real path, status and a descriptor of `directory`, looked up once.
    private func resolve(_ directory: String) -> (real: String, info: stat, descriptor: FileDescriptor)? {
        if let known = directories[directory] { return known }
        var result: (real: String, info: stat, descriptor: FileDescriptor)?
        if let real = try? PathName.realPath(directory),
            let descriptor = try? FileDescriptor.open(real, O_RDONLY | O_DIRECTORY)
        {
            if let info = try? descriptor.status() {
                result = (real, info, descriptor)
            } else {
                try? descriptor.close()
            }
        }
        directories[directory] = result
        return result
    }
}
