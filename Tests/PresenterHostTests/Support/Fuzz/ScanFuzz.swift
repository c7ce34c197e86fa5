// The fuzz target for the scan protocol (`scripts/fuzz --target scan`): the
// input is what a scan helper wrote on its report channel, cut into lines
// as ScanProcess cuts them (at '\n', or 256 bytes without one), each parsed
// by ScanProtocol.Line. Checked on every input: a line that parses has a
// text that parses back to the same line.

#if !PRESENTER_FUZZ
    @testable import PresenterHost
#endif

enum ScanFuzz {
    static func run(_ input: [UInt8]) {
        var rest = input[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? min(rest.endIndex, rest.startIndex + 257)
            let text = fuzzText(rest[..<end])
            rest = rest[min(rest.endIndex, end + 1)...]
            guard let line = ScanProtocol.Line(Substring(text)) else { continue }
            guard ScanProtocol.Line(Substring(line.text)) == line else {
                fuzzFailure(
                    "\(text.debugDescription) parsed as \(line), whose text \(line.text.debugDescription) does not")
            }
        }
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        func stream(_ lines: [ScanProtocol.Line]) -> [UInt8] { Array(lines.map { $0.text + "\n" }.joined().utf8) }
        return [
            ("session", stream([.header(version: ScanProtocol.version), .begin(0), .done(0), .begin(1), .done(1)])),
            ("killed", stream([.header(version: ScanProtocol.version), .begin(0)])),
            ("other-version", stream([.header(version: 99), .begin(0)])),
            ("noise", Array("presenter-host-scan 1\nbegin -1\ndone 18446744073709551616\nbegin  2\n\r\n".utf8)),
            ("long", Array(String(repeating: "begin 1", count: 60).utf8)),
        ]
    }
}
