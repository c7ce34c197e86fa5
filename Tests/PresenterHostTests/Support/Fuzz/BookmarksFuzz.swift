// The fuzz target for the bookmark store's reader
// (`scripts/fuzz --target bookmarks`): the input is the store file's bytes,
// parsed by BookmarkDocument.parse. Checked on every input: a store that
// reads writes back to bytes that read as the same store, and a damaged
// one is one error naming the file with no control character (a key with
// a newline once broke the line: regression-key-with-newline).

#if !PRESENTER_FUZZ
    @testable import HostBookmarks
#endif

enum BookmarksFuzz {
    static func run(_ input: [UInt8]) {
        let document: BookmarkDocument
        do throws(BookmarkStoreError) {
            document = try BookmarkDocument.parse(input, path: "bookmarks.json")
        } catch {
            guard error.reason.hasPrefix("bookmarks.json") else {
                fuzzFailure("a damaged store gave \(error.reason.debugDescription)")
            }
            fuzzCheckOneLine(error.reason, "a damaged store")
            return
        }
        let encoded = document.encoded()
        guard let again = try? BookmarkDocument.parse(encoded, path: "bookmarks.json"), again == document else {
            fuzzFailure(
                "a store read as \(document) writes \(fuzzText(encoded).debugDescription), which reads otherwise")
        }
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        var document = BookmarkDocument()
        _ = document.add(
            Bookmark(url: "https://example.com/a?q=1&r=2", title: "Fish & Chips — café 😀"),
            added: "2026-12-01T00:57:38Z")
        _ = document.add(
            Bookmark(url: "http://[::1]:8080/", title: "\"quoted\" \\ tab\t"), added: "2026-02-28T23:59:60+05:30")
        let text: [(String, String)] = [
            ("empty-store", #"{"version": 1, "bookmarks": []}"#),
            ("newer", #"{"version": 2, "bookmarks": []}"#),
            (
                "unknown-key",
                #"{"version": 1, "bookmarks": [{"url": "http://a/", "title": "a", "added": "2026-12-01T00:57:38Z", "x": 1}]}"#
            ),
            (
                "repeated-url",
                #"{"version": 1, "bookmarks": [{"url": "http://a/", "title": "a", "added": "2026-12-01T00:57:38Z"}, {"url": "http://a/", "title": "b", "added": "2026-12-01T00:57:38.123Z"}]}"#
            ),
            (
                "bad-date",
                #"{"version": 1, "bookmarks": [{"url": "http://a/", "title": "a", "added": "2026-13-01T00:57:38Z"}]}"#
            ),
        ]
        return [("store", document.encoded()), ("store-path", document.encoded(path: "/tmp/x"))]
            + text.map { ($0.0, Array($0.1.utf8)) }
    }
}
