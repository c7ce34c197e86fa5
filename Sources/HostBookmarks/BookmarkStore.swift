import HostSystem
#if canImport(Glibc)
    import Glibc
#endif

/// The bookmarks the Add Bookmark screen saves: a JSON file (format in
/// docs/BOOKMARKS.md) that is safe to share between processes.
///
/// - A save is atomic and durable: a crash or SIGKILL at any instant leaves
///   the old file or the new one, and a save that returned survives one.
/// - Concurrent savers (threads or processes) take turns under an advisory
///   lock held across read-modify-write, so none loses another's bookmark.
/// - A store that cannot be read or parsed is reported with its path and is
///   never written over; a saved file keeps its permissions.
/// - Reading takes no lock: every save replaces the file in one rename, so
///   a reader sees a whole old file or a whole new one.
package struct BookmarkStore: Sendable {
    /// The environment variable naming the store when `--store` does not.
    package static let environmentVariable = "PRESENTER_BOOKMARKS"

    /// The store's path: `store` (from `--store FILE`) when given, else
    /// `$PRESENTER_BOOKMARKS` when set and not empty, else
    /// `$XDG_DATA_HOME/presenter-host/bookmarks.json`, where an unset, empty
    /// or relative `XDG_DATA_HOME` means `~/.local/share` (`$HOME` when
    /// absolute, else the home directory in the user database: the same
    /// home as the plugin folder's, ``XDGDirectories/home(_:)``).
    package static func path(store: String?, environment: [String: String]) -> String {
        if let store, !store.isEmpty { return store }
        if let value = environment[environmentVariable], !value.isEmpty { return value }
        // No home at all (no HOME, none in the user database): the root's.
        let dataHome = XDGDirectories.dataHome(environment) ?? "/.local/share"
        return dataHome + "/presenter-host/bookmarks.json"
    }

    /// The store file's path, as given.
    package let path: String

    /// The store at `path` (nothing is read or created yet).
    package init(path: String) {
        self.path = path
    }

    /// The saved bookmarks, oldest first; `[]` when there is no store file
    /// yet. Throws when the file cannot be read or is not a bookmark store
    /// (naming the path and the place in the file that is wrong).
    package func load() throws(BookmarkStoreError) -> [Bookmark] {
        try document().entries.map(\.bookmark)
    }

    /// The whole document (with each bookmark's date), for the listing.
    package func document() throws(BookmarkStoreError) -> BookmarkDocument {
        guard let contents = try BookmarkStoreFile.read(path) else { return BookmarkDocument() }
        return try BookmarkDocument.parse(contents.bytes, path: path)
    }

    /// The largest store read, in bytes (16 MiB: some 80,000 bookmarks).
    /// A larger file is refused before it is read: a 261 MB store took 13
    /// to 20 s and 1.9 GB to list or save, with the lock held throughout.
    package static let maximumSize = 16 << 20

    /// Saves `bookmark`: adds it, or gives the bookmark with the same URL its
    /// title. Returns true when it was new. Creates the store (and its
    /// folder, 0700) when missing. Throws, changing nothing, when the store
    /// cannot be read, is not a bookmark store, or cannot be written, or
    /// when `interruption` is interrupted first (which also ends the wait
    /// for another save's lock); once it returns, the bookmark is on disk.
    @discardableResult
    package func add(
        _ bookmark: Bookmark, interruption: BookmarkSaveInterruption? = nil
    ) throws(BookmarkStoreError) -> Bool {
        let target = try BookmarkStoreFile.target(of: path)
        try BookmarkStoreFile.checkIsFileName(target)
        try BookmarkStoreFile.makeDirectories(PathName(target).parent)
        let lock = try BookmarkStoreFile.lock(target, interruption: interruption)
        defer { try? lock.close() }
        BookmarkStoreFile.removeStaleTemporaries(of: target)
        let old = try BookmarkStoreFile.read(target)
        var document =
            try old.map { contents throws(BookmarkStoreError) in
                try BookmarkDocument.parse(contents.bytes, path: target)
            } ?? BookmarkDocument()
        let result = document.add(bookmark, added: BookmarkDocument.timestamp())
        if result.changed {
            try BookmarkStoreFile.replace(target, with: document.encoded(), keeping: old, interruption: interruption)
        }
        return result.isNew
    }
}
