import Foundation
import Glibc
@testable import HostSystem

extension ProcessRunner {
    /// Runs the built `presenter-host` with `arguments`, as
    /// ``host(_:environment:stdout:)`` does, but with its stderr on a
    /// terminal (``runInTerminal(_:_:environment:cols:)``): where a
    /// presenter runs. Off a terminal the host prints its plain lines
    /// itself and runs no presenter, so a test of what a presenter does,
    /// or of what is done to it, runs its command here.
    static func hostInTerminal(
        _ arguments: [String], environment: [String: String] = [:], cols: Int = 200
    ) throws -> ProcessResult {
        try runInTerminal(TestPaths.binary, arguments, environment: environment, cols: cols)
    }

    /// Runs `executable` as ``run(_:_:environment:stdin:stdout:currentDirectory:)``
    /// does (stdin empty, stdout a pipe), but with its stderr on a terminal
    /// of `cols` × 24 (`TERM=xterm-256color`; not the controlling one, so
    /// the program is in its foreground). `stderr` is every byte the
    /// terminal got, escape codes and all, as they were written (the
    /// terminal makes no `\r\n` of a `\n`), read until no process holds it.
    static func runInTerminal(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], cols: Int = 200
    ) throws -> ProcessResult {
        let terminal = try PseudoTerminal(cols: cols, rows: 24)
        var settings = termios()
        guard tcgetattr(terminal.follower, &settings) == 0 else { throw PseudoTerminal.Unavailable() }
        settings.c_oflag &= ~tcflag_t(OPOST)
        guard tcsetattr(terminal.follower, TCSANOW, &settings) == 0 else { throw PseudoTerminal.Unavailable() }
        let process = try TestProcess(
            executable, arguments, environment: ["TERM": "xterm-256color"].merging(environment) { $1 },
            stderr: .descriptor(terminal.follower))
        // The program and what it started hold the terminal now: it reads
        // to its end once they are all gone.
        terminal.closeFollower()
        let screen = TerminalReader(terminal.leader)
        let (out, _) = process.communicate(input: [])
        let status = process.wait()
        return ProcessResult(
            status: status, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: screen.finish(), as: UTF8.self), termination: process.termination ?? .exited(-1))
    }
}

/// Reads a terminal's leader on a thread of its own (a terminal that is
/// not read stops its writer), until no process has its follower open.
private final class TerminalReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Safe: written by the reading thread only, read after `done`.
    private var bytes: [UInt8] = []

    init(_ leader: Int32) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(leader, &buffer, buffer.count)
                if count > 0 {
                    bytes += buffer[..<count]
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break  // EIO: the last follower is closed, and all it wrote was read
                }
            }
            done.signal()
        }
    }

    /// Everything the terminal got, once no one holds it.
    func finish() -> [UInt8] {
        done.wait()
        return bytes
    }
}
