import Glibc

/// What tells one version of a file from another without reading it: its
/// device, inode, size, and modification and status-change times in
/// nanoseconds. Any write, rename over it, chmod or chown changes one of
/// them; the registry cache keys each plugin file on it.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64
    let changed: Int64

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device; self.inode = inode; self.size = size; self.modified = modified; self.changed = changed
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }

    /// The five numbers, space-separated (the cache's text form).
    var text: String { "\(device) \(inode) \(size) \(modified) \(changed)" }
}
