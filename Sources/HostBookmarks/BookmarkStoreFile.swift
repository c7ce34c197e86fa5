import Glibc
import HostSystem

/// The system calls behind the bookmark store's promises: a save is atomic
/// and durable (a new file beside the old one, written, synced, renamed over
/// it, the folder synced), writers take turns (an advisory lock), and the
/// file keeps its permissions. Every descriptor is close-on-exec from its
/// creation, as everywhere in the host (HostSystem's FileDescriptor.swift).
enum BookmarkStoreFile {
    /// A store file as read: its bytes and what a replacement must keep.
    struct Contents {
        var bytes: [UInt8]
        /// Permission bits (`st_mode & 07777`).
        var mode: mode_t
        var owner: uid_t
        var group: gid_t
    }

    /// The file at `path`, or `nil` when there is none (nor a folder for it).
    /// Opened without waiting (a FIFO put at the store's path would hold
    /// `open` until a writer came, and with it the lock of every save), then
    /// checked to be a regular file of at most ``BookmarkStore/maximumSize``
    /// bytes before a byte is read.
    static func read(_ path: String) throws(BookmarkStoreError) -> Contents? {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        } catch {
            if error.code == ENOENT { return nil }
            throw unreadable(path, error.code)
        }
        defer { try? fd.close() }
        let info: stat
        var bytes: [UInt8] = []
        do throws(Errno) {
            info = try fd.status()
        } catch {
            throw unreadable(path, error.code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw BookmarkStoreError(
                .unreadable,
                "\(path): the bookmark store is not a regular file; give a file's path to --store or PRESENTER_BOOKMARKS"
            )
        }
        guard info.st_size <= BookmarkStore.maximumSize else { throw tooLarge(path, size: Int(info.st_size)) }
        // Bounded however the file changed since fstat (a store is only
        // ever replaced by a rename, but someone may append to it).
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count: Int
            do throws(Errno) {
                count = try fd.read(into: &buffer)
            } catch {
                throw unreadable(path, error.code)
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[..<count])
            if bytes.count > BookmarkStore.maximumSize { throw tooLarge(path, size: bytes.count) }
        }
        return Contents(bytes: bytes, mode: info.st_mode & 0o7777, owner: info.st_uid, group: info.st_gid)
    }

    private static func tooLarge(_ path: String, size: Int) -> BookmarkStoreError {
        BookmarkStoreError(
            .corrupt,
            "\(path): the bookmark store is \(size) bytes, over the \(BookmarkStore.maximumSize) bytes (16 MiB) a store may have; it was not read: move it aside or give another store with --store"
        )
    }

    /// Refuses a store path that ends in a slash (`PRESENTER_BOOKMARKS=dir/`)
    /// before anything is created for it: its lock would be a stray
    /// `dir/.lock`. (A folder named without one is refused by ``read(_:)``.)
    static func checkIsFileName(_ path: String) throws(BookmarkStoreError) {
        guard path.hasSuffix("/") else { return }
        throw BookmarkStoreError(
            .unreadable,
            "\(path): the bookmark store is not a regular file; give a file's path to --store or PRESENTER_BOOKMARKS"
        )
    }

    private static func unreadable(_ path: String, _ code: Int32) -> BookmarkStoreError {
        BookmarkStoreError(
            .unreadable,
            "\(path): cannot read the bookmark store: \(errnoText(code)); check the file's and its folders' permissions"
        )
    }

    /// The file a save must replace: `path`, or what it links to when it is
    /// a symbolic link (renaming over the link would turn it into a file).
    static func target(of path: String) throws(BookmarkStoreError) -> String {
        guard FileStatus.isSymbolicLink(path) else { return path }
        do throws(Errno) {
            return try PathName.realPath(path)
        } catch {
            throw BookmarkStoreError(
                .unwritable,
                "\(path): the bookmark store is a symbolic link that cannot be followed: \(errnoText(error.code)); fix the link or give the file itself"
            )
        }
    }

    /// Creates `directory` and any missing parents, private to the user
    /// (0700, as the XDG base directory specification asks).
    static func makeDirectories(_ directory: String) throws(BookmarkStoreError) {
        if (try? FileStatus.of(directory)) != nil { return }
        let parentDirectory = PathName(directory).parent
        if parentDirectory != directory { try makeDirectories(parentDirectory) }
        do throws(Errno) {
            try FileSystem.makeDirectory(directory, permissions: 0o700)
        } catch {
            // EEXIST: another save made it meanwhile, as good.
            guard error.code == EEXIST else {
                throw BookmarkStoreError(
                    .unwritable,
                    "\(directory): cannot create the bookmark store's folder: \(errnoText(error.code)); create it or choose another store with --store"
                )
            }
        }
    }

    /// Waits for and takes the exclusive lock of the store at `path`: `flock`
    /// on `path.lock`, a file that is never replaced (the store itself is, by
    /// each rename, so a lock on it would guard an inode no longer in use).
    /// Returns the descriptor; closing it releases the lock, as does the
    /// end of the process however it ends.
    ///
    /// The lock file is opened in the store's opened folder, not following a
    /// link (`O_NOFOLLOW`), without waiting (a FIFO), and refused unless it
    /// is a regular file: whoever can write the folder could otherwise make
    /// the saver create a file wherever a link points (as root,
    /// `/etc/nologin`). The wait for another save's lock ends when
    /// `interruption` is interrupted.
    static func lock(
        _ path: String, interruption: BookmarkSaveInterruption?
    ) throws(BookmarkStoreError) -> FileDescriptor {
        let lockPath = path + ".lock"
        func failure(_ what: String) -> BookmarkStoreError {
            BookmarkStoreError(.unwritable, "\(lockPath): \(what); the store was not changed")
        }
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(PathName(path).parent, O_RDONLY | O_DIRECTORY).closeAfter {
                folder throws(Errno) in
                try folder.open(
                    named: PathName(path).lastComponent + ".lock",
                    O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, permissions: 0o666)
            }
        } catch {
            let reason =
                error.code == ELOOP
                ? "the bookmark store's lock file is a symbolic link, which is not followed; remove it"
                : "cannot open the bookmark store's lock file: \(errnoText(error.code)); check that the folder is writable"
            throw failure(reason)
        }
        guard let info = try? fd.status(), info.st_mode & S_IFMT == S_IFREG else {
            try? fd.close()
            throw failure("the bookmark store's lock file is not a regular file; remove it")
        }
        guard let interruption else {
            do throws(Errno) {
                try fd.lockExclusively()
            } catch {
                try? fd.close()
                throw failure("cannot lock the bookmark store: \(errnoText(error.code))")
            }
            return fd
        }
        return try LockWait.lock(fd, of: path, until: interruption) { failure($0) }
    }

    /// The prefix of the temporary files a save writes beside `path`.
    static func temporaryPrefix(of path: String) -> String {
        PathName(path).parent + "/." + PathName(path).lastComponent + ".tmp-"
    }

    /// Removes the temporary files of saves that were killed before their
    /// rename. Only while holding the lock: then no save is under way.
    static func removeStaleTemporaries(of path: String) {
        let prefix = temporaryPrefix(of: path)
        let directory = PathName(path).parent
        let namePrefix = String(prefix.dropFirst(directory.count + 1))
        guard let names = try? DirectoryEntries.names(in: directory) else { return }
        let prefixBytes = Array(namePrefix.utf8)
        // Ours are UTF-8 whole (the prefix and a random ASCII tail).
        for name in names where name.starts(with: prefixBytes) {
            try? FileSystem.remove(directory + "/" + String(decoding: name, as: UTF8.self))
        }
    }

    /// Replaces the file at `path` with `bytes`, atomically and durably: a
    /// crash at any instant leaves the old file or the new one, and once
    /// this returns the new one survives a crash. The new file gets the
    /// old one's permissions and, where allowed, its owner; a new store gets
    /// 0666 less the umask, as any new file.
    ///
    /// The rename happens only if `interruption` was not interrupted before
    /// it (and an interruption waits for a rename under way).
    static func replace(
        _ path: String, with bytes: [UInt8], keeping old: Contents?, interruption: BookmarkSaveInterruption? = nil
    ) throws(BookmarkStoreError) {
        let directory = PathName(path).parent
        func failure(_ code: Int32) -> BookmarkStoreError {
            BookmarkStoreError(
                .unwritable,
                "\(directory): cannot save the bookmark store: \(errnoText(code)); the store was not changed")
        }
        // Not mkostemp: its files are 0600, and a new store must get the
        // umask's permissions, which only the kernel's open applies.
        func create() throws(BookmarkStoreError) -> (FileDescriptor, String) {
            while true {
                let name = temporaryPrefix(of: path) + String(UInt32.random(in: 0...UInt32.max), radix: 16)
                do throws(Errno) {
                    return (try FileDescriptor.open(name, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o666), name)
                } catch  where error.code == EEXIST {
                    continue
                } catch {
                    throw failure(error.code)
                }
            }
        }
        let (fd, temporary) = try create()
        var open = true, written = false
        defer {
            if open { try? fd.close() }
            if !written { try? FileSystem.remove(temporary) }
        }
        do throws(Errno) {
            if let old {
                // Another user's store (written by root, say): keep its owner
                // when allowed; otherwise the file is ours, as any file we write.
                if old.owner != UserAccount.effectiveUserID || old.group != UserAccount.effectiveGroupID {
                    try? fd.setOwner(old.owner, group: old.group)
                }
                try fd.setPermissions(old.mode)
            }
            try fd.writeAll(bytes)
            try fd.sync()
            open = false
            try fd.close()
        } catch {
            throw failure(error.code)
        }
        func commit() throws(BookmarkStoreError) {
            do throws(Errno) {
                try FileSystem.rename(temporary, to: path)
            } catch {
                throw failure(error.code)
            }
            written = true
            do throws(Errno) {
                // The rename is only durable once the folder's entry is on disk.
                try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY).closeAfter { folder throws(Errno) in
                    try folder.sync()
                }
            } catch {
                throw BookmarkStoreError(
                    .unwritable,
                    "\(directory): the bookmark store was saved but its folder could not be synced to disk: \(errnoText(error.code)); a crash now could lose the change"
                )
            }
        }
        // Checked and renamed under the interruption's lock: once the signal
        // is handled, no save can commit any more.
        guard let interruption else { return try commit() }
        guard try interruption.unlessInterrupted(commit) else {
            throw BookmarkStoreError(.interrupted, "\(path): the save was interrupted; the store was not changed")
        }
    }
}

/// A wait for the store's lock that a signal ends: `flock` blocks on a
/// thread of its own while the saver waits on the interruption's condition
/// for the lock or the interruption, whichever comes first. A wait given up
/// leaves the thread to take the lock and let it go at once (closing the
/// descriptor), or to end with the process.
private enum LockWait {
    static func lock(
        _ fd: FileDescriptor, of path: String, until interruption: BookmarkSaveInterruption,
        failure: (String) -> BookmarkStoreError
    ) throws(BookmarkStoreError) -> FileDescriptor {
        let state = interruption.state
        let wait = state.withLock { state in
            state.lastLockWait += 1
            state.lockWaits[state.lastLockWait] = .waiting
            return state.lastLockWait
        }
        DetachedThread.start(name: "store lock") {
            var outcome: Errno?
            do throws(Errno) { try fd.lockExclusively() } catch { outcome = error }
            state.withLock { state in
                if case .abandoned? = state.lockWaits[wait] {
                    state.lockWaits[wait] = nil
                    try? fd.close()
                } else {
                    state.lockWaits[wait] = .ended(outcome)
                }
            }
            state.broadcast()
        }
        let outcome: Errno?? = state.withLock(
            waitingUntil: { state in
                if case .ended? = state.lockWaits[wait] { return true }
                return state.interrupted
            }
        ) { state, _ in
            guard case .ended(let error)? = state.lockWaits[wait] else {
                state.lockWaits[wait] = .abandoned
                return .none
            }
            state.lockWaits[wait] = nil
            return .some(error)
        }
        switch outcome {
        case .none:
            throw BookmarkStoreError(
                .interrupted,
                "\(path): the save was interrupted while it waited for another save; the store was not changed")
        case .some(.some(let error)):
            try? fd.close()
            throw failure("cannot lock the bookmark store: \(errnoText(error.code))")
        case .some(.none):
            return fd
        }
    }
}
