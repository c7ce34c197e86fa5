import Foundation
@testable import HostSystem

/// What a failed test says about the processes under `root` (a tmux pane's
/// shell, say): each one's pid and command line, and for each of its threads
/// the state and the kernel function it waits in (/proc wchan); so a job
/// that never stopped shows where it was.
func processTreeReport(root: pid_t) -> String {
    let all = ProcessStat.all()
    var lines: [String] = []
    func visit(_ pid: pid_t, depth: Int) {
        let command = ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "")
            .replacingOccurrences(of: "\0", with: " ").prefix(100)
        let tasks = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).sorted()
        let threads = tasks.map { task in
            let wchan = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "?"
            let state = pid_t(task).flatMap(ProcessStat.read).map { String(UnicodeScalar($0.state)) } ?? "?"
            return "\(task) \(state) \(wchan)"
        }
        lines.append(String(repeating: "  ", count: depth) + "\(pid) \(command) [\(threads.joined(separator: ", "))]")
        for (child, stat) in all where stat.parent == pid { visit(child, depth: depth + 1) }
    }
    visit(root, depth: 0)
    return lines.joined(separator: "\n")
}
