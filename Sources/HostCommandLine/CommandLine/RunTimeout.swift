import Dispatch
import Glibc
import HostSystem

/// `run --timeout`: SIGTERM to the command's tree, SIGKILL after the grace
/// time, and what outlived the command after it.
extension RunSession {
    /// After `seconds`: SIGTERM to the command's tree, then SIGKILL
    /// `killGrace` later; on `control`, the signals' queue, so that it
    /// never comes between a signal's steps.
    func startTimer(seconds: Double, child: ChildProcess, on control: DispatchQueue) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: control)
        // A dispatch timer's deadline is libdispatch's uptime (CLOCK_MONOTONIC
        // on Linux): it does not move with the wall clock either.
        timer.schedule(deadline: .now() + seconds, repeating: Self.killGrace)
        var fired = false
        timer.setEventHandler { [self] in
            if !fired {
                fired = true
                state.withLock { state in
                    guard !state.ended else { return }
                    state.timedOut = true
                    state.terminatedAt = MonotonicTime.seconds()
                    state.terminated = child.sendToTree(SIGTERM, freeze: true)
                }
            } else {
                child.sendToTree(SIGKILL, freeze: true)
                Self.killAll(state.withLock { $0.terminated.survivors })
            }
        }
        timer.resume()
        return timer
    }

    /// After a timeout, once the command has ended: what it started and
    /// that outlived it (a process that ignores SIGTERM, whose parent then
    /// died) gets the rest of the grace time, then SIGKILL. Usually nothing
    /// is left and this returns at once.
    func endSurvivors() {
        let (tree, since) = state.withLock { ($0.terminated, $0.terminatedAt) }
        let deadline = since + Self.killGrace
        var survivors = tree.survivors
        while !survivors.isEmpty && MonotonicTime.seconds() < deadline {
            MonotonicTime.sleep(microseconds: 20_000)
            survivors = tree.survivors
        }
        Self.killAll(survivors)
    }

    static func killAll(_ members: [ProcessTree.Member]) {
        ProcessTree.send(SIGKILL, to: members)
    }
}
