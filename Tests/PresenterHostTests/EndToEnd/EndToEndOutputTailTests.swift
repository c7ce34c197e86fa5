import Foundation
@testable import HostText
import Testing

/// `run --output tail[=N]` through the real binary in a terminal (pyte): the
/// command's last N whole lines below the presenter as they come, then, if
/// it fails, its whole output after the region is gone.
@Suite("run end to end: --output tail", .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct EndToEndOutputTailTests {
    /// Ten lines (one far wider than the terminal), then a wait for Enter
    /// typed in the terminal (no timed wait), then `status`.
    static func command(status: Int) -> [String] {
        ["sh", "-c", "for i in $(seq 1 9); do echo line $i; done; printf 'wide %0200d\\n' 0; read x; exit \(status)"]
    }

    @Test func theLastLinesShowBelowThePresenterThenAFailureShowsThemAll() throws {
        let run = try TerminalDriver.run(
            ["run", "--output", "tail=3", "--working", "Building", "--"] + Self.command(status: 3),
            printFirst: 2,
            steps: [
                // The presenter's box comes once its process started, maybe after the lines.
                .waitText("wide 000"), .waitText("Building"), .snapshot("tail"), .keys("\r"),
                .waitExit(15),
            ])
        #expect(run.exit.code == 3)
        let tail = try #require(run.snapshots["tail"])
        let box = try #require(tail.row(containing: "Building"))
        let first = try #require(tail.row(containing: "line 8"))
        // Below the box, in order, the last three; nothing older.
        #expect(first > box)
        #expect(tail.lines[first + 1] == "line 9")
        #expect(
            tail.lines[first + 2].hasPrefix("wide 000") && tail.lines[first + 2].hasSuffix("…"),
            "a wide line is cut at the edge, never wrapped: \(tail.lines)")
        #expect(DisplayWidth.of(tail.lines[first + 2]) <= 79)
        #expect(tail.row(containing: "line 7") == nil, "more than the last 3 lines: \(tail.lines)")
        #expect(tail.lines[0] == "1" && tail.lines[1] == "2", "the lines before run were moved: \(tail.lines)")
        // It failed: the region is gone and the whole output follows what was there.
        let final = run.final.nonEmptyLines
        #expect(final.first == "1")
        #expect(final.contains("line 1") && final.contains("line 9"))
        #expect(!final.contains { $0.contains("Building") })
        #expect(!run.final.cursor.hidden)
    }

    @Test func onSuccessTheTailGoesWithTheRegion() throws {
        let run = try TerminalDriver.run(
            ["run", "--output", "tail", "--working", "Building", "--"] + Self.command(status: 0),
            steps: [
                .waitText("wide 000"), .waitText("Building"), .snapshot("tail"), .keys("\r"),
                .waitExit(15),
            ])
        #expect(run.exit.code == 0)
        let tail = try #require(run.snapshots["tail"])
        #expect(
            tail.row(containing: "line 6") != nil && tail.row(containing: "line 5") == nil,
            "the default is 5 lines: \(tail.lines)")
        #expect(run.final.isBlank, "left behind: \(run.final.lines)")
    }
}
