import Foundation
@testable import HostSystem

/// Whether `pid` ended (gone, or a zombie no one reaps) within 10 s.
func waitUntilEnded(_ pid: pid_t) -> Bool {
    waitUntil(timeout: 10) { ProcessStat.read(pid).map(\.isDead) ?? true }
}

/// Whether `pid` was reaped (no /proc entry, not even a zombie) within 10 s.
func waitUntilGone(_ pid: pid_t) -> Bool {
    waitUntil(timeout: 10) { ProcessStat.read(pid) == nil }
}

/// The pid in the file at `path`, once it holds one (10 s at most).
func waitForPid(in path: String) throws -> pid_t {
    var pid: pid_t?
    let written = waitUntil(timeout: 10) {
        pid = (try? String(contentsOfFile: path, encoding: .utf8))
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return pid != nil
    }
    guard written, let pid else { throw CocoaError(.fileReadNoSuchFile) }
    return pid
}

/// Whether one of `pid`'s threads is in a `write` to `fd` (Linux's
/// /proc/PID/task/TID/syscall: the call's number, then its arguments): a
/// writer stuck on a full pipe.
func isBlockedWriting(_ pid: pid_t, to fd: Int32) -> Bool {
    #if arch(arm64)
        let write = 64  // (Glibc's Swift module has no SYS_write)
    #else
        let write = 1
    #endif
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.contains { task in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/syscall", encoding: .utf8)) ?? ""
        return text.hasPrefix("\(write) 0x\(String(fd, radix: 16)) ")
    }
}

/// The pids written one a line to `path`, once there are `count` of them (10 s at most).
func waitForLines(_ path: String, count: Int) throws -> [pid_t] {
    var pids: [pid_t] = []
    let written = waitUntil(timeout: 10) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        pids = text.split(separator: "\n").compactMap { pid_t($0) }
        return pids.count >= count
    }
    guard written else { throw CocoaError(.fileReadNoSuchFile) }
    return pids
}
