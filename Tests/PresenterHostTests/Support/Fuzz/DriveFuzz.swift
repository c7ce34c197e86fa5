// The fuzz target for the `drive` protocol (`scripts/fuzz --target drive`):
// the input is what a driver sends, cut at '\n' into lines, each parsed by
// DriveRequest.parse as DriveClient does. Checked on every input: the
// reason a line is bad holds no control character (it is shown on stderr),
// and the error reply is one line of JSON (JSONReader reads it).

#if !PRESENTER_FUZZ
    @testable import HostText
    @testable import HostCommandLine
#endif

enum DriveFuzz {
    static func run(_ input: [UInt8]) {
        for (number, line) in input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            do throws(DriveRequest.Invalid) {
                _ = try DriveRequest.parse(Array(line))
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
        return text.map { ($0.0, Array($0.1.utf8)) }
    }
}
