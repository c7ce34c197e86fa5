// The fuzz target for what get-title reads from the network
// (`scripts/fuzz --target web-title`): a page's bytes (title extraction,
// charset sniffing and decoding, character references) and
// presenter-host-fetch's reply.
//
// Input layout (any bytes are valid input):
//
//   byte 0      the Content-Type the page came with (see `contentTypes`)
//   byte 1      bit 0: the page is complete (else it was cut short)
//   byte 2...   the payload
//
// For each input:
//  1. the payload as a page: TitleExtractor.title, and Charset.sniff with
//     the sniffed charset's decode of the whole page;
//  2. the payload as text: HTMLEntities.decode, MediaType, the meta
//     content's charset;
//  3. the payload as a reply of presenter-host-fetch: WebTitleReply.decode
//     and, when it decodes, what it means (WebTitle.title(from:)); a
//     reason never shows the user information (a password) of the
//     reply's URL.
// Always checked (cheap): a title is one trimmed line (no control
// characters, no white space at either end or twice in a row); decoding
// references never lengthens text.
//
// With oracles (scripts/fuzz --oracles, and always in the replay test) also:
//  - a page whose title element ends gives the same title whether or not
//    the page is complete;
//  - a page that is valid UTF-8, served as UTF-8, gives the same title as
//    the same text in UTF-16 with a byte order mark (the byte scanner and
//    the decoded-text path agree).

import Foundation
#if !PRESENTER_FUZZ
    @testable import HostBookmarks
    @testable import HostText
#endif

/// The Content-Type headers byte 0 chooses from (modulo their count).
private let contentTypes = [
    "", "text/html", "text/html; charset=utf-8", "text/html; charset=ISO-8859-1", "text/html; charset=shift_jis",
    "text/html; charset=koi8-r", "text/html; charset=gbk", "text/html; charset=utf-16le", "text/html; charset=big5",
    "application/xhtml+xml; charset=\"windows-1251\"", "text/html; charset=x-unknown", "application/json",
]

enum WebTitleFuzz {
    static func run(_ input: [UInt8], oracles: Bool) {
        let size = input.count
        let contentType = MediaType(contentTypes[Int(size > 0 ? input[0] : 0) % contentTypes.count])
        let complete = size > 1 ? input[1] & 1 == 1 : true
        let payload = Array(input.dropFirst(2))

        // 1. A page.
        let title = TitleExtractor.title(in: payload, contentType: contentType, complete: complete)
        if let title { checkOneLine(title) }
        let (charset, start) = Charset.sniff(payload[...], contentType: contentType)
        _ = charset.decode(payload[start...])
        if oracles { checkAgreement(payload, contentType: contentType, complete: complete, title: title) }

        // 2. Text.
        let text = String(decoding: payload, as: UTF8.self)
        let decoded = HTMLEntities.decode(text)
        guard decoded.unicodeScalars.count <= text.unicodeScalars.count else {
            fuzzFailure("decoding references lengthened \(text.debugDescription) to \(decoded.debugDescription)")
        }
        _ = MediaType(text).isHTML
        _ = Charset.charsetInMetaContent(text)

        // 3. A reply.
        if let reply = try? WebTitleReply.decode(payload, maxBody: WebTitle.maxBytes) {
            switch WebTitle.title(from: reply, url: "http://example.com/", timeout: 10) {
            case .success(let title): checkOneLine(title)
            case .failure(let error):
                if case .response(let response) = reply, WebTitle.withoutUserInfo(response.url) != response.url,
                    error.reason.contains(PrintableText.escaping(response.url))
                {
                    fuzzFailure("\(error.reason.debugDescription) shows the user information of \(response.url)")
                }
            }
        }
    }
}

/// A title is one trimmed line with single spaces.
private func checkOneLine(_ title: String) {
    let scalars = Array(title.unicodeScalars)
    if let bad = scalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
        fuzzFailure("the title \(title.debugDescription) holds U+\(String(bad.value, radix: 16))")
    }
    if scalars.first == " " || scalars.last == " " || title.contains("  ") {
        fuzzFailure("the title \(title.debugDescription) is not trimmed and collapsed")
    }
}

private func checkAgreement(_ page: [UInt8], contentType: MediaType, complete: Bool, title: String?) {
    // A title element that ended is the title, complete page or not.
    if let range = TitleExtractor.titleRange(in: page[...], complete: false), range.upperBound < page.count,
        Charset.sniff(page[...], contentType: contentType).charset.isASCIICompatible
    {
        let other = TitleExtractor.title(in: page, contentType: contentType, complete: !complete)
        guard other == title else {
            fuzzFailure("complete: \(complete) gives \(String(describing: title)), not \(String(describing: other))")
        }
    }
    // UTF-8 and UTF-16 of the same text give the same title.
    guard let text = String(validating: page, as: UTF8.self), !page.starts(with: [0xEF, 0xBB, 0xBF]) else { return }
    let asUTF8 = TitleExtractor.title(in: page, contentType: MediaType("text/html; charset=utf-8"), complete: true)
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let asUTF16 = TitleExtractor.title(in: utf16, contentType: MediaType("text/html"), complete: true)
    guard asUTF8 == asUTF16 else {
        fuzzFailure(
            "UTF-8 gives \(String(describing: asUTF8)), UTF-16 \(String(describing: asUTF16)) for \(text.debugDescription)"
        )
    }
}

// MARK: - Seeds

extension WebTitleFuzz {
    /// Content-Type index, completeness flag, then the payload.
    private static func input(_ type: Int, complete: Bool = true, _ payload: [UInt8]) -> [UInt8] {
        [UInt8(type), complete ? 1 : 0] + payload
    }

    static func seeds() -> [(String, [UInt8])] {
        let page = { (text: String) in Array(text.utf8) }
        return [
            (
                "upper",
                input(1, page("<!DOCTYPE html><HTML><HEAD><TITLE Lang=\"en\" data-x='a>b'>\n Upper\tCase </TITLE>"))
            ),
            (
                "entities",
                input(2, page("<title>Fish &amp; Chips &#8212; caf&eacute; &#x1F600; &copy 2024 &notit;</title>"))
            ),
            (
                "decoys",
                input(
                    1,
                    page(
                        "<!-- <title>x</title> --><script>'<title>y</title>'</script><svg><title>i</title></svg>"
                            + "<title>real</title>"))
            ),
            ("meta", input(0, page("<meta charset=\"koi8-r\"><title>") + [0xF0, 0xD2, 0xC9] + page("</title>"))),
            (
                "http-equiv",
                input(
                    1,
                    page("<META HTTP-EQUIV=Content-Type CONTENT='text/html; charset=Shift_JIS'><title>")
                        + [0x93, 0xFA, 0x96, 0x7B, 0x93] + page("</title>"))
            ),
            ("latin1", input(3, page("<title>Caf") + [0xE9, 0x80] + page("</title>"))),
            (
                "utf16",
                input(
                    0,
                    [0xFF, 0xFE] + Array("<title>Ünï 😀</title>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            ),
            ("cut", input(1, complete: false, page("<html><head><title>Cut sh"))),
            ("unended", input(1, page("<title>runs to the end &amp"))),
            (
                "reply-page",
                input(
                    0,
                    page(
                        "presenter-host-fetch reply 1\nstatus 200\nurl http://example.com/\n"
                            + "content-type text/html; charset=utf-8\nredirects 1\nbody 16 complete\n<title>x</title>"))
            ),
            ("reply-failure", input(0, page("presenter-host-fetch reply 1\nfailure redirects 5\n"))),
            ("bidi-title", input(2, page("<title>a\u{202E}b\u{2066}c\u{2069}\u{200B}d\u{FEFF}e\u{85}f</title>"))),
            (
                "reply-scheme",
                input(0, page("presenter-host-fetch reply 1\nfailure scheme file:///etc/passwd?user=a:b@c\n"))
            ),
            (
                "reply-user-info",
                input(
                    0,
                    page(
                        "presenter-host-fetch reply 1\nstatus 401\nurl http://alice:s3cret@example.com/\n"
                            + "content-type text/html\nredirects 0\nbody 0 complete\n"))
            ),
            (
                "reply-limit",
                input(
                    0,
                    page(
                        "presenter-host-fetch reply 1\nstatus 200\nurl http://e/\ncontent-type \n"
                            + "redirects 0\nbody 12 limit\n<title>cut at"))
            ),
        ]
    }
}
