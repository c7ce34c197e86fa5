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
    /// of `cols` × 1,000 rows (`TERM=xterm-256color`; not the controlling
    /// one, so the program is in its foreground): rows enough that nothing
    /// scrolls off. `stderr` is every byte the terminal got, escape codes
    /// and all, as they were written (the terminal makes no `\r\n` of a
    /// `\n`), read until no process holds it; `screen`, what it shows at
    /// the end (``VirtualTerminal``).
    static func runInTerminal(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], cols: Int = 200
    ) throws -> ProcessResult {
        let terminal = try PseudoTerminal.writtenAsIs(cols: cols, rows: Self.terminalRows)
        let process = try TestProcess(
            executable, arguments, environment: ["TERM": "xterm-256color"].merging(environment) { $1 },
            stderr: .descriptor(terminal.follower))
        // The program and what it started hold the terminal now: it reads
        // to its end once they are all gone.
        terminal.closeFollower()
        let reader = try TerminalReader(terminal.leader)
        let (out, _) = process.communicate(input: [])
        let status = process.wait()
        let bytes = reader.finish()
        var screen = VirtualTerminal(cols: cols, rows: Self.terminalRows)
        screen.feed(bytes)
        return ProcessResult(
            status: status, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: bytes, as: UTF8.self), termination: process.termination ?? .exited(-1),
            screen: screen.lines.filter { !$0.isEmpty })
    }

    /// The rows of ``runInTerminal(_:_:environment:cols:)``'s terminal.
    static let terminalRows = 1000
}

extension ProcessResult {
    /// stderr's lines as written, escape sequences and carriage returns
    /// taken out: the lines a program printed on a terminal (a log line
    /// above a region, say), however long, whatever was drawn between them.
    var textLines: [String] {
        let text = stderr.replacingOccurrences(
            of: "\u{1B}(\\[[0-?]*[ -/]*[@-~]|\\][^\u{07}\u{1B}]*(\u{07}|\u{1B}\\\\)|[ -/]*[0-~])", with: "",
            options: .regularExpression)
        return text.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n")
    }
}

extension PseudoTerminal {
    /// A terminal of `cols` × `rows` that passes on what is written as it
    /// is (no `\r\n` made of a `\n`): its leader reads the program's bytes.
    static func writtenAsIs(cols: Int, rows: Int = 24) throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(cols: cols, rows: rows)
        var settings = termios()
        guard tcgetattr(terminal.follower, &settings) == 0 else { throw Unavailable() }
        settings.c_oflag &= ~tcflag_t(OPOST)
        guard tcsetattr(terminal.follower, TCSANOW, &settings) == 0 else { throw Unavailable() }
        return terminal
    }
}

/// Reads a terminal's leader on a thread of its own (a terminal that is
/// not read stops its writer): to its end, once no process has its
/// follower open (``finish()``), or, once the writer that matters has
/// ended, what it holds now (``stop()``: a process the test did not start
/// may hold the follower still).
final class TerminalReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    // Safe: written by the reading thread only, read after `done`.
    private var bytes: [UInt8] = []

    init(_ leader: Int32) throws {
        wake = try FileDescriptor.pipe()
        Thread.detachNewThread { [self] in
            read(leader)
            done.signal()
        }
    }

    deinit {
        try? wake.readEnd.close()
        try? wake.writeEnd.close()
    }

    private func read(_ leader: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var stopping = false
        while true {
            var fds = [
                pollfd(fd: leader, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopping ? -1 : wake.readEnd.rawValue, events: Int16(POLLIN), revents: 0),
            ]
            // Stopping: what is there now, without waiting for more.
            let ready = poll(&fds, 2, stopping ? 0 : -1)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return }
            if fds[1].revents != 0 {
                stopping = true
                continue
            }
            let count = Glibc.read(leader, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[..<count]
            } else if !(count < 0 && errno == EINTR) {
                return  // EIO: the last follower is closed, and all it wrote was read
            }
        }
    }

    /// Everything the terminal got, once no one holds it.
    func finish() -> [UInt8] {
        done.wait()
        return bytes
    }

    /// What the terminal got so far, read at once.
    func stop() -> [UInt8] {
        try? wake.writeEnd.writeAll([1])
        return finish()
    }
}
