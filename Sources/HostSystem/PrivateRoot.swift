import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// A root of this process's own, holding only some paths of the host's
/// (`ph_enter_own_root`, as bubblewrap and Chrome's Linux sandbox do it): a
/// mount namespace of its own, a tmpfs with read-only bind mounts of those
/// folders and files, `pivot_root` into it and the old root dropped. Any
/// other path then does not exist for the process: not only unreadable, as
/// Landlock leaves it, but not even `stat`-able. Which paths is
/// ``PluginConfinement``'s.
package enum PrivateRoot {
    /// What the root holds: the folders and files bound, each at its real
    /// path (no symbolic link on the way), and the symbolic links made so
    /// that each path asked for reaches them as it does outside (merged
    /// /usr's `/lib` → `usr/lib`, `/etc/localtime` → its zone file).
    package struct Plan: Equatable {
        package var bound: [String] = []
        package var links: [Link] = []
    }

    /// A symbolic link made in the root: at `path`, with the text `target`.
    package struct Link: Equatable {
        package let path: String
        package let target: String

        package init(path: String, target: String) {
            (self.path, self.target) = (path, target)
        }
    }

    /// The most links followed in resolving one path, as the kernel's
    /// `ELOOP` (40): a path of more is left out.
    static let maxLinks = 40

    /// The plan of a root in which each of `paths` (absolute) resolves to
    /// what it names here, with the links of `links` besides. A path that
    /// resolves to `/` or through a loop is left out; one beneath another
    /// bound folder is reached through that folder's mount; a link beneath
    /// a bound folder is there already.
    package static func plan(holding paths: [String], links extra: [Link] = []) -> Plan {
        var bound: [String] = []
        var links: [Link] = []
        for path in paths {
            guard let real = resolve(path, links: &links), real != "/", !bound.contains(real) else { continue }
            bound.append(real)
        }
        links += extra
        let folders = bound
        func isBeneathAnother(_ path: String) -> Bool {
            folders.contains { $0 != path && path.hasPrefix($0 + "/") }
        }
        var plan = Plan()
        plan.bound = bound.filter { !isBeneathAnother($0) }
        for link in links where !isBeneathAnother(link.path) && !plan.links.contains(where: { $0.path == link.path }) {
            plan.links.append(link)
        }
        return plan
    }

    /// The real path `path` names, component by component (`readlink` on
    /// each), each link met on the way added to `links` at its own real
    /// place; nil past ``maxLinks``.
    static func resolve(_ path: String, links: inout [Link]) -> String? {
        var resolved = ""
        var pending = Array(path.split(separator: "/").reversed())
        var followed = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                // The root is "" here, so one in the root goes back to "".
                let location = PathName(resolved)
                resolved = location.hasParentBelowRoot ? location.parent : ""
                continue
            }
            let candidate = resolved + "/" + name
            guard let target = PathName.linkTarget(of: candidate) else {
                resolved = candidate
                continue
            }
            followed += 1
            guard followed <= maxLinks else { return nil }
            if !links.contains(where: { $0.path == candidate }) { links.append(Link(path: candidate, target: target)) }
            if target.hasPrefix("/") { resolved = "" }
            pending += target.split(separator: "/").reversed()
        }
        return resolved.isEmpty ? "/" : resolved
    }

    /// Puts this process, for ever, in a root that holds what `plan` says,
    /// the tmpfs built on `scratch` (an existing folder, hidden from then
    /// on). Call it on the process's only thread, with the right to make a
    /// mount namespace (CAP_SYS_ADMIN in its own user namespace).
    /// - Throws: the step that failed (`unshare`, `mount`, `pivot_root`...)
    ///   and its errno; the process is then in its old root, with perhaps
    ///   a tmpfs on `scratch` in a mount namespace of its own.
    package static func enter(_ plan: Plan, buildingIn scratch: String = "/tmp") throws(Errno) {
        var texts: [UnsafeMutablePointer<CChar>?] = []
        defer { texts.forEach { free($0) } }
        var entries: [ph_root_entry] = []
        for path in plan.bound {
            let copy = strdup(path)
            texts.append(copy)
            entries.append(ph_root_entry(path: copy, link: nil))
        }
        for link in plan.links {
            let (path, target) = (strdup(link.path), strdup(link.target))
            texts += [path, target]
            entries.append(ph_root_entry(path: path, link: target))
        }
        var step: Int32 = 0
        let code = entries.withUnsafeBufferPointer {
            ph_enter_own_root($0.baseAddress, Int32($0.count), scratch, &step)
        }
        guard code != 0 else { return }
        throw Errno(call: stepName(step), code: code)
    }

    private static func stepName(_ step: Int32) -> StaticString {
        switch step {
        case PH_ROOT_UNSHARE: "unshare(CLONE_NEWNS)"
        case PH_ROOT_PRIVATE: "mount(MS_PRIVATE)"
        case PH_ROOT_OPEN: "open"
        case PH_ROOT_TMPFS: "mount(tmpfs)"
        case PH_ROOT_MAKE: "mkdirat"
        case PH_ROOT_LINK: "symlinkat"
        case PH_ROOT_BIND: "mount(MS_BIND)"
        case PH_ROOT_READ_ONLY: "mount_setattr(MOUNT_ATTR_RDONLY)"
        case PH_ROOT_PIVOT: "pivot_root"
        case PH_ROOT_DETACH: "umount2(MNT_DETACH)"
        default: "mount(MS_RDONLY)"
        }
    }
}
