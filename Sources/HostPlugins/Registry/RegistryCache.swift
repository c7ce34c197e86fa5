import Glibc
import HostSandbox
import HostSystem

/// The registry cache: what scanning each plugin file gave, remembered in
/// one file, `$XDG_CACHE_HOME/presenter-host/registry.cache` (default
/// `~/.cache/...`), so that a warm start runs no plugin code at all.
///
/// The file as a whole is keyed on the host's ABI version, the executable
/// that loads plugins (device, inode, size and modification time of
/// presenter-host-plugins, ``PluginExecutable``: the same file whether
/// presenter-host or presenter-host-plugins reads the cache, and the one
/// whose loader made the entries) and the search path; each plugin file in it on its `FileIdentity`. A file is
/// scanned again only when its identity changes, and a broken file stays
/// broken until it does. The cache only remembers what loading gave: every
/// start still runs discovery's checks (`CandidateCheck`), and whatever is
/// loaded is loaded through `PluginFile`, so the cache never leads the host
/// to a file that fails them.
///
/// A cache file that cannot be trusted or read (missing, empty, truncated,
/// corrupt, of another version or key, not a regular file, owned by another
/// user or writable by group or others) is ignored and rebuilt; one that
/// cannot be written (a read-only cache home) is just not written. An entry
/// whose records break the rules a scan helper's report is read by
/// (`RegistryCacheFormat.decode`) is dropped, its file scanned again and the
/// cache written anew: the file is the user's own, but what it shows and
/// completes must pass the same rules wherever it was read. A new
/// cache is written to a temporary file in the same directory and renamed
/// over the old one, so hosts starting at once never see half a file.
package struct RegistryCache {
    /// What a command does with the cache.
    package enum Mode: Sendable, Equatable {
        /// Read it, and write it when something changed (the default).
        case use
        /// Do not read it; write it anew (`--rescan`).
        case rescan
        /// Neither read nor write it (`--no-cache`).
        case off
    }

    /// The largest cache file read: far more than 10,000 plugins need.
    static let maxSize = 64 << 20

    /// The cache file.
    package let path: String
    /// The whole-file key.
    let key: String
    /// The entries read, by real path (empty when none could be used).
    private(set) var entries: [String: RegistryCacheFormat.Entry] = [:]
    /// Why the file on disk was not used, when it exists and was not.
    package private(set) var ignored: String?

    /// The cache for `searchPath` under `mode`, read unless `mode` is
    /// `.rescan`; nil for `.off` or when there is no cache home.
    package init?(mode: Mode, searchPath: [SearchPathEntry], environment: [String: String]) {
        guard mode != .off, let home = XDGDirectories.cacheHome(environment) else { return nil }
        path = home + "/presenter-host/registry.cache"
        key = Self.key(searchPath)
        if mode == .use { read() }
    }

    /// Writes `entries` (by real path) as the new cache, unless they are
    /// what was read. Failures are silent: the cache is only an optimisation.
    func store(_ newEntries: [String: RegistryCacheFormat.Entry]) {
        guard
            ignored != nil || newEntries.count != entries.count
                || newEntries.contains(where: { entries[$0.key]?.identity != $0.value.identity })
        else { return }
        let bytes = RegistryCacheFormat.encode(key: key, entries: newEntries)
        let directory = PathName(path).parent
        makeDirectory(directory)
        // A name of this process's own: hosts starting at once each write their own file.
        let temporary = path + ".\(ProcessSelf.id).\(UInt32.random(in: 0...UInt32.max))"
        guard let fd = try? FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: 0o600)
        else { return }
        let written = (try? fd.writeAll(bytes)) != nil
        if (try? fd.close()) == nil || !written || (try? FileSystem.rename(temporary, to: path)) == nil {
            try? FileSystem.remove(temporary)
        }
    }

    // MARK: - Reading

    private mutating func read() {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        } catch {
            if error.code != ENOENT { ignored = "cannot be opened (\(errnoText(error.code)))" }
            return
        }
        defer { try? fd.close() }
        guard let info = try? fd.status(), (info.st_mode & S_IFMT) == S_IFREG else {
            ignored = "not a regular file"
            return
        }
        guard info.st_uid == UserAccount.effectiveUserID else { ignored = "owned by another user"; return }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else { ignored = "writable by group or others"; return }
        guard info.st_size <= Self.maxSize else { ignored = "too large"; return }
        // What can be read of it: a failure reads as a truncated file.
        let bytes = (try? fd.read(count: Int(info.st_size), at: 0)) ?? []
        do throws(RegistryCacheFormat.Unreadable) {
            entries = try RegistryCacheFormat.decode(bytes, key: key)
        } catch {
            ignored = error.reason
        }
    }

    // MARK: - Location and key

    /// The ABI version, the plugin executable's identity and the search path.
    private static func key(_ searchPath: [SearchPathEntry]) -> String {
        let binary =
            (try? FileStatus.of(PluginExecutable.path)).map {
                "\($0.st_dev) \($0.st_ino) \($0.st_size) \(FileIdentity($0).modified)"
            } ?? "unknown"
        return (["abi \(ABIVersion.host)", "binary \(binary)"] + searchPath.map { "\($0.origin.rawValue) \($0.path)" })
            .joined(separator: "|")
    }

    /// Creates `directory` and its parent (the cache home) when missing, for
    /// this user only; a failure shows when the file cannot be written.
    private func makeDirectory(_ directory: String) {
        let location = PathName(directory)
        if location.hasParentBelowRoot { try? FileSystem.makeDirectory(location.parent, permissions: 0o700) }
        try? FileSystem.makeDirectory(directory, permissions: 0o700)
    }
}
