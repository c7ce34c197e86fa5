// The fuzz target for the `drive` protocol (`scripts/fuzz --target drive`):
// the input is what a driver sends, cut at '\n' into lines, each parsed by
// DriveRequest.parse as DriveClient does. Checked on every input: the
// reason a line is bad holds no control character (it is shown on stderr),
// and the error reply is one line of JSON (JSONReader reads it); a line
// that is not UTF-8 is refused (never decoded lossily into an id); the
// errors that show a parsed line's id (not running, already running) hold
// nothing the one cleaner escapes (controls, bidi, zero-width).

#if !PRESENTER_FUZZ
    @testable import HostText
    @testable import HostCommandLine
#endif

enum DriveFuzz {
    static func run(_ input: [UInt8]) {
        for (number, line) in input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            do throws(DriveRequest.Invalid) {
                let request = try DriveRequest.parse(Array(line))
                guard String(validating: line, as: UTF8.self) != nil else {
                    fuzzFailure("a line that is not UTF-8 was taken: \(Array(line))")
                }
                for reason in [DriveClient.notRunning(request.id), DriveClient.alreadyRunning(request.id)]
                where reason.unicodeScalars.contains(where: ControlCharacters.escaped.matches) {
                    fuzzFailure("an id reached an error line unescaped: \(reason.debugDescription)")
                }
            } catch {
                // Also shown as "Error: client:line: reason" on stderr.
                fuzzCheckOneLine(error.reason, "a bad line")
                let reply = DriveClient.errorReply(line: number + 1, reason: error.reason)
                let body = Array(reply.utf8.dropLast())
                guard reply.hasSuffix("\n"), !body.contains(0x0A), (try? JSONReader.parse(body)) != nil else {
                    fuzzFailure("the reply to a bad line is \(reply.debugDescription)")
                }
            }
        }
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let text: [(String, String)] = [
            (
                "session",
                """
                {"start": "a1", "action": "get-title", "working": "Getting the title…", "protocol": 1}
                {"progress": "a1", "fraction": 0.3, "message": "Reading the page"}
                {"progress": "a1", "fraction": -1}
                {"succeed": "a1", "message": "Done"}
                {"fail": "a2", "message": "Could not", "reason": "HTTP 404"}

                """
            ),
            (
                "bad-lines",
                """
                {"start": "a1", "start": "a2"}
                {"progress": "a1", "fraction": 1.5e400}
                {"protocol": 2, "succeed": "a"}
                ["start"]
                {"fail": 3}
                \u{7B}"start": "\\ud800"}
                """
            ),
        ]
        // Bytes that are not UTF-8 (a lone 0xFF or 0xFE, a cut sequence, an
        // overlong one, a surrogate's encoding) in ids and messages.
        let bytes: [(String, [UInt8])] = [
            (
                "not-utf8",
                Array(#"{"start": ""#.utf8) + [0xFF] + Array(#"", "working": "W"}"#.utf8) + [0x0A]
                    + Array(#"{"start": ""#.utf8) + [0xFE] + Array("\"}\n".utf8)
                    + Array(#"{"progress": "a", "message": ""#.utf8) + [0xC3] + Array("\"}\n".utf8)
                    + Array(#"{"succeed": ""#.utf8) + [0xC0, 0xAF, 0x22, 0x7D, 0x0A]
                    + Array(#"{"fail": ""#.utf8) + [0xED, 0xA0, 0x80, 0x22, 0x7D]
            ),
            (
                "control-ids",
                Array(
                    #"""
                    {"succeed": "x\u001b]2;PWNED\u0007"}
                    {"start": "\u001b]52;c;cHduZWQ=\u0007", "working": "W"}
                    {"progress": "\u009b2J", "fraction": 0.5}
                    {"fail": "a\u202eb\u2066c\u200b", "reason": "r"}
                    {"start": "\#u{1B}[31mraw\#u{7}"}
                    """#.utf8)
            ),
        ]
        return text.map { ($0.0, Array($0.1.utf8)) } + bytes
    }
}
