/// Why the bookmark store could not be read or changed: one line naming the
/// store's path, what is wrong and what to do. A store that cannot be read
/// or parsed is never written over.
package struct BookmarkStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, for mapping to an exit status.
    package enum Kind: Equatable, Sendable {
        /// The store (or its folder) exists but cannot be read.
        case unreadable
        /// The store is not a bookmark store this version can read (bad JSON,
        /// wrong shape, a newer format version, not valid UTF-8).
        case corrupt
        /// The new store could not be written (folder, lock, temporary
        /// file, rename); the old store is unchanged.
        case unwritable
        /// A signal interrupted the save before it committed
        /// (``BookmarkSaveInterruption``); the store is unchanged.
        case interrupted
    }

    /// What went wrong.
    package let kind: Kind
    /// The line shown to the user.
    package let reason: String

    /// An error of `kind` with the one-line `reason`.
    package init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }
}
