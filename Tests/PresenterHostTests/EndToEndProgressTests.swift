import Foundation
import Testing

/// Progress from the command, through the real binary: its progress channel
/// (`PRESENTER_PROGRESS_FD`) and the OSC 9;4 sequences in its output.
@Suite("run end to end: progress from the command")
struct EndToEndProgressTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

    @Test func messagesBecomeLinesInPlainMode() throws {
        let script = """
            echo 10% >&$PRESENTER_PROGRESS_FD
            echo '{"progress": 0.5, "message": "Downloading foo.tar"}' >&$PRESENTER_PROGRESS_FD
            echo 3/4 >&$PRESENTER_PROGRESS_FD
            echo '{"message": "Unpacking"}' >&$PRESENTER_PROGRESS_FD
            sleep 0.3
            """
        let result = try ProcessRunner.host(["run", "--working", "Working", "--success", "Done", "--", "sh", "-c", script],
                                            environment: utf8)
        #expect(result.status == 0)
        #expect(result.stderr == "Working\nDownloading foo.tar\nUnpacking\n✔ Done\n")
    }

    @Test func aBadLineIsOneVerboseLogLineAndNeverAFailure() throws {
        let script = "echo 150% >&$PRESENTER_PROGRESS_FD; echo '{\"message\": \"Still here\"}' >&$PRESENTER_PROGRESS_FD; sleep 0.3"
        let quiet = try ProcessRunner.host(["run", "--working", "W", "--", "sh", "-c", script], environment: utf8)
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "W\nStill here\n")
        let verbose = try ProcessRunner.host(["run", "-v", "--working", "W", "--", "sh", "-c", script], environment: utf8)
        #expect(verbose.status == 0)
        let logLines = verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("presenter-host:") }
        #expect(logLines == ["presenter-host: mbhud: warning: ignored a progress line: '150%' is not a percentage from 0% to 100%"])
    }

    @Test func floodsOfBadLinesAreLoggedOnceTheyPassTheLimit() throws {
        let script = "i=0; while [ $i -lt 30 ]; do echo bad$i >&$PRESENTER_PROGRESS_FD; i=$((i+1)); done"
        let result = try ProcessRunner.host(["run", "-v", "--working", "W", "--", "sh", "-c", script], environment: utf8)
        #expect(result.status == 0)
        let logLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("presenter-host:") }
        #expect(logLines.count == 11)
        #expect(logLines.last == "presenter-host: mbhud: warning: ignoring further bad progress lines without naming them")
    }

    @Test func theDescriptorIsASingleDigitAndHidesNoneTheCallerPassed() throws {
        let dir = TestPaths.temporaryDirectory("progressfd")
        defer { try? FileManager.default.removeItem(at: dir) }
        let kept = dir.appendingPathComponent("kept").path
        // The caller gives the command descriptor 3 (`3>file`): it stays the command's.
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" run --working W -- sh -c 'echo kept >&3; echo \"$PRESENTER_PROGRESS_FD\"' 3>'\(kept)'",
             TestPaths.binary.path], environment: utf8)
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "kept\n")
        let number = try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect((4...9).contains(number))
    }
}

/// The same in a real terminal (pyte): the bar, the new message, OSC 9;4.
@Suite("run end to end: progress from the command, in a terminal",
       .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct EndToEndProgressTerminalTests {
    @Test func theChannelDrivesTheBarAndTheMessage() throws {
        let script = """
            echo 30% >&$PRESENTER_PROGRESS_FD; sleep 0.8
            echo '{"progress": 0.5, "message": "Downloading foo.tar"}' >&$PRESENTER_PROGRESS_FD; sleep 1.5
            """
        let run = try TerminalDriver.run(
            ["run", "--working", "Working", "--success", "Done", "--", "sh", "-c", script],
            steps: [.waitText("30%"), .snapshot("thirty"), .waitText("Downloading foo.tar"), .snapshot("half"),
                    .waitText("Done"), .waitExit(20)])
        #expect(run.errors == [])
        let thirty = try #require(run.snapshots["thirty"])
        let thirtyRow = try #require(thirty.row(containing: "30%").map { thirty.lines[$0] })
        #expect(thirtyRow.contains("Working") || thirty.row(containing: "Working") != nil)
        let half = try #require(run.snapshots["half"])
        #expect(half.row(containing: "50%") != nil, "\(half.lines)")
        #expect(half.row(containing: "Working") == nil, "the old message is still shown: \(half.lines)")
        #expect(run.exit.code == 0)
        #expect(run.final.isBlank)
    }

    @Test func osc94InTheOutputDrivesTheBarAndIsTakenOut() throws {
        let dir = TestPaths.temporaryDirectory("osc94in")
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("raw").path
        let script = #"printf 'before\n\033]9;4;1;40\033\\after\n'; sleep 1.5; exit 3"#
        let run = try TerminalDriver.run(
            ["run", "--working", "Building", "--failure", "Broke", "--", "sh", "-c", script], rawFile: raw,
            steps: [.waitText("40%"), .snapshot("bar"), .waitExit(20)])
        #expect(run.errors == [])
        #expect(try #require(run.snapshots["bar"]).row(containing: "Building") != nil)
        #expect(run.exit.code == 3)
        // The output, replayed after the failure, without the sequence.
        #expect(run.final.nonEmptyLines == ["before", "after"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        #expect(bytes.range(of: Data("\u{1B}]9;4;1;40".utf8)) == nil, "the command's OSC 9;4 reached the terminal")
    }
}
