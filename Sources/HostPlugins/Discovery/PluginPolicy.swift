import Glibc
import HostSystem
import HostText

/// The plugin security policy: no file that anyone but root and this user
/// could have written is loaded, as sudo checks its plugins.
///
/// A plugin file, and the directory it is in, must be owned by root or by
/// the user running the host, and must not be writable by group or others:
/// otherwise another account could put its code into every presenter-host
/// the user runs. `--allow-insecure-plugins` relaxes these two checks (for
/// development only); the rules on links (`PluginDirectory`) and loading
/// through the checked descriptor (`PluginFile`) always hold.
///
/// The bundled presenters, in the executable's own directory, are exempt
/// from the owner and mode checks: whoever can replace them can replace
/// presenter-host itself, and a `swift build` under a umask of 002 (a
/// group-writable `.build`) must still find them.
public struct PluginPolicy: Sendable, Equatable {
    /// Whether the owner and mode checks are skipped (`--allow-insecure-plugins`).
    public var allowInsecure: Bool

    /// The command-line flag that relaxes the owner and mode checks; the
    /// scan helper and the presenter process get it too.
    public static let allowInsecureFlag = "--allow-insecure-plugins"

    /// The strict policy, the default.
    public static let strict = PluginPolicy(allowInsecure: false)

    /// A policy that, with `allowInsecure`, loads files the owner and mode
    /// rules would refuse (`--allow-insecure-plugins`).
    public init(allowInsecure: Bool) {
        self.allowInsecure = allowInsecure
    }

    /// Why a file or directory fails the owner and mode checks.
    public enum Violation: Error, Sendable, Hashable, Codable, CustomStringConvertible {
        /// Writable by group, others or both (`who` is "group", "others" or
        /// "group and others"; `mode` the chmod argument that fixes it).
        case writable(path: String, isDirectory: Bool, who: String, mode: String)
        /// Owned by neither root nor the user running the host.
        case foreignOwner(path: String, isDirectory: Bool, owner: String)

        public var description: String {
            switch self {
            case let .writable(path, isDirectory, who, mode):
                return "\(isDirectory ? "its directory is " : "")writable by \(who): chmod \(mode) \(path)"
            case let .foreignOwner(path, isDirectory, owner):
                return
                    "\(isDirectory ? "its directory is " : "")owned by \(owner), not by root or you: chown root \(path) (as root), or remove it"
            }
        }
    }

    /// Throws when `file` (the status of the file at `path`) or `directory`
    /// (that of the directory holding it, at `directoryPath`) may have been
    /// written by another account. The directory is checked first: when it
    /// is open to others, fixing the file alone fixes nothing.
    func check(file: stat, path: String, directory: stat, directoryPath: String) throws(Violation) {
        guard !allowInsecure, !Self.isBundled(path, in: directoryPath) else { return }
        if let violation = Self.violation(directory, path: directoryPath, isDirectory: true)
            ?? Self.violation(file, path: path, isDirectory: false)
        {
            throw violation
        }
    }

    private static func violation(_ info: stat, path: String, isDirectory: Bool) -> Violation? {
        // The path is escaped only for a message: every file of every start passes here.
        var shown: String { PrintableText.escaping(path) }
        if info.st_uid != 0 && info.st_uid != UserAccount.effectiveUserID {
            return .foreignOwner(path: shown, isDirectory: isDirectory, owner: userName(info.st_uid))
        }
        switch (info.st_mode & S_IWGRP != 0, info.st_mode & S_IWOTH != 0) {
        case (true, true):
            return .writable(path: shown, isDirectory: isDirectory, who: "group and others", mode: "go-w")
        case (true, false): return .writable(path: shown, isDirectory: isDirectory, who: "group", mode: "g-w")
        case (false, true): return .writable(path: shown, isDirectory: isDirectory, who: "others", mode: "o-w")
        case (false, false): return nil
        }
    }

    /// `nobody (uid 65534)`, or `uid 1234` for an id with no name.
    private static func userName(_ uid: uid_t) -> String {
        guard let name = UserAccount.name(of: uid) else { return "uid \(uid)" }
        return "\(name) (uid \(uid))"
    }

    /// True for a bundled library name in the executable's own (real) directory.
    private static func isBundled(_ path: String, in directoryPath: String) -> Bool {
        guard let executableDirectory, directoryPath == executableDirectory else { return false }
        return SearchPath.bundledLibraryNames.contains { path == directoryPath + "/" + $0 }
    }

    /// The real directory of this process's executable.
    private static let executableDirectory: String? = {
        (try? PathName.realPath("/proc/self/exe")).map { PathName($0).parent }
    }()
}
