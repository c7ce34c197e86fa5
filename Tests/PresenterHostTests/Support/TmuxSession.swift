import Foundation
import Glibc
@testable import HostSystem
import Testing

/// A tmux server of its own (a unique socket, no configuration file) with
/// one session, "main"; ``kill()`` ends the server and everything in it.
///
/// tmux is started with ``Spawn``, not `Process`: the server outlives the
/// command that starts it and would keep a pipe on its output open (so the
/// output goes to a file), and the test runner's threads block every signal,
/// a mask the server, its shell and the binary under test would inherit (so
/// the mask is emptied and handlers reset).
final class TmuxSession {
    static let executable: URL? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("tmux")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    static var isAvailable: Bool { executable != nil }

    static let missingNote: Comment =
        "SKIPPED: the terminal region tests need tmux; install it (apt-get install tmux)"

    /// bash with a prompt of `$ `, job control and no history file.
    static let interactiveShell = "HISTFILE= PS1='$ ' exec bash --norc --noprofile -i"

    /// `text` in single quotes for sh.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    private let socket = "ph-region-\(UUID().uuidString.prefix(8))"

    /// Starts the server and a detached session of `cols` × `rows` running
    /// `command` (with sh), in a UTF-8 locale and without `CI`.
    init(command: String, cols: Int = 80, rows: Int = 24) throws {
        let result = run(["new-session", "-d", "-s", "main", "-x", String(cols), "-y", String(rows), command])
        guard result.status == 0 else {
            Issue.record("tmux new-session failed (\(result.status)): \(result.output)")
            throw CocoaError(.executableLoad)
        }
    }

    /// Runs a tmux command on this server; its status and output (stdout and stderr).
    @discardableResult
    func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString)")
            .path
        defer { unlink(outputPath) }
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { return (-1, "cannot create \(outputPath)") }
        var options = Spawn.Options()
        // Other tests' pipes must not live on in the server.
        let file = FileDescriptor(rawValue: output)
        options.descriptors = [
            .standardInput: .null(O_RDONLY), .standardOutput: .descriptor(file), .standardError: .descriptor(file),
        ]
        options.closeOthers = true
        var environment = ProcessInfo.processInfo.environment
        for key in ["CI", "NO_COLOR", "TMUX", "PRESENTER_PLUGIN_PATH"] { environment[key] = nil }
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment["TERM"] = "xterm-256color"
        // The user's default presenter and settings file are not the tests'.
        environment["PRESENTER_HOST_PRESENTER"] = nil
        environment["XDG_CONFIG_HOME"] = "/nonexistent/presenter-host-tests"
        options.environment = environment.map { "\($0.key)=\($0.value)" }
        let path = Self.executable!.path
        let spawned = Spawn.start(path, [path, "-L", socket, "-f", "/dev/null", "-u"] + arguments, options)
        close(output)
        guard case .success(let pid) = spawned else { return (-1, "cannot start tmux") }
        var status: Int32 = 0
        _ = try? retryingOnInterrupt("waitpid") { waitpid(pid, &status, 0) }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (ChildProcess.Termination(waitStatus: status).shellStatus, text)
    }

    /// Types `text` and Enter.
    func type(_ text: String) {
        send(text)
        keys("Enter")
    }

    /// Types `text` as it is (no Enter; `--` so that a text starting with
    /// '-' is not read as an option of tmux's).
    func send(_ text: String) { run(["send-keys", "-t", "main", "-l", "--", text]) }

    /// Pastes `text` as a terminal pastes: bracketed when the program asked
    /// for it (mode 2004), as one write.
    func paste(_ text: String) {
        run(["set-buffer", "-b", "test", text])
        run(["paste-buffer", "-p", "-d", "-b", "test", "-t", "main"])
    }

    /// Resizes the window and waits (10 s at most) until the program's
    /// terminal has the new size: tmux may put off telling the terminal of
    /// a resize that follows another closely, and a test must not act on a
    /// screen the program has not been told about. False when it never came.
    func resize(cols: Int, rows: Int) -> Bool {
        run(["resize-window", "-t", "main", "-x", String(cols), "-y", String(rows)])
        let tty = run(["display", "-p", "-t", "main", "#{pane_tty}"]).output.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let deadline = Date().addingTimeInterval(TestTime.scaled(10))
        repeat {
            let fd = open(tty, O_RDONLY | O_NOCTTY | O_CLOEXEC)
            var size = winsize()
            let got = fd >= 0 && ioctl(fd, UInt(TIOCGWINSZ), &size) == 0
            if fd >= 0 { close(fd) }
            if got && Int(size.ws_col) == cols && Int(size.ws_row) == rows { return true }
            usleep(20_000)
        } while Date() < deadline
        Issue.record("the terminal never got \(cols)×\(rows)")
        return false
    }

    /// The process id of the pane's command (its shell).
    var panePid: pid_t {
        pid_t(
            run(["display", "-p", "-t", "main", "#{pane_pid}"]).output.trimmingCharacters(in: .whitespacesAndNewlines))
            ?? -1
    }

    /// Sends tmux key names (`C-z`, `Enter`).
    func keys(_ names: String...) { run(["send-keys", "-t", "main"] + names) }

    /// The screen (or, with `history`, the history and the screen) as lines:
    /// wrapped lines joined, trailing blanks and the empty rows at the bottom
    /// removed.
    func capture(history: Bool = false) -> [String] {
        let result = run(["capture-pane", "-p", "-J", "-t", "main"] + (history ? ["-S", "-"] : []))
        var lines = result.output.components(separatedBy: "\n")
            .map { $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Where the cursor is and whether it is shown.
    func cursor() -> (x: Int, y: Int, visible: Bool) {
        let fields = run(["display-message", "-p", "-t", "main", "#{cursor_x} #{cursor_y} #{cursor_flag}"])
            .output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 3 else { return (-1, -1, false) }
        return (fields[0], fields[1], fields[2] == 1)
    }

    /// Polls the screen (``capture(history:)``) every 50 ms until `done`
    /// holds for it, and returns it; `nil` (and an issue) after `timeout`
    /// seconds (``TestTime/scaled(_:)``).
    func waitFor(timeout: Double = 10, _ done: ([String]) -> Bool) -> [String]? {
        let timeout = TestTime.scaled(timeout)
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            let lines = capture()
            if done(lines) { return lines }
            usleep(50_000)
        } while Date() < deadline
        Issue.record("timed out after \(timeout) s; the screen: \(capture())")
        return nil
    }

    /// Ends the server (and every process in it).
    func kill() { run(["kill-server"]) }
}
