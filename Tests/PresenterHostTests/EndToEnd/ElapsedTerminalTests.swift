import Foundation
import Testing

/// mbhud's elapsed time in a real terminal (pyte), through the real binary:
/// absent at first, there once the run has passed the threshold (3 s by
/// default, `elapsed-after-ms`), and not on the outcome line that stays.
@Suite(
    "run end to end: mbhud's elapsed time, in a terminal",
    .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
struct ElapsedTerminalTests {
    @Test func theElapsedTimeAppearsAfterItsThresholdNotOnTheOutcomeLine() throws {
        // The command goes on once the test saw the time (the go file); the
        // screen is polled for it, nothing sleeps.
        let sawTime = GoFile()
        let run = try TerminalDriver.run(
            ["run", "--working", "Working", "--success", "Done", "--", "sh", "-c", sawTime.wait],
            steps: [
                .waitText("Working"), .snapshot("before"), .waitText("3s", timeout: 30), .snapshot("after"),
                sawTime.touch, .waitExit(20),
            ])
        #expect(run.errors == [])
        let before = try #require(run.snapshots["before"])
        let timeRow = #/(^|[^0-9])[0-9]+s\b/#
        #expect(!before.lines.contains { $0.contains(timeRow) }, "a time before the threshold: \(before.lines)")
        let after = try #require(run.snapshots["after"])
        let working = try #require(after.row(containing: "Working"), "\(after.lines)")
        let time = try #require(after.row(containing: "3s"), "\(after.lines)")
        #expect(time == working + 1, "the time goes under the message: \(after.lines)")
        #expect(run.exit.code == 0)
        #expect(run.final.nonEmptyLines == ["✔ Done"])
    }

    /// A command reporting steady progress (`i/100`, about ten a second,
    /// paced by the command) gets an ETA and a rate under its bar once the
    /// threshold passed: the ETA within a tolerance of what is left at the
    /// pace the rate shows.
    @Test func steadyProgressShowsAnETAAndARate() throws {
        let sawETA = GoFile()
        let script = """
            i=1
            while [ ! -e '\(sawETA.path)' ]; do
                echo "$i/100" >&$PRESENTER_PROGRESS_FD
                [ $i -lt 99 ] && i=$((i+1))
                sleep 0.1
            done
            """
        let run = try TerminalDriver.run(
            ["run", "--working", "Copying", "--success", "Copied", "--", "sh", "-c", script],
            steps: [.waitText("ETA", timeout: 30), .snapshot("eta"), sawETA.touch, .waitExit(20)])
        #expect(run.errors == [])
        let screen = try #require(run.snapshots["eta"])
        let row = try #require(screen.row(containing: "ETA").map { screen.lines[$0] }, "\(screen.lines)")
        let status = try #require(
            row.firstMatch(of: #/([0-9]+)s · ETA (?:([0-9]+)m)?([0-9]+)s · ([0-9.]+)/s/#), "\(row)")
        let bar = try #require(screen.lines.lazy.compactMap { $0.firstMatch(of: #/([0-9]+)%/#) }.first)
        let eta = Double(status.2.map { Int($0)! * 60 } ?? 0) + Double(status.3)!
        let (rate, percent) = (Double(status.4)!, Double(bar.1)!)
        #expect(Int(status.1)! >= 3, "\(row)")
        #expect(rate > 0.5 && rate <= 12, "a pace of at most ten a second: \(row)")
        // The ETA is what is left at that rate (whole seconds, a frame or so apart).
        #expect(abs(eta - (100 - percent) / rate) <= 2 + 0.2 * eta, "\(row), \(percent)%")
        #expect(run.exit.code == 0)
    }
}
