import Testing
@testable import HostRuntime

/// The progress lines of `PRESENTER_PROGRESS_FD` and the OSC 9;4 sequences
/// in a command's output.
@Suite("progress lines and OSC 9;4")
struct ProgressParsingTests {
    @Test(arguments: [
        ("42%", 0.42), ("0%", 0), ("100%", 1), (" 12.5% \r", 0.125), ("0.42", 0.42), ("1", 1), (".5", 0.5),
        ("42/100", 0.42), ("3/4", 0.75), ("0/7", 0),
        (#"{"progress": 0.3}"#, 0.3), (#"{"progress": null}"#, -1),
    ])
    func fractions(line: String, fraction: Double) throws {
        #expect(try ProgressLine.parse(line)?.fraction == fraction)
        #expect(try ProgressLine.parse(line)?.message == nil)
    }

    /// `done/total` keeps its counts (ABI 1.4's `done` and `total`); the
    /// other forms give a fraction alone.
    @Test func countsComeWithDoneOverTotal() throws {
        #expect(try ProgressLine.parse("42/100") == ProgressReport(done: 42, total: 100))
        #expect(try ProgressLine.parse("42/100")?.counts == ProgressReport.Counts(done: 42, total: 100))
        #expect(try ProgressLine.parse("42%") == ProgressReport(fraction: 0.42))
        #expect(try ProgressLine.parse("42%")?.counts == nil)
    }

    /// Merged reports keep the counts that came with the fraction they keep.
    @Test func mergedReportsKeepTheCountsOfTheirFraction() {
        let counted = ProgressReport(done: 3, total: 4)
        #expect(counted.merged(with: ProgressReport(message: "m")).counts == counted.counts)
        #expect(counted.merged(with: ProgressReport(message: "m")).message == "m")
        #expect(counted.merged(with: ProgressReport(fraction: 0.9)).counts == nil)
        #expect(ProgressReport(fraction: 0.1).merged(with: counted) == counted)
    }

    @Test func messagesAndBoth() throws {
        #expect(
            try ProgressLine.parse(#"{"progress": 0.42, "message": "Downloading foo.tar"}"#)
                == ProgressReport(fraction: 0.42, message: "Downloading foo.tar"))
        #expect(try ProgressLine.parse(#"{"message": "Unpacking"}"#) == ProgressReport(message: "Unpacking"))
        #expect(try ProgressLine.parse("   ") == nil)
    }

    @Test(arguments: [
        ("42", "'42' is more than 1; write a percentage as 42%"),
        ("101%", "'101%' is not a percentage from 0% to 100%"),
        ("-5%", "'-5%' is not a percentage from 0% to 100%"),
        ("5/0", "'5/0' is not done/total with a total above 0 (e.g. 42/100)"),
        ("7/5", "'7/5': done is more than the total"),
        ("half", "'half' is not 42%, 0.42, 42/100 or a JSON object"),
        ("nan", "'nan' is not 42%, 0.42, 42/100 or a JSON object"),
        (#"{"progress": 2}"#, #""progress": 2 is not a fraction from 0 to 1"#),
        (#"{"progress": "50%"}"#, #""progress" is a string; expected a number from 0 to 1"#),
        (#"{"messsage": "x"}"#, #"unknown member "messsage" (expected "progress", "message")"#),
        ("{}", #"an object needs "progress" or "message""#),
        (#"{"progress": 0.5"#, "column 17: expected ',' or '}', found end of file"),
    ])
    func badLinesSayWhy(line: String, reason: String) {
        #expect(throws: ProgressLine.Invalid(reason: reason)) { try ProgressLine.parse(line) }
    }

    private func run(_ chunks: [String]) -> (String, [ProgressReport]) {
        var filter = TerminalProgressFilter()
        var output: [UInt8] = []
        var reports: [ProgressReport] = []
        for chunk in chunks {
            let (bytes, found) = filter.filter(Array(chunk.utf8))
            output += bytes
            reports += found
        }
        output += filter.flush()
        return (String(decoding: output, as: UTF8.self), reports)
    }

    @Test func sequencesAreTakenOutAndReported() {
        let (output, reports) = run([
            "a\u{1B}]9;4;1;42\u{07}b\u{1B}]9;4;3;0\u{1B}\\c\u{1B}]9;4;0\u{07}",
            "\u{1B}]9;4;2;90\u{07}\u{1B}]9;4;2\u{07}d",
        ])
        #expect(output == "abcd")
        #expect(
            reports == [
                ProgressReport(fraction: 0.42), ProgressReport(fraction: -1), ProgressReport(fraction: -1),
                ProgressReport(fraction: 0.9), ProgressReport(),
            ])
    }

    @Test func aSequenceCutAcrossChunksIsFound() {
        let whole = "x\u{1B}]9;4;1;75\u{1B}\\y"
        for cut in 1..<whole.utf8.count {
            let bytes = Array(whole.utf8)
            let (output, reports) = run([
                String(decoding: bytes[..<cut], as: UTF8.self),
                String(decoding: bytes[cut...], as: UTF8.self),
            ])
            #expect(output == "xy", "cut at \(cut)")
            #expect(reports == [ProgressReport(fraction: 0.75)], "cut at \(cut)")
        }
    }

    @Test func otherSequencesPassUnchanged() {
        let other =
            "\u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{07} \u{1B}]9;1\u{07} \u{1B}]9;4;x\u{07} \u{1B}\u{1B}]9;4;1;5\u{07}"
        let (output, reports) = run([other])
        #expect(output == "\u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{07} \u{1B}]9;1\u{07} \u{1B}]9;4;x\u{07} \u{1B}")
        #expect(reports == [ProgressReport(fraction: 0.05)])
        // Held at the end: given back as it was.
        #expect(run(["tail\u{1B}]9;4;1"]) == ("tail\u{1B}]9;4;1", []))
    }
}
