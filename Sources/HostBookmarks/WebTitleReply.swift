import HostText

/// What presenter-host-fetch answers on its stdout, read strictly and
/// within bounds (the fetcher runs libcurl on what a server sent: its
/// reply is checked like any input).
///
/// Reply format 1, lines ending in "\n", at most ``maxLineBytes`` each:
/// ```
/// presenter-host-fetch reply 1
/// status 200                              a response came (the last one after redirects)
/// url http://example.com/                 the URL that gave it
/// content-type text/html; charset=utf-8   its Content-Type ("" when none)
/// redirects 1                             how many were followed
/// body 1234 complete                      N bytes of body follow this line; then the end
/// <N bytes>
/// ```
/// where the body's end is `complete` (all of it), `limit` (the first
/// `--max-bytes`), `timeout` (what came in time) or `cut` (the connection
/// ended early). Or, when no response came:
/// ```
/// presenter-host-fetch reply 1
/// failure KIND[ DETAIL]
/// ```
/// with KIND one of timeout, redirects (DETAIL: the limit), resolve,
/// connect, handshake (the TLS handshake failed), certificate (DETAIL, when
/// there is one: OpenSSL's reason for refusing the server's certificate,
/// "self-signed certificate"), scheme (DETAIL: the URL a redirect went
/// to), other (DETAIL: the library's words). `tls` (DETAIL: the library's
/// words) is an older fetcher's, read as `handshake`. Nothing may follow.
/// A newer format gets a new version number.
enum WebTitleReply: Equatable, Sendable {
    case response(Response)
    case failure(kind: String, detail: String)

    /// The response part of a reply.
    struct Response: Equatable, Sendable {
        var status: Int
        var url: String
        var contentType: String
        var redirects: Int
        var body: [UInt8]
        var end: End
    }

    /// Why the body stopped.
    enum End: String, Sendable {
        case complete, limit, timeout, cut
    }

    /// The format this host reads.
    static let version = 1
    static let firstLinePrefix = "presenter-host-fetch reply "
    /// The longest line read.
    static let maxLineBytes = 8192
    /// The failure kinds of format 1.
    static let failureKinds: Set<String> = [
        "timeout", "redirects", "resolve", "connect", "handshake", "certificate", "tls", "scheme", "other",
    ]

    /// Why a reply could not be read.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads a whole reply; `maxBody` is the most body bytes accepted.
    static func decode(_ bytes: [UInt8], maxBody: Int) throws(Malformed) -> WebTitleReply {
        var reader = LineReader(bytes: bytes)
        let first = try reader.line()
        guard first.hasPrefix(firstLinePrefix) else { throw Malformed("it does not start with '\(firstLinePrefix)'") }
        guard let version = Int(first.dropFirst(firstLinePrefix.count)) else {
            throw Malformed("its version is not a number")
        }
        guard version == self.version else {
            throw Malformed(
                "it is in reply format \(version), this presenter-host reads format \(self.version)"
                    + "; install presenter-host and presenter-host-fetch from the same build")
        }
        let second = try reader.line()
        let reply: WebTitleReply
        if second.hasPrefix("failure ") {
            let words = second.dropFirst("failure ".count)
            let kind = String(words.prefix(while: { $0 != " " }))
            guard failureKinds.contains(kind) else { throw Malformed("unknown failure kind '\(kind)'") }
            reply = .failure(kind: kind, detail: String(words.dropFirst(kind.count + 1)))
        } else {
            reader.pushBack(second)
            let status = try reader.number("status", in: 0...999)
            let url = try reader.field("url")
            let contentType = try reader.field("content-type")
            let redirects = try reader.number("redirects", in: 0...1000)
            let body = try reader.field("body").split(separator: " ", omittingEmptySubsequences: false)
            guard body.count == 2, let length = Int(body[0]), (0...maxBody).contains(length),
                let end = End(rawValue: String(body[1]))
            else {
                throw Malformed("its body line is not 'body N complete|limit|timeout|cut' with N up to \(maxBody)")
            }
            reply = .response(
                Response(
                    status: status, url: url, contentType: contentType, redirects: redirects,
                    body: try reader.bytes(length), end: end))
        }
        guard reader.atEnd else { throw Malformed("bytes follow its end") }
        return reply
    }
}

/// Lines and counted bytes from a reply, each line checked.
private struct LineReader {
    let bytes: [UInt8]
    var index = 0
    var pushedBack: String?

    var atEnd: Bool { pushedBack == nil && index == bytes.count }

    mutating func line() throws(WebTitleReply.Malformed) -> String {
        if let line = pushedBack {
            pushedBack = nil
            return line
        }
        let limit = min(bytes.count, index + WebTitleReply.maxLineBytes + 1)
        guard let newline = bytes[index..<limit].firstIndex(of: UInt8(ascii: "\n")) else {
            throw WebTitleReply.Malformed(index == bytes.count ? "it ends early" : "a line is too long or unended")
        }
        guard let line = String(validating: bytes[index..<newline], as: UTF8.self),
            // The reply's rule: ASCII's controls, which the fetcher turns into spaces.
            !line.unicodeScalars.contains(where: ControlCharacters.ascii.matches)
        else {
            throw WebTitleReply.Malformed("a line is not UTF-8 text")
        }
        index = newline + 1
        return line
    }

    mutating func pushBack(_ line: String) { pushedBack = line }

    /// The rest of a line "NAME VALUE".
    mutating func field(_ name: String) throws(WebTitleReply.Malformed) -> String {
        let line = try line()
        guard line.hasPrefix(name + " ") else { throw WebTitleReply.Malformed("'\(name)' is missing") }
        return String(line.dropFirst(name.count + 1))
    }

    mutating func number(_ name: String, in range: ClosedRange<Int>) throws(WebTitleReply.Malformed) -> Int {
        guard let value = Int(try field(name)), range.contains(value) else {
            throw WebTitleReply.Malformed("'\(name)' is not a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    mutating func bytes(_ count: Int) throws(WebTitleReply.Malformed) -> [UInt8] {
        guard bytes.count - index >= count else { throw WebTitleReply.Malformed("its body is shorter than announced") }
        defer { index += count }
        return Array(bytes[index..<index + count])
    }
}
