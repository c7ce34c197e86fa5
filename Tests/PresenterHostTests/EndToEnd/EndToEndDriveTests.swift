import Foundation
import Glibc
import Testing
@testable import HostSystem

/// `presenter-host drive` through the real binary: JSON lines on stdin from
/// a pipe, from the shell and Python examples, and from socket clients.
@Suite("drive end to end: plain mode")
struct EndToEndDrivePlainTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
    private static let examples = TestPaths.packageRoot.appendingPathComponent("Examples/driver")

    private func drive(_ lines: [String], _ arguments: [String] = []) throws -> ProcessResult {
        try ProcessRunner.run(
            TestPaths.binary, ["drive"] + arguments, environment: utf8,
            stdin: lines.map { $0 + "\n" }.joined())
    }

    @Test func actionsStartProgressAndEndWithTheirOwnMessages() throws {
        let result = try drive([
            #"{"start": "a1", "action": "get-title", "working": "Getting the title...", "success": "Got it"}"#,
            #"{"start": "a2", "working": "Saving"}"#,
            #"{"progress": "a1", "fraction": 0.5, "message": "Reading the page"}"#,
            #"{"succeed": "a1"}"#,
            #"{"succeed": "a2", "message": "Saved"}"#,
        ])
        #expect(result.status == 0)
        #expect(result.stderr == "Getting the title...\nSaving\nReading the page\n✔ Got it\n✔ Saved\n")
        #expect(result.stdout == "")
    }

    @Test func aFailureMakesTheStatusOneAndShowsItsReason() throws {
        let result = try drive([
            #"{"start": "a", "working": "W"}"#,
            #"{"fail": "a", "message": "Could not get the title", "reason": "HTTP 404"}"#,
        ])
        #expect(result.status == 1)
        #expect(result.stderr == "W\n✖ Could not get the title: HTTP 404\n")
    }

    @Test func theEndOfStdinFailsWhatIsStillOpen() throws {
        let result = try drive([
            #"{"start": "a", "working": "W", "failure": "Gave up"}"#, #"{"progress": "a", "fraction": 0.2}"#,
        ])
        #expect(result.status == 1)
        #expect(result.stderr == "W\n✖ Gave up: the driver went away\n")
    }

    @Test func badLinesAreNamedByNumberAndSkipped() throws {
        let result = try drive([
            #"{"start": "a", "working": "W"}"#,
            "garbage",
            #"{"progress": "b", "fraction": 0.5}"#,
            #"{"progress": "a", "fraction": 1.5}"#,
            #"{"start": "a", "working": "again"}"#,
            #"{"succeed": "a", "colour": "red"}"#,
            #"{"start": "c", "succeed": "c"}"#,
            #"{"protocol": 2, "succeed": "a"}"#,
            "",
            #"{"protocol": 1, "succeed": "a"}"#,
        ])
        #expect(result.status == 0)
        #expect(
            result.stderr == """
                W
                Error: stdin:2: not a JSON object; send one JSON object a line, such as {"start": "a1", "working": "Working..."}; the line was skipped
                Error: stdin:3: no running action "b"; start it first with {"start": "b", ...}; the line was skipped
                Error: stdin:4: "fraction": 1.5 is not from 0 to 1; the line was skipped
                Error: stdin:5: action "a" is already running; give each running action its own id; the line was skipped
                Error: stdin:6: unknown member "colour" for "succeed" (expected "message"); the line was skipped
                Error: stdin:7: more than one verb ("start", "succeed"); send one per line; the line was skipped
                Error: stdin:8: "protocol" must be 1 (this presenter-host speaks version 1 of the protocol); the line was skipped

                """)
    }

    @Test func theMessagesFileGivesTheTableOfActionsThatNameNone() throws {
        let dir = TestPaths.temporaryDirectory("drivemessages")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("messages.json")
        try Data(#"{"save": {"working": "Saving...", "success": "Saved!"}, "default": {"working": "Working..."}}"#.utf8)
            .write(to: file)
        let result = try drive(
            [
                #"{"start": "1", "action": "save"}"#, #"{"start": "2", "action": "other"}"#,
                #"{"succeed": "1"}"#, #"{"succeed": "2"}"#,
            ], ["--messages", file.path])
        #expect(result.status == 0)
        #expect(result.stderr == "Saving...\nWorking...\n✔ Saved!\n")
    }

    @Test func theShellExampleDrivesIt() throws {
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "sh \"$0\" | \"$1\" drive", Self.examples.appendingPathComponent("two-actions.sh").path,
                try ExampleHost.make().path,
            ],
            environment: utf8)
        #expect(result.status == 0)
        #expect(result.stderr == "Fetching the index...\nBuilding...\n✔ Index fetched\n✔ Built\n")
    }

    @Test(.enabled(if: TerminalDriver.python != nil)) func thePythonExampleDrivesIt() throws {
        let result = try ProcessRunner.run(
            try #require(TerminalDriver.python),
            [Self.examples.appendingPathComponent("get-title.py").path, try ExampleHost.make().path],
            environment: utf8)
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                Getting the title...
                Reading part 1 of 4
                Reading part 2 of 4
                Reading part 3 of 4
                Reading part 4 of 4
                ✔ Title: Example Domain
                Getting another title...
                ✖ Could not get the title: HTTP 404

                """)
    }

    @Test(.enabled(if: Self.node != nil, "node is not installed: the Node example is not run"))
    func theNodeExampleDrivesIt() throws {
        let result = try ProcessRunner.run(
            try #require(Self.node),
            [Self.examples.appendingPathComponent("get-title.mjs").path, try ExampleHost.make().path],
            environment: utf8)
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Getting the title...\nReading part 1 of 4\n"))
        #expect(result.stderr.hasSuffix("✔ Title: Example Domain\n"))
    }

    static let node: URL? = ["/usr/bin/node", "/usr/local/bin/node"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    @Test func badOptionsAreUsageErrors() throws {
        let result = try ProcessRunner.host(["drive", "--bogus"])
        #expect(result.status == 64)
        #expect(
            result.stderr == """
                Error: Unknown option '--bogus'
                Usage: presenter-host drive [<options>] [--socket <path>]
                See 'presenter-host drive --help'.

                """)
        let unknown = try ProcessRunner.host(["drive", "--presenter", "nope"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: no presenter 'nope'"))
    }
}

/// `drive --socket`: several client processes at once.
@Suite("drive end to end: the socket")
struct EndToEndDriveSocketTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
    private static let clients = TestPaths.packageRoot.appendingPathComponent(
        "Tests/PresenterHostTests/Fixtures/driver/socket_clients.py")

    /// Waits until `path` exists, for at most `seconds`.
    private func waitForFile(_ path: String, seconds: Double = 10) -> Bool {
        waitUntil(timeout: seconds) { FileManager.default.fileExists(atPath: path) }
    }

    @Test(.enabled(if: TerminalDriver.python != nil)) func clientsHaveTheirOwnActionsAndErrors() throws {
        let dir = TestPaths.temporaryDirectory("drivesocket")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s").path
        let driver = try TestProcess(TestPaths.binary, ["drive", "--socket", socket], environment: utf8)
        #expect(waitForFile(socket))
        let python = try #require(TerminalDriver.python)
        let two = try ProcessRunner.run(python, [Self.clients.path, socket, "two"])
        #expect(two.status == 0, "\(two.stderr)")
        let replies = try JSONSerialization.jsonObject(with: Data(two.stdout.utf8)) as? [String: [[String: Any]]]
        #expect(replies?["a"]?.count == 1)
        #expect(replies?["a"]?.first?["line"] as? Int == 2)
        #expect(replies?["b"]?.isEmpty == true)
        let leave = try ProcessRunner.run(python, [Self.clients.path, socket, "leave"])
        #expect(leave.status == 0)
        driver.send(SIGTERM)
        let (_, err) = driver.communicate()
        #expect(driver.wait() == 1)  // the action left open failed
        let lines = String(decoding: err, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            Set(lines.filter { !$0.hasPrefix("Error:") })
                == [
                    "Client A works", "Client B works", "✔ Client A done", "✔ Client B done", "Left open",
                    "✖ the driver went away",
                ])
        // Clients are numbered as they connect: A is 1 or 2.
        let errors = lines.filter { $0.hasPrefix("Error:") }
        #expect(errors.count == 1)
        #expect(
            errors.allSatisfy {
                $0.hasSuffix(
                    #":2: not a JSON object; send one JSON object a line, such as {"start": "a1", "working": "Working..."}; the line was skipped"#
                )
                    && $0.hasPrefix("Error: client ")
            })
        #expect(lines.count == 7)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is left behind")
    }

    @Test func aStaleSocketIsReplacedAndALiveOneOrAFileIsAnError() throws {
        let dir = TestPaths.temporaryDirectory("drivestale")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s").path
        // A socket file nobody listens on.
        try FileDescriptor.listen(atUnixSocket: socket).close()
        let driver = try TestProcess(TestPaths.binary, ["drive", "--socket", socket], environment: utf8)
        defer { driver.send(SIGKILL); _ = driver.communicate(); driver.wait() }
        // Replaced: it answers.
        let answered = waitUntil(timeout: 10) {
            guard let fd = try? FileDescriptor.connect(toUnixSocket: socket) else { return false }
            try? fd.close()
            return true
        }
        #expect(answered)
        let second = try ProcessRunner.host(["drive", "--socket", socket])
        #expect(second.status == 73)
        #expect(
            second.stderr
                == "Error: --socket \(socket): another driver is listening there; give another path or stop it\n")
        let file = dir.appendingPathComponent("file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let blocked = try ProcessRunner.host(["drive", "--socket", file])
        #expect(blocked.status == 73)
        #expect(
            blocked.stderr
                == "Error: --socket \(file): a file that is not a socket is in the way; remove it or give another path\n"
        )
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
    }
}

/// `drive` in a real terminal (pyte), from the shell and Python examples.
@Suite("drive end to end: in a terminal", .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct EndToEndDriveTerminalTests {
    private static let examples = TestPaths.packageRoot.appendingPathComponent("Examples/driver")

    @Test func theShellExampleShowsBothActionsThenLeavesTheLastOutcome() throws {
        let script = Self.examples.appendingPathComponent("two-actions.sh").path
        // Held after its second line (both actions started) until the test saw both.
        let go = GoFile()
        let host = try ExampleHost.make(holding: (lines: 2, go: go))
        let run = try TerminalDriver.run(
            [], shell: "sh '\(script)' | '\(host.path)' drive",
            steps: [.waitText("(+1 more)"), .snapshot("working"), go.touch, .waitExit(20)])
        #expect(run.errors == [])
        // mbhud shows the latest action's message and counts the others.
        let working = try #require(run.snapshots["working"])
        let row = try #require(working.row(containing: "Building... (+1 more)").map { working.lines[$0] })
        #expect(row.contains("│") || row.contains("|"), "not in the box: \(working.lines)")
        // drive returns with its input's end; the last action's outcome stays as a line.
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["✔ Built"], "left behind: \(run.final.lines)")
        #expect(!run.final.cursor.hidden)
    }

    @Test func anActionThatEndsWhileAnotherRunsShowsItsOutcomeThenTheOtherAgain() throws {
        let lines = [
            #"{"start": "fetch", "working": "Fetching the index..."}"#,
            #"{"start": "build", "working": "Building..."}"#,
            #"{"succeed": "fetch", "message": "Index fetched"}"#,
            #"{"succeed": "build", "message": "Built"}"#,
        ]
        // Held after the first action's end until the test saw what followed it.
        let go = GoFile()
        let host = try ExampleHost.make(holding: (lines: 3, go: go))
        let run = try TerminalDriver.run(
            [], shell: "printf '%s\\n' \(lines.map { "'\($0)'" }.joined(separator: " ")) | '\(host.path)' drive",
            steps: [
                .waitText("Index fetched (+1 more)"), .snapshot("outcome"),
                .waitText("Building..."), .snapshot("back"), go.touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        // The success is not lost: shown in the box, the action still running counted.
        let outcome = try #require(run.snapshots["outcome"])
        let row = try #require(outcome.row(containing: "✔ Index fetched (+1 more)").map { outcome.lines[$0] })
        #expect(row.contains("│"), "not in the box: \(outcome.lines)")
        #expect(outcome.row(containing: "Building...") == nil)
        // Then the work still running, alone.
        let back = try #require(run.snapshots["back"])
        #expect(back.row(containing: "Building...") != nil && back.row(containing: "more") == nil, "\(back.lines)")
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["✔ Built"], "left behind: \(run.final.lines)")
    }

    @Test func thePythonExampleShowsTheBarAndTheNewMessages() throws {
        let script = Self.examples.appendingPathComponent("get-title.py").path
        // Held after its third line (the start, parts 1 and 2) until the test saw part 2.
        let go = GoFile()
        let host = try ExampleHost.make(holding: (lines: 3, go: go))
        let run = try TerminalDriver.run(
            [], shell: "exec python3 '\(script)' '\(host.path)'",
            steps: [
                .waitText("Reading part 2 of 4"), .snapshot("part2"), go.touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        let part2 = try #require(run.snapshots["part2"])
        #expect(part2.row(containing: "50%") != nil, "no bar at 50 %: \(part2.lines)")
        #expect(part2.row(containing: "Getting the title...") == nil)
        #expect(run.exit.code == 1)
        #expect(run.final.nonEmptyLines == ["✖ Could not get the title: HTTP 404"], "left behind: \(run.final.lines)")
    }
}
