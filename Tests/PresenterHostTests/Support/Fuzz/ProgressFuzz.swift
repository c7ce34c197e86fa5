// The fuzz target for a command's progress reports
// (`scripts/fuzz --target progress`):
//  1. the input as what the command wrote to PRESENTER_PROGRESS_FD: cut
//     into lines by OutputLines and parsed by ProgressLine.parse, as
//     ProgressChannel does;
//  2. the input as the command's output: TerminalProgressFilter, fed in
//     chunks whose sizes byte 0 chooses.
// Checked on every input: the reason a line is bad holds no control
// character (it goes to the log); a report's fraction is unknown, negative
// (unknown again) or within 0...1; the filter passes on the same bytes and
// makes the same reports however the output is chunked, and only ever
// takes bytes out.

#if !PRESENTER_FUZZ
    @testable import HostSystem
    @testable import HostRuntime
#endif

enum ProgressFuzz {
    static func run(_ input: [UInt8]) {
        // 1. Progress lines.
        var splitter = OutputLines()
        var lines = splitter.append(input)
        if let last = splitter.flush() { lines.append(last) }
        for line in lines {
            do throws(ProgressLine.Invalid) {
                guard let report = try ProgressLine.parse(String(line.prefix(ProgressChannel.longestLine))) else {
                    continue
                }
                check(report, from: line)
            } catch {
                // Shown in the --verbose log.
                fuzzCheckOneLine(error.reason, "a bad progress line")
            }
        }

        // 2. OSC 9;4 in the output.
        var whole = TerminalProgressFilter()
        let (output, reports) = whole.filter(input)
        let all = output + whole.flush()
        var chunked = TerminalProgressFilter()
        var chunkedOutput: [UInt8] = [], chunkedReports: [ProgressReport] = []
        let step = Int(input.first ?? 0) % 7 + 1
        var start = 0
        while start < input.count {
            let end = min(input.count, start + step)
            let (part, partReports) = chunked.filter(Array(input[start..<end]))
            chunkedOutput += part
            chunkedReports += partReports
            start = end
        }
        chunkedOutput += chunked.flush()
        guard all == chunkedOutput, reports == chunkedReports, all.count <= input.count else {
            fuzzFailure("TerminalProgressFilter in chunks of \(step) differs from one pass on \(input)")
        }
        for report in reports { check(report, from: "an OSC 9;4 sequence") }
    }

    private static func check(_ report: ProgressReport, from line: String) {
        if let fraction = report.fraction, !(fraction < 0 || (0...1).contains(fraction)) {
            fuzzFailure("\(line.debugDescription) made a fraction of \(fraction)")
        }
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let text: [(String, String)] = [
            (
                "lines",
                "42%\n0.42\r\n42/100\n  7 / 8 \n{\"progress\": 0.5, \"message\": \"Downloading foo.tar\"}\n"
                    + "{\"progress\": null}\n\n100%\n1.5\n3/0\n50%\r60%\r70%\n{\"message\": \"x\", \"progress\": 1e-9}"
            ),
            (
                "osc",
                "out\u{1B}]9;4;1;42\u{07}more\u{1B}]9;4;3\u{1B}\\\u{1B}]9;4;2;100\u{07}\u{1B}]9;4;0\u{07}"
                    + "\u{1B}[31mred\u{1B}]9;4;4;7\u{07}\u{1B}]9;4;9;1\u{07}\u{1B}]9;4;1;999\u{07}\u{1B}]9;4;1;"
            ),
        ]
        return text.map { ($0.0, Array($0.1.utf8)) }
    }
}
