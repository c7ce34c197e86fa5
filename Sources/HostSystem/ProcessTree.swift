#if canImport(Glibc)
    import Glibc
#endif

/// A process and everything it started, read from /proc, so that a timeout
/// or a forwarded signal reaches the command's whole tree as a terminal's
/// Ctrl-C reaches the whole foreground group, and not the command alone
/// (`sh -c 'sleep 7; echo x'` would otherwise leave `sleep` running).
///
/// The tree is built from the parent pid of every process (field 4 of
/// `/proc/PID/stat`; `/proc/PID/task/TID/children` needs a kernel option
/// that is not always set). Each member is named by its pid and its start
/// time (field 22), so a pid reused by an unrelated process is never
/// signalled. A process whose parent already ended (an orphan, adopted by
/// init) is no longer in the tree and is out of reach.
///
/// A process can fork while the tree is read. ``collect(root:freeze:)``
/// with `freeze` closes that race: it stops each level with SIGSTOP and
/// waits until it is stopped before it lists the level's children, so no
/// member can fork or reap unseen; ``thaw()`` continues them (the signal
/// that ends them is already pending by then).
package struct ProcessTree: Sendable {
    /// One process of the tree.
    package struct Member: Hashable, Sendable {
        /// Its process id.
        package let pid: pid_t
        /// Its start time in clock ticks since boot (`/proc/PID/stat` field 22).
        package let startTime: UInt64
        /// 0 for the root, 1 for its children, and so on.
        package let depth: Int
    }

    /// The members, the root first, by depth.
    package private(set) var members: [Member]

    /// No process at all.
    package static let empty = ProcessTree(members: [])

    /// The longest wait for one level of the tree to stop, in microseconds.
    static let stopWait: UInt32 = 100_000

    /// Reads the tree under `root`; empty when `root` is gone. With
    /// `freeze`, every member is left stopped (SIGSTOP) until ``thaw()``.
    package static func collect(root: pid_t, freeze: Bool) -> ProcessTree {
        guard let rootStat = ProcessStat.read(root), !rootStat.isDead else { return ProcessTree(members: []) }
        var members = [Member(pid: root, startTime: rootStat.startTime, depth: 0)]
        var known: Set<pid_t> = [root]
        var level = [root]
        var depth = 0
        if freeze { stop(level) }
        while !level.isEmpty {
            depth += 1
            let parents = Set(level)
            var next: [pid_t] = []
            for (pid, stat) in ProcessStat.all() where parents.contains(stat.parent) && !known.contains(pid) {
                known.insert(pid)
                next.append(pid)
                members.append(Member(pid: pid, startTime: stat.startTime, depth: depth))
            }
            if freeze { stop(next) }
            level = next
        }
        return ProcessTree(members: members)
    }

    /// Sends `signal` to every member still alive, the deepest first, so a
    /// shell does not react to its child's death before it got the signal.
    package func send(_ signal: Int32) {
        Self.send(signal, to: members.sorted(by: { $0.depth > $1.depth }))
    }

    /// Sends `signal` to each of `members` still alive, in their order (a
    /// member whose number now belongs to another process is skipped).
    package static func send(_ signal: Int32, to members: [Member]) {
        for member in members where member.isSameProcess { _ = kill(member.pid, signal) }
    }

    /// Continues every member (after a freeze; a stopped process acts on
    /// SIGTERM only once continued).
    package func thaw() {
        send(SIGCONT)
    }

    /// The members other than the root that still run (a zombie counts as ended).
    package var survivors: [Member] {
        members.filter { $0.depth > 0 && $0.isSameProcess && ProcessStat.read($0.pid)?.isDead == false }
    }

    /// Sends SIGSTOP to `pids` and waits (briefly) until each has stopped,
    /// so that none can still fork or reap a child.
    private static func stop(_ pids: [pid_t]) {
        for pid in pids { _ = kill(pid, SIGSTOP) }
        var waited: UInt32 = 0
        var pending = pids
        while !pending.isEmpty && waited < stopWait {
            pending.removeAll { pid in
                guard let stat = ProcessStat.read(pid) else { return true }
                return stat.isStopped || stat.isDead
            }
            if !pending.isEmpty {
                usleep(200)
                waited += 200
            }
        }
    }
}

extension ProcessTree.Member {
    /// True while the pid still names the process that was collected.
    var isSameProcess: Bool {
        ProcessStat.read(pid)?.startTime == startTime
    }
}
