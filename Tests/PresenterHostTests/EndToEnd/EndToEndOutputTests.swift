import Foundation
import Glibc
import Testing

/// `run --output`, `--static` / `ACCESSIBLE=1`, `--events` and `--log`
/// through the real binary.
@Suite("run end to end: output modes, events, the log")
struct EndToEndOutputTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

    @Test func hideDropsTheOutputInPlainModeToo() throws {
        let result = try ProcessRunner.host(
            [
                "run", "--output", "hide", "--working", "W", "--failure", "F", "--", "sh", "-c",
                "echo out; echo err >&2; exit 3",
            ],
            environment: utf8)
        #expect(result.status == 3)
        #expect(result.stdout == "out\n")  // a stdout that is not the terminal is data: it is never hidden
        #expect(result.stderr == "W\n✖ F: exit status 3\n")
    }

    @Test func eventsAreJSONLinesPerStateChange() throws {
        let dir = TestPaths.temporaryDirectory("events")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("events.jsonl").path
        let script = """
            echo 10% >&$PRESENTER_PROGRESS_FD; echo 10.5% >&$PRESENTER_PROGRESS_FD
            echo '{"progress": 0.5, "message": "Half"}' >&$PRESENTER_PROGRESS_FD
            echo '{"progress": null}' >&$PRESENTER_PROGRESS_FD; exit 2
            """
        let result = try ProcessRunner.host(
            [
                "run", "--events", file, "--action", "build", "--working", "Building",
                "--", "sh", "-c", script,
            ], environment: utf8)
        #expect(result.status == 2)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(
            events.map { $0["event"] as? String } == [
                "start", "progress", "message", "progress", "progress", "failure",
            ])
        #expect(events[0]["action"] as? String == "build")
        #expect(events[0]["message"] as? String == "Building")
        #expect(events[0]["command"] as? [String] == ["sh", "-c", script])
        #expect(events[1]["fraction"] as? Double == 0.1)  // 10.5% is still 10: no line of its own
        #expect(events[2]["message"] as? String == "Half")
        #expect(events[3]["fraction"] as? Double == 0.5)
        #expect(events[4]["fraction"] is NSNull)
        #expect(events[5]["status"] as? Int == 2)
        #expect(events[5]["reason"] as? String == "exit status 2")
        #expect(events[5]["message"] is NSNull)
        #expect((events[5]["duration"] as? Double ?? -1) >= 0)
        #expect(events.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true })
    }

    @Test(arguments: [
        ("true", "success", "\u{1B}[32mBuilt\u{1B}[0m", "Built"), ("false", "failure", "It\tbroke", "It      broke"),
    ])
    func theOutcomeEventsCarryTheirMessageAsShown(command: String, event: String, message: String, shown: String)
        throws
    {
        let result = try ProcessRunner.host(
            ["run", "--events", "-", "--working", "W", "--success", message, "--failure", message, "--", command],
            environment: utf8)
        let events = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let outcome = try #require(events.last)
        #expect(outcome["event"] as? String == event)
        #expect(outcome["message"] as? String == shown)
    }

    @Test func eventsOnStdoutMoveTheCommandsStdoutToStderr() throws {
        let result = try ProcessRunner.host(
            ["run", "--events", "-", "--working", "W", "--", "sh", "-c", "echo data"],
            environment: utf8)
        #expect(result.status == 0)
        let events = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(events.map { $0["event"] as? String } == ["start", "success"])
        #expect(result.stdout.split(separator: "\n").count == 2)
        #expect(result.stderr == "W\ndata\n")
    }

    @Test func aCommandThatCannotStartEndsItsEvents() throws {
        let result = try ProcessRunner.host(["run", "--events", "-", "--", "no-such-command-ph"], environment: utf8)
        #expect(result.status == 127)
        #expect(result.stdout.contains(#""event":"failure""#) && result.stdout.contains(#""status":127"#))
    }

    @Test func theLogKeepsTheOutputAndTheEventsWithoutControlCharacters() throws {
        let dir = TestPaths.temporaryDirectory("runlog")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("run.log").path
        let script = #"printf 'red \033[31mtext\033[0m\n'; printf 'bell\a\n' >&2; exit 1"#
        // --output hide reads the output in plain mode too.
        let result = try ProcessRunner.host(
            ["run", "--output", "hide", "--log", file, "--working", "W", "--", "sh", "-c", script],
            environment: utf8)
        #expect(result.status == 1)
        let log = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!log.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(log.contains("output: bell\\x07"))
        #expect(log.contains(#"event: {"action":"run""#))
        #expect(log.contains(#""event":"failure""#))
    }
}

@Suite(
    "run end to end: static mode and --output in a terminal",
    .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct EndToEndStaticTerminalTests {
    @Test(arguments: [(["--static"], [String: String]()), ([], ["ACCESSIBLE": "1"])])
    func staticModeWritesLinesAndNoEscapeCodes(flags: [String], environment: [String: String]) throws {
        let dir = TestPaths.temporaryDirectory("static")
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("raw").path
        let go = GoFile()
        let script = "echo '{\"message\": \"Halfway\"}' >&$PRESENTER_PROGRESS_FD; \(go.wait)"
        let run = try TerminalDriver.run(
            ["run"] + flags + ["--working", "Working", "--success", "Done", "--", "sh", "-c", script],
            environment: environment, rawFile: raw,
            steps: [.waitText("Halfway"), go.touch, .waitText("Done"), .waitExit(20)])
        #expect(run.errors == [])
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["Working", "Halfway", "✔ Done"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        #expect(!bytes.contains(0x1B), "an escape code in static mode")
    }

    /// With `--output hide` the output is never shown; the control, the same
    /// command without it, shows its output after the failure.
    @Test(arguments: [true, false])
    func hideShowsNothingOfTheOutputEvenOnFailure(hide: Bool) throws {
        let go = GoFile()
        let run = try TerminalDriver.run(
            ["run"] + (hide ? ["--output", "hide"] : []) + [
                "--working", "Working", "--failure", "Failed", "--", "sh", "-c", "echo secret; \(go.wait); exit 4",
            ],
            watch: ["secret"], steps: [.waitText("Working"), go.touch, .waitExit(20)])
        #expect(run.errors == [])
        #expect(run.exit.code == 4)
        #expect(run.watched["secret"] == !hide)
        // The failure's line stays either way.
        #expect(
            run.final.nonEmptyLines == ["✖ Failed: exit status 4"] + (hide ? [] : ["secret"]),
            "left behind: \(run.final.lines)")
    }

    @Test func streamIsShowOutput() throws {
        // The line comes while the box is up, and the command ends once the test saw it.
        let (box, line) = (GoFile(), GoFile())
        let run = try TerminalDriver.run(
            [
                "run", "--output", "stream", "--working", "Streaming", "--",
                "sh", "-c", "\(box.wait); echo shown; \(line.wait)",
            ],
            steps: [
                .waitText("Streaming"), box.touch, .waitText("shown"), .snapshot("streamed"), line.touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        let streamed = try #require(run.snapshots["streamed"])
        #expect(streamed.row(containing: "Streaming") != nil)
        #expect((streamed.row(containing: "shown") ?? 99) < (streamed.row(containing: "Streaming") ?? -1))
        #expect(run.final.nonEmptyLines == ["shown"])
    }
}

/// `NOTIFY_SOCKET`: a systemd service's status.
@Suite("run end to end: systemd STATUS=")
struct EndToEndNotifySocketTests {
    /// A datagram socket bound at `path` (what systemd listens on).
    private func listen(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        return fd
    }

    /// Every datagram waiting on `fd`.
    private func received(_ fd: Int32) -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { return messages }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }

    @Test func theWorkingMessageNewMessagesAndTheOutcome() throws {
        let dir = TestPaths.temporaryDirectory("notify")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notify").path
        let fd = try listen(path)
        defer { close(fd) }
        // The command fails once the host passed its message on.
        let go = GoFile()
        let script = #"echo '{"message": "Step two"}' >&$PRESENTER_PROGRESS_FD; "# + go.wait + "; exit 3"
        let host = try TestProcess(
            TestPaths.binary,
            ["run", "--working", "Backing up", "--failure", "Backup failed", "--", "sh", "-c", script],
            environment: ["NOTIFY_SOCKET": path], stdin: .null, stdout: .null, stderr: .null)
        var statuses: [String] = []
        #expect(
            waitUntil(timeout: 10) {
                statuses += received(fd)
                return statuses.contains("STATUS=Step two")
            }, "\(statuses)")
        go.create()
        #expect(host.wait() == 3)
        statuses += received(fd)
        #expect(statuses == ["STATUS=Backing up", "STATUS=Step two", "STATUS=Backup failed: exit status 3"])
        let success = try ProcessRunner.host(
            ["run", "--working", "W", "--", "true"], environment: ["NOTIFY_SOCKET": path])
        #expect(success.status == 0)
        #expect(received(fd) == ["STATUS=W", "STATUS=Succeeded"])
    }
}
