import Foundation
import Testing

/// `presenter-host run` in a real terminal emulator: the built binary runs in
/// a pseudo-terminal of 80 × 24 and its output goes through pyte (a VT100 /
/// xterm emulator in Python, driven by Fixtures/term/pty_screen.py); the
/// tests read the screen back.
@Suite("run end to end: in a terminal", .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct EndToEndRunTerminalTests {
    private let rows = 24, cols = 80
    private let spinnerFrames = Set("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    @Test func successShowsACentredBoxThenACheckMarkThenLeavesNothing() throws {
        // 30 lines of earlier output fill the screen: the region goes below them.
        let run = try TerminalDriver.run(
            ["run", "--working", "Sleeping...", "--success", "Done!", "--", "sleep", "1.5"], printFirst: 30,
            steps: [.waitText("Sleeping..."), .sleep(0.3), .snapshot("working"), .waitText("Done!"),
                    .snapshot("success"), .waitExit(20)])
        #expect(run.errors == [])
        let working = try #require(run.snapshots["working"])
        let row = try #require(working.row(containing: "Sleeping..."))
        // The region is at the bottom of the terminal, below the earlier output.
        #expect(row >= rows - 6)
        let lastOutput = try #require(working.lines.lastIndex(of: "30"))
        #expect(lastOutput < row - 1)
        // A bordered box around the message, centred.
        let line = working.lines[row]
        #expect(line.contains("│") || line.contains("|"))
        let text = line.trimmingCharacters(in: .whitespaces)
        let left = line.prefix { $0 == " " }.count
        let right = cols - left - text.count
        #expect(abs(left - right) <= 2, "box not centred: \(left) columns left, \(right) right in \(line)")
        #expect(row > 0 && working.lines[row - 1].contains { "╭┌+─-".contains($0) })
        #expect(line.contains { spinnerFrames.contains($0) }, "no spinner in \(line)")
        #expect(working.cursor.hidden)

        let success = try #require(run.snapshots["success"])
        let successLine = try #require(success.row(containing: "Done!").map { success.lines[$0] })
        #expect(successLine.contains("✔"))
        #expect(!successLine.contains { spinnerFrames.contains($0) })

        #expect(run.exit.code == 0)
        // Only the earlier output is left; the cursor is back, just below it.
        #expect(run.final.nonEmptyLines.last == "30")
        #expect(run.final.nonEmptyLines.allSatisfy { Int($0) != nil }, "left behind: \(run.final.lines)")
        #expect(!run.final.cursor.hidden)
        #expect(run.final.cursor.y == (run.final.lines.lastIndex(of: "30") ?? -1) + 1)
    }

    @Test func failureShowsTheCrossThenTheCommandsOutput() throws {
        let run = try TerminalDriver.run(
            ["run", "--working", "Working", "--failure", "It broke", "--",
             "sh", "-c", "echo some output; echo more >&2; sleep 0.8; exit 3"],
            steps: [.waitText("It broke"), .snapshot("failure"), .waitExit(20)])
        #expect(run.errors == [])
        let failure = try #require(run.snapshots["failure"])
        let line = try #require(failure.row(containing: "It broke").map { failure.lines[$0] })
        #expect(line.contains("✖"))
        // Kept back while the presenter was on screen...
        #expect(failure.row(containing: "some output") == nil)
        // ...and shown after it, with nothing else left.
        #expect(run.exit.code == 3)
        #expect(run.final.nonEmptyLines == ["some output", "more"])
        #expect(!run.final.cursor.hidden)
    }

    @Test func outputOfASuccessfulCommandIsDropped() throws {
        let run = try TerminalDriver.run(["run", "--working", "W", "--", "sh", "-c", "echo hidden; sleep 0.5"],
                                         steps: [.waitText("W"), .waitExit(20)])
        #expect(run.exit.code == 0)
        #expect(run.final.isBlank, "left behind: \(run.final.lines)")
    }

    @Test func showOutputPrintsLinesAboveTheRegion() throws {
        let run = try TerminalDriver.run(
            ["run", "--show-output", "--working", "Counting", "--", "sh", "-c",
             "for i in 1 2 3; do echo line$i; sleep 0.3; done; printf partial; sleep 0.5"],
            steps: [.waitText("line3"), .snapshot("output"), .waitExit(20)])
        #expect(run.errors == [])
        let output = try #require(run.snapshots["output"])
        let line1 = try #require(output.row(containing: "line1"))
        let line3 = try #require(output.row(containing: "line3"))
        let box = try #require(output.row(containing: "Counting"))
        #expect(line1 < line3 && line3 < box)
        #expect(output.lines[line1] == "line1")
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["line1", "line2", "line3", "partial"])
        #expect(!run.final.cursor.hidden)
    }

    @Test func ctrlCAtTheTerminalExits130AndRestoresTheScreen() throws {
        let run = try TerminalDriver.run(["run", "--working", "Waiting", "--", "sleep", "30"],
                                         steps: [.waitText("Waiting"), .keys("\u{03}"), .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.code == 130)
        #expect(!run.final.cursor.hidden)
        #expect(run.final.row(containing: "Waiting") == nil, "left behind: \(run.final.lines)")
    }

    @Test(arguments: [("INT", 130), ("TERM", 143), ("HUP", 129)])
    func signalToTheHostExitsWithItsStatusAndRestoresTheScreen(signal: String, status: Int) throws {
        let run = try TerminalDriver.run(["run", "--working", "Waiting", "--", "sleep", "30"],
                                         steps: [.waitText("Waiting"), .signal(signal), .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.code == status)
        #expect(!run.final.cursor.hidden)
        #expect(run.final.row(containing: "Waiting") == nil, "left behind: \(run.final.lines)")
    }

    @Test func noColorDropsColourButKeepsTheAnimation() throws {
        let run = try TerminalDriver.run(
            ["run", "--working", "Spinning", "--failure", "Failed", "--", "sh", "-c", "sleep 1; exit 1"],
            environment: ["NO_COLOR": "1"],
            steps: [.waitText("Spinning"), .snapshot("a"), .sleep(0.25), .snapshot("b"), .waitExit(20)])
        #expect(run.errors == [])
        #expect(!run.sgrColor, "colour codes with NO_COLOR: \(run.sgr)")
        let a = try #require(run.snapshots["a"]), b = try #require(run.snapshots["b"])
        #expect(a.lines != b.lines, "the spinner did not move")
    }

    @Test func colorAlwaysWinsOverNoColor() throws {
        let run = try TerminalDriver.run(
            ["run", "--color", "always", "--working", "W", "--failure", "Failed", "--", "sh", "-c", "sleep 0.6; exit 1"],
            environment: ["NO_COLOR": "1"], steps: [.waitText("Failed"), .waitExit(20)])
        #expect(run.sgrColor, "no colour codes with --color always: \(run.sgr)")
    }

    @Test func dumbTerminalGetsPlainLines() throws {
        let run = try TerminalDriver.run(
            ["run", "--working", "Sleeping...", "--success", "Done!", "--", "sleep", "0.3"],
            environment: ["TERM": "dumb"], steps: [.waitExit(20)])
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["Sleeping...", "✔ Done!"])
        #expect(run.sgr.isEmpty)
        #expect(run.bytes == "Sleeping...\r\n✔ Done!\r\n".utf8.count)
    }
}

/// Runs Fixtures/term/pty_screen.py and decodes what it saw.
enum TerminalDriver {
    /// One step of the driver's script.
    enum Step {
        case waitText(String, timeout: Double = 10)
        case sleep(Double)
        case snapshot(String)
        case signal(String)
        case keys(String)
        case waitExit(Double)

        var json: [String: Any] {
            switch self {
            case .waitText(let text, let timeout): return ["wait_text": text, "timeout": timeout]
            case .sleep(let seconds): return ["sleep": seconds]
            case .snapshot(let name): return ["snapshot": name]
            case .signal(let name): return ["signal": name]
            case .keys(let keys): return ["keys": keys]
            case .waitExit(let seconds): return ["wait_exit": seconds]
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

        enum CodingKeys: String, CodingKey {
            case snapshots, final, exit, errors, bytes, sgr
            case sgrColor = "sgr_color"
        }
    }

    static let script = TestPaths.packageRoot.appendingPathComponent("Tests/PresenterHostTests/Fixtures/term/pty_screen.py")

    static let python: URL? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// python3 with pyte. Missing is only allowed outside CI (scripts/test installs both).
    static let isAvailable: Bool = {
        guard let python, let result = try? ProcessRunner.run(python, ["-c", "import pyte"]) else { return false }
        return result.status == 0
    }()

    static let missingNote: Comment =
        "SKIPPED: the terminal tests need python3 with pyte; run scripts/test (it installs them) or pip install pyte"

    /// Runs the built binary with `arguments` in a fresh 80 × 24 terminal.
    /// `printFirst` lines (1, 2, ...) are printed before the binary starts.
    static func run(_ arguments: [String], environment: [String: String] = [:], printFirst: Int = 0,
                    steps: [Step]) throws -> Result {
        let stepsJSON = String(decoding: try JSONSerialization.data(withJSONObject: steps.map(\.json)), as: UTF8.self)
        var driverArguments = [script.path, "--cols", "80", "--rows", "24", "--steps", stepsJSON]
        for (key, value) in environment { driverArguments += ["--env", "\(key)=\(value)"] }
        driverArguments.append("--")
        if printFirst > 0 { driverArguments += ["sh", "-c", "seq 1 \(printFirst); exec \"$0\" \"$@\""] }
        driverArguments += [TestPaths.binary.path] + arguments
        let result = try ProcessRunner.run(try #require(python), driverArguments,
                                           environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        guard result.status == 0 else {
            Issue.record("pty_screen.py failed (\(result.status)): \(result.stderr)")
            throw CocoaError(.executableLoad)
        }
        return try JSONDecoder().decode(Result.self, from: Data(result.stdout.utf8))
    }
}

/// Fails in CI when the terminal tests cannot run, and says so loudly elsewhere.
@Suite("run end to end: terminal driver")
struct TerminalDriverAvailabilityTests {
    @Test func driverIsAvailable() {
        guard !TerminalDriver.isAvailable else { return }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record("python3 with pyte is missing in CI: the terminal tests did not run; scripts/test installs pyte")
        } else {
            FileHandle.standardError.write(Data("""

                ************************************************************************
                WARNING: python3 with pyte is missing: the terminal end-to-end tests
                were SKIPPED. Run scripts/test (it installs pyte) or pip install pyte.
                ************************************************************************

                """.utf8))
        }
    }
}
