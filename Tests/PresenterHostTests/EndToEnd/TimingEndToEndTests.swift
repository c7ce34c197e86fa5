import Foundation
import PresenterABI
import Testing

/// ABI 1.4's time, through the real binary and a real `.so` (timing.c): a
/// command reports steady progress (`i/100` at a steady pace), and the
/// presenter is told when the work started, the counts, and a rate and time
/// left that match the pace the command kept, within a tolerance.
@Suite("run end to end: the time, rate and ETA a presenter is told")
struct TimingEndToEndTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

    /// What the fixture logged at one hook: its name and `key=value` numbers.
    private struct Logged {
        var hook: String
        var values: [String: Double]

        /// The `<presenter>: info: <hook> key=value ...` lines of `log`, in order.
        static func lines(_ log: String, presenter: String) -> [Logged] {
            log.split(separator: "\n").compactMap { line in
                guard let range = line.range(of: "\(presenter): info: ") else { return nil }
                let words = line[range.upperBound...].split(separator: " ")
                guard let hook = words.first else { return nil }
                var values: [String: Double] = [:]
                for word in words.dropFirst() {
                    let pair = word.split(separator: "=", maxSplits: 1)
                    if pair.count == 2, let value = Double(pair[1]) { values[String(pair[0])] = value }
                }
                return Logged(hook: String(hook), values: values)
            }
        }
    }

    /// Runs a command that reports 1/100 to `last`/100 (or `format`, with
    /// `$i` for the count), one every 50 ms,
    /// then waits until the presenter logged the last one; returns the log
    /// and the seconds between the first report and the last, as the
    /// command measured them.
    private func runSteady(
        presenter: String, last: Int, format: String = "$i/100", waitFor pattern: String
    ) throws -> (String, Double) {
        let plugins = try FixtureBuilder.directory([.timing])
        let directory = TestPaths.temporaryDirectory("timing")
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: plugins)
        }
        let log = directory.appendingPathComponent("log").path
        let first = directory.appendingPathComponent("first").path
        let end = directory.appendingPathComponent("last").path
        // A paced writer: the assertions allow for a pace the machine's load bends.
        let script = """
            i=1
            while [ $i -le \(last) ]; do
                echo "\(format)" >&$PRESENTER_PROGRESS_FD
                [ $i -eq 1 ] && date +%s%N > '\(first)'
                [ $i -eq \(last) ] && date +%s%N > '\(end)'
                [ $i -lt \(last) ] && sleep 0.05
                i=$((i+1))
            done
            \(shellWaitUntil("grep -q '\(pattern)' '\(log)'"))
            """
        // In a terminal, where the presenter runs (plain mode runs none).
        let result = try ProcessRunner.hostInTerminal(
            [
                "--plugin-dir", plugins.path, "run", "-v", "--log", log, "--presenter", presenter,
                "--working", "Copying", "--", "sh", "-c", script,
            ], environment: utf8)
        #expect(result.status == 0)
        let read = { (path: String) in
            Double((try String(contentsOfFile: path, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let span = try #require(try read(end)) - (try #require(try read(first)))
        return (try String(contentsOfFile: log, encoding: .utf8), span / 1e9)
    }

    @Test func steadyProgressGivesTheElapsedTimeCountsRateAndETA() throws {
        let (log, span) = try runSteady(presenter: "fixture.timing", last: 40, waitFor: "progress .* done=40[.]000")
        let lines = Logged.lines(log, presenter: "fixture.timing")
        let show = try #require(lines.first, "\(log)")
        #expect(show.hook == "show", "\(log)")
        let started = try #require(show.values["started"])
        #expect(started > 0)
        // One start for every hook, never after the hook's own clock reading.
        for line in lines {
            #expect(line.values["started"] == started, "\(log)")
            #expect(try #require(line.values["now"]) >= started, "\(log)")
        }
        let lastProgress = try #require(lines.last { $0.hook == "progress" && $0.values["done"] == 40 }, "\(log)")
        #expect(lastProgress.values["total"] == 100)
        // The elapsed time covers the reports the command timed itself.
        #expect((try #require(lastProgress.values["now"]) - started) / 1e9 >= span * 0.9, "\(log)")
        // The rate is the command's pace, and the time left what remains at
        // that pace, within a tolerance (a 15 s average, a loaded machine).
        let pace = 39 / span
        let rate = try #require(lastProgress.values["rate"])
        #expect(rate > pace * 0.6 && rate < pace * 1.4, "rate \(rate) for a pace of \(pace)/s\n\(log)")
        let eta = try #require(lastProgress.values["eta"])
        #expect(eta > 60 / pace * 0.6 && eta < 60 / pace * 1.4, "ETA \(eta) s at \(pace)/s\n\(log)")
        #expect(abs(eta - 60 / rate) < 0.01 * eta, "the ETA is what is left at the rate given")
        let hide = try #require(lines.last, "\(log)")
        #expect(hide.hook == "hide" && hide.values["done"] == 40 && hide.values["total"] == 100, "\(log)")
    }

    /// Without counts (`i%`) done and total stay unknown (negative), and
    /// the rate is of the fraction: 1 % a report is 0.01 a report.
    @Test func aFractionAloneGivesARateOfTheFraction() throws {
        let (log, span) = try runSteady(
            presenter: "fixture.timing", last: 20, format: "$i%", waitFor: "progress .* progress=0[.]20")
        let lines = Logged.lines(log, presenter: "fixture.timing")
        #expect(lines.allSatisfy { $0.values["done"] == -1 && $0.values["total"] == -1 }, "\(log)")
        let last = try #require(lines.last { $0.hook == "progress" && $0.values["progress"] == 0.2 }, "\(log)")
        let pace = 0.19 / span
        let rate = try #require(last.values["rate"])
        #expect(rate > pace * 0.6 && rate < pace * 1.4, "rate \(rate) for a pace of \(pace)/s\n\(log)")
        #expect(abs(try #require(last.values["eta"]) - 0.8 / rate) < 0.01 * 0.8 / rate, "\(log)")
    }

    /// A presenter built for 1.3 loads and runs as before: it is given the
    /// host's struct (whose size says the 1.4 fields are there) and reads
    /// only the fields it knows.
    @Test func aPresenterBuiltFor1_3StillLoadsAndHearsProgress() throws {
        let (log, _) = try runSteady(
            presenter: "fixture.timing-1-3", last: 3, waitFor: "progress size=.* progress=0[.]03")
        let lines = Logged.lines(log, presenter: "fixture.timing-1-3")
        #expect(lines.map(\.hook).first == "show" && lines.map(\.hook).last == "hide", "\(log)")
        #expect(lines.contains { $0.hook == "progress" && $0.values["progress"] == 0.03 }, "\(log)")
        #expect(lines.allSatisfy { $0.values["size"] == Double(MemoryLayout<presenter_interactor>.size) }, "\(log)")
    }
}
