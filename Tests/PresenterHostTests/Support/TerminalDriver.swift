import Foundation
import Testing

/// Runs Fixtures/term/pty_screen.py and decodes what it saw.
enum TerminalDriver {
    /// One step of the driver's script.
    enum Step {
        case waitText(String, timeout: Double = 10)
        case waitGone(String, timeout: Double = 10)
        /// Until the screen differs from the snapshot of that name.
        case waitChanged(String, timeout: Double = 10)
        /// Until the program is stopped (state T in /proc), then reads what it wrote before.
        case waitStopped(timeout: Double = 10)
        /// Records the screen (with everything written so far).
        case snapshot(String)
        case signal(String)
        /// To the program's process group, as a shell's `kill -TSTP %1` or `fg` does.
        case signalGroup(String)
        /// Records the context switches of the program's threads in a
        /// window of `seconds` (a measurement, not a wait).
        case switchesOver(String, seconds: Double)
        /// The same for the program's presenter process.
        case presenterSwitchesOver(String, seconds: Double)
        case keys(String)
        /// Stops reading until a thread of the program is blocked writing to
        /// the terminal (the terminal fell behind: what it wrote stays unread).
        case waitWriting(timeout: Double = 10)
        /// Creates this file (a ``GoFile``).
        case touch(String)
        case waitExit(Double)

        var json: [String: Any] {
            switch self {
            // Deadlines are scaled (TestTime); the measurement window is not.
            case .waitText(let text, let timeout): return ["wait_text": text, "timeout": TestTime.scaled(timeout)]
            case .waitGone(let text, let timeout): return ["wait_gone": text, "timeout": TestTime.scaled(timeout)]
            case .waitChanged(let name, let timeout):
                return ["wait_changed": name, "timeout": TestTime.scaled(timeout)]
            case .waitStopped(let timeout): return ["wait_stopped": TestTime.scaled(timeout)]
            case .snapshot(let name): return ["snapshot": name]
            case .signal(let name): return ["signal": name]
            case .signalGroup(let name): return ["signal_group": name]
            case .switchesOver(let name, let seconds): return ["switches_over": name, "seconds": seconds]
            case .presenterSwitchesOver(let name, let seconds):
                return ["switches_over": name, "seconds": seconds, "of": "presenter-process"]
            case .keys(let keys): return ["keys": keys]
            case .waitWriting(let timeout): return ["wait_writing": TestTime.scaled(timeout)]
            case .touch(let path): return ["touch": path]
            case .waitExit(let seconds): return ["wait_exit": TestTime.scaled(seconds)]
            }
        }
    }

    struct Screen: Decodable {
        struct Cursor: Decodable { var x: Int; var y: Int; var hidden: Bool }
        var lines: [String]
        var cursor: Cursor
        func row(containing text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
        var nonEmptyLines: [String] { lines.filter { !$0.isEmpty } }
        var isBlank: Bool { nonEmptyLines.isEmpty }
    }

    struct Exit: Decodable { var code: Int?; var signal: Int? }

    struct Result: Decodable {
        var snapshots: [String: Screen]
        var final: Screen
        var exit: Exit
        var errors: [String]
        var bytes: Int
        var sgr: [String]
        var sgrColor: Bool
        /// For each `watch` text: whether it was ever on the screen.
        var watched: [String: Bool]
        /// For each `.switchesOver` step: the program's context switches in its window.
        var switches: [String: Int]
        /// Whether the terminal echoes typed characters after the program exited.
        var echo: Bool?

        enum CodingKeys: String, CodingKey {
            case snapshots, final, exit, errors, bytes, sgr, watched, switches, echo
            case sgrColor = "sgr_color"
        }
    }

    static let script = TestPaths.packageRoot.appendingPathComponent(
        "Tests/PresenterHostTests/Fixtures/term/pty_screen.py")

    static let python: URL? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// python3 with pyte (scripts/test installs both); when missing,
    /// `TerminalDriverAvailabilityTests` fails, locally and in CI alike.
    static let isAvailable: Bool = {
        guard let python, let result = try? ProcessRunner.run(python, ["-c", "import pyte"]) else { return false }
        return result.status == 0
    }()

    static let missingNote: Comment =
        "SKIPPED: the terminal tests need python3 with pyte; run scripts/test (it installs them) or pip install pyte"

    /// Runs the built binary with `arguments` in a fresh terminal of
    /// `cols` × `rows` (80 × 24).
    /// - Parameters:
    ///   - printFirst: lines (1, 2, ...) printed before the binary starts.
    ///   - stderrTo: a file the binary's stderr is redirected to (`2>file`).
    ///   - stdoutTo: a file the binary's stdout is redirected to (`>file`).
    ///   - jobControl: run it as a shell runs a job (its own foreground
    ///     process group under a waiting parent), for Ctrl-Z.
    ///   - watch: texts to report whether they were ever on the screen.
    ///   - rawFile: where to save every byte the terminal received.
    ///   - fastPlain: see `--fast-plain` in pty_screen.py (megabytes of output).
    ///   - shell: a `sh -c` command line to run instead, with the binary's
    ///     path in `$0` (`arguments` are ignored): `sh feed.sh | "$0" drive`.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], printFirst: Int = 0,
        cols: Int = 80, rows: Int = 24, stderrTo: String? = nil, stdoutTo: String? = nil,
        jobControl: Bool = false,
        watch: [String] = [], rawFile: String? = nil, fastPlain: Bool = false,
        shell: String? = nil, steps: [Step]
    ) throws -> Result {
        let stepsJSON = String(decoding: try JSONSerialization.data(withJSONObject: steps.map(\.json)), as: UTF8.self)
        var driverArguments = [script.path, "--cols", String(cols), "--rows", String(rows), "--steps", stepsJSON]
        for (key, value) in environment { driverArguments += ["--env", "\(key)=\(value)"] }
        for text in watch { driverArguments += ["--watch", text] }
        if let rawFile { driverArguments += ["--raw", rawFile] }
        if jobControl { driverArguments.append("--job-control") }
        if fastPlain { driverArguments.append("--fast-plain") }
        driverArguments.append("--")
        if printFirst > 0 || stderrTo != nil || stdoutTo != nil {
            let first = printFirst > 0 ? "seq 1 \(printFirst); " : ""
            let redirect = (stderrTo.map { " 2>'\($0)'" } ?? "") + (stdoutTo.map { " >'\($0)'" } ?? "")
            driverArguments += ["sh", "-c", first + "exec \"$0\" \"$@\"" + redirect]
        }
        if let shell {
            driverArguments += ["sh", "-c", shell, TestPaths.binary.path]
        } else {
            driverArguments += [TestPaths.binary.path] + arguments
        }
        let result = try ProcessRunner.run(
            try #require(python), driverArguments,
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        guard result.status == 0 else {
            Issue.record("pty_screen.py failed (\(result.status)): \(result.stderr)")
            throw CocoaError(.executableLoad)
        }
        return try JSONDecoder().decode(Result.self, from: Data(result.stdout.utf8))
    }
}
