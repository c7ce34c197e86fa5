import Glibc
import HostSystem
import HostText

/// The directory walk: which files of a search path entry are candidate plugins.
///
/// In an ordinary entry every name ending in `.so` (and not starting with a
/// dot) is a candidate, whatever its type: a directory or a dangling link
/// named `x.so` is reported by the ELF pre-check rather than skipped, so a
/// user sees why it did not load. Versioned names (`libx.so.1`) are not
/// candidates: they are usually links to the same library as `libx.so`.
/// In the bundled entry only `SearchPath.bundledLibraryNames` are considered.
package enum PluginDirectory {
    /// One file to load, or one that is refused by its name alone.
    package struct Candidate: Equatable {
        /// The file's path. For a name that is not UTF-8, the bad bytes are
        /// shown as `\xNN`: such a path is for messages, not for opening.
        package let path: String
        /// Why the file cannot be loaded whatever it holds (`.nameNotUTF8`).
        let problem: DiscoveryFailure?
    }

    /// The candidate files of `entry`, sorted by name (bytewise) so the
    /// order, and thus which duplicate wins, is reproducible. A missing or
    /// unreadable directory has none.
    package static func candidates(in entry: SearchPathEntry) -> [Candidate] {
        let names: [[UInt8]]
        if entry.origin == .bundled {
            names = SearchPath.bundledLibraryNames.filter { exists(entry.path + "/" + $0) }.map { Array($0.utf8) }
        } else {
            let dot = UInt8(ascii: "."), suffix = Array(".so".utf8)
            // A missing or unreadable directory has none.
            names = ((try? DirectoryEntries.names(in: entry.path)) ?? []).filter {
                $0.first != dot && $0.count > suffix.count && $0.suffix(suffix.count).elementsEqual(suffix)
            }
        }
        let prefix = entry.path == "/" ? "/" : entry.path + "/"
        return names.sorted(by: precedes).map { name in
            if let valid = String(validating: name, as: UTF8.self) {
                return Candidate(path: prefix + valid, problem: nil)
            }
            return Candidate(path: prefix + PrintableText.escapingInvalidUTF8(name), problem: .nameNotUTF8)
        }
    }

    /// Bytewise order (`lexicographicallyPrecedes`, as strcmp orders), by
    /// memcmp: the generic comparison cost more than the rest of a warm
    /// start's discovery.
    private static func precedes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        left.withUnsafeBytes { left in
            right.withUnsafeBytes { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
    }

    /// True when something (even a dangling link) has this name.
    private static func exists(_ path: String) -> Bool {
        (try? FileStatus.ofLink(path)) != nil
    }
}
