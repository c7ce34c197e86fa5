import Foundation
import Testing
@testable import HostBookmarks
#if canImport(Glibc)
    import Glibc
#endif

/// The bookmark store through its library API: where it lives, what it
/// saves, the permissions it keeps, the stores it refuses to touch, and
/// threads saving at once.
@Suite("Bookmarks: store")
struct BookmarkStoreTests {
    // MARK: - Where the store is

    @Test func storeFlagWinsThenEnvironmentThenXDG() {
        let environment = ["PRESENTER_BOOKMARKS": "/env/b.json", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]
        #expect(BookmarkStore.path(store: "/flag/b.json", environment: environment) == "/flag/b.json")
        #expect(BookmarkStore.path(store: nil, environment: environment) == "/env/b.json")
        #expect(BookmarkStore.path(store: "", environment: environment) == "/env/b.json")
        var noVariable = environment
        noVariable["PRESENTER_BOOKMARKS"] = ""
        #expect(BookmarkStore.path(store: nil, environment: noVariable) == "/xdg/presenter-host/bookmarks.json")
        noVariable["XDG_DATA_HOME"] = "/xdg/"
        #expect(BookmarkStore.path(store: nil, environment: noVariable) == "/xdg/presenter-host/bookmarks.json")
    }

    @Test func unsetEmptyOrRelativeXDGMeansLocalShare() {
        let expected = "/home/u/.local/share/presenter-host/bookmarks.json"
        #expect(BookmarkStore.path(store: nil, environment: ["HOME": "/home/u"]) == expected)
        #expect(BookmarkStore.path(store: nil, environment: ["HOME": "/home/u", "XDG_DATA_HOME": ""]) == expected)
        #expect(
            BookmarkStore.path(store: nil, environment: ["HOME": "/home/u", "XDG_DATA_HOME": "rel/data"]) == expected)
    }

    @Test func noHomeMeansTheUserDatabasesHome() {
        let home = String(cString: getpwuid(getuid())!.pointee.pw_dir)
        #expect(
            BookmarkStore.path(store: nil, environment: [:]) == home + "/.local/share/presenter-host/bookmarks.json")
    }

    // MARK: - Saving and loading

    @Test func missingStoreLoadsEmptyAndCreatesNothing() throws {
        let dir = TestPaths.temporaryDirectory("bm")
        let store = BookmarkStore(path: dir.path + "/sub/bookmarks.json")
        #expect(try store.load() == [])
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/sub"))
    }

    @Test func addCreatesFolderAndFileThenLoadsInOrder() throws {
        let dir = TestPaths.temporaryDirectory("bm")
        let path = dir.path + "/a/b/bookmarks.json"
        let store = BookmarkStore(path: path)
        #expect(try store.add(Bookmark(url: "https://one.example", title: "One")) == true)
        #expect(try store.add(Bookmark(url: "https://two.example", title: "Two")) == true)
        #expect(
            try store.load() == [
                Bookmark(url: "https://one.example", title: "One"),
                Bookmark(url: "https://two.example", title: "Two"),
            ])
        // New folders are private to the user, as XDG asks.
        #expect(mode(dir.path + "/a") == 0o700)
        #expect(mode(dir.path + "/a/b") == 0o700)
        // A new store gets 0666 less the umask, as any new file.
        #expect(mode(path) == 0o666 & ~currentUmask())
        // Only the store and its lock file are left in the folder.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path + "/a/b").sorted()
                == ["bookmarks.json", "bookmarks.json.lock"])
    }

    @Test func theFileIsTheDocumentedFormat() throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        try BookmarkStore(path: path).add(Bookmark(url: "https://example.com/a/b", title: "Example \"Domain\""))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let added = try #require(try BookmarkStore(path: path).document().entries.first?.added)
        #expect(BookmarkDocument.isDateTime(added) && added.hasSuffix("Z"))
        #expect(
            text == """
                {
                  "bookmarks": [
                    {
                      "added": "\(added)",
                      "title": "Example \\"Domain\\"",
                      "url": "https://example.com/a/b"
                    }
                  ],
                  "version": 1
                }

                """)
        // And any JSON reader agrees.
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["version"] as? Int == 1)
    }

    @Test func sameURLUpdatesTheTitleKeepingItsPlaceAndDate() throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let store = BookmarkStore(path: path)
        try store.add(Bookmark(url: "https://a", title: "A"))
        try store.add(Bookmark(url: "https://b", title: "B"))
        let before = try store.document().entries[0].added
        #expect(try store.add(Bookmark(url: "https://a", title: "A2")) == false)
        #expect(try store.load() == [Bookmark(url: "https://a", title: "A2"), Bookmark(url: "https://b", title: "B")])
        #expect(try store.document().entries[0].added == before)
    }

    @Test func theSameBookmarkAgainDoesNotRewriteTheFile() throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let store = BookmarkStore(path: path)
        try store.add(Bookmark(url: "https://a", title: "A"))
        let inode = try #require(fileInfo(path)).st_ino
        #expect(try store.add(Bookmark(url: "https://a", title: "A")) == false)
        #expect(fileInfo(path)?.st_ino == inode)
        // While a real change replaces the file (a new inode: rename, not rewrite in place).
        try store.add(Bookmark(url: "https://a", title: "B"))
        #expect(fileInfo(path)?.st_ino != inode)
    }

    @Test func anyTextRoundTrips() throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let store = BookmarkStore(path: path)
        let odd = [
            Bookmark(url: "https://example.com/?q=\"a\"\\b/c", title: "quote \" backslash \\ slash /"),
            Bookmark(url: "https://例子.测试/路径", title: "tab\tnewline\nreturn\rbell\u{07}del\u{7F}nul\u{00}"),
            Bookmark(url: "https://e.example", title: "emoji 😀 e\u{301} line\u{2028}sep \u{1B}[31m"),
        ]
        for bookmark in odd { try store.add(bookmark) }
        #expect(try store.load() == odd)
        #expect(try BookmarkStore(path: path).load() == odd)
    }

    // MARK: - Permissions, owner, links

    @Test(arguments: [0o600, 0o640, 0o604, 0o666] as [mode_t])
    func theFileKeepsItsPermissions(_ permissions: mode_t) throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let store = BookmarkStore(path: path)
        try store.add(Bookmark(url: "https://a", title: "A"))
        #expect(chmod(path, permissions) == 0)
        try store.add(Bookmark(url: "https://b", title: "B"))
        #expect(mode(path) == permissions)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func theFileKeepsItsOwnerWhenAllowed() throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let store = BookmarkStore(path: path)
        try store.add(Bookmark(url: "https://a", title: "A"))
        #expect(chown(path, 4321, 4322) == 0)
        try store.add(Bookmark(url: "https://b", title: "B"))
        #expect(fileInfo(path)?.st_uid == 4321)
        #expect(fileInfo(path)?.st_gid == 4322)
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsSaved() throws {
        let dir = TestPaths.temporaryDirectory("bm")
        try FileManager.default.createDirectory(atPath: dir.path + "/real", withIntermediateDirectories: true)
        let target = dir.path + "/real/store.json"
        try BookmarkStore(path: target).add(Bookmark(url: "https://a", title: "A"))
        let link = dir.path + "/link.json"
        #expect(symlink(target, link) == 0)
        try BookmarkStore(path: link).add(Bookmark(url: "https://b", title: "B"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try BookmarkStore(path: target).load().map(\.url) == ["https://a", "https://b"])
    }

    // MARK: - Stores that are never touched

    /// Each damaged store, the error's reason (after the path) and kind.
    static let damaged: [(content: [UInt8], reason: String)] = [
        (
            Array("{\"version\": 1, \"bookmarks\": [\n  {\"url\": \"a\" \"title\": \"b\"}]}".utf8),
            ":2:15: expected ',' or '}', found '\"'"
        ),
        (Array("".utf8), ": the file is empty, not a bookmark store ({\"version\": 1, \"bookmarks\": [...]})"),
        (
            Array("{\"version\": 1, \"bookmarks\": [{\"url\": \"a\", \"title\": \"\u{FF}\"}]}".utf8).map {
                $0 == 0xC3 ? 0xFF : $0
            },
            ":1:53: not valid UTF-8 text"
        ),
        (Array("[]".utf8), ": /: expected an object with version, bookmarks, found an array"),
        (Array("{\"bookmarks\": []}".utf8), ": /: no \"version\""),
        (
            Array("{\"version\": 2, \"bookmarks\": []}".utf8),
            ": /version: format version 2 is newer than this presenter-host reads (1); upgrade presenter-host"
        ),
        (
            Array("{\"version\": \"1\", \"bookmarks\": []}".utf8),
            ": /version: expected a format version such as 1, found a string"
        ),
        (
            Array("{\"version\": 1, \"bookmarks\": {}}".utf8),
            ": /bookmarks: expected an array of bookmarks, found an object"
        ),
        (
            Array("{\"version\": 1, \"bookmarks\": [], \"extra\": 0}".utf8),
            ": /extra: unknown key 'extra' (expected version, bookmarks)"
        ),
        (
            Array("{\"version\": 1, \"bookmarks\": [{\"url\": \"a\", \"added\": \"2026-01-01T00:00:00Z\"}]}".utf8),
            ": /bookmarks/0: no \"title\""
        ),
        (
            Array(
                "{\"version\": 1, \"bookmarks\": [{\"url\": \"a\", \"title\": null, \"added\": \"2026-01-01T00:00:00Z\"}]}"
                    .utf8),
            ": /bookmarks/0/title: expected a string, found null"
        ),
        (
            Array(
                "{\"version\": 1, \"bookmarks\": [{\"url\": \"a\", \"title\": \"t\", \"added\": \"yesterday\"}]}".utf8),
            ": /bookmarks/0/added: 'yesterday' is not an RFC 3339 date-time such as 2026-12-01T00:57:38Z"
        ),
        (
            Array(
                ("{\"version\": 1, \"bookmarks\": [{\"url\": \"a\", \"title\": \"t\", \"added\": \"2026-01-01T00:00:00Z\"},"
                    + " {\"url\": \"a\", \"title\": \"u\", \"added\": \"2026-01-01T00:00:00Z\"}]}").utf8),
            ": /bookmarks/1/url: the URL of /bookmarks/0 again (one bookmark per URL)"
        ),
        (
            Array("{\"version\": 1, \"bookmarks\": [{\"url\": \"a\", \"url\": \"b\"}]}".utf8),
            ": /bookmarks/0/url: 'url' appears twice"
        ),
    ]

    @Test(arguments: damaged.indices)
    func aDamagedStoreIsReportedAndLeftByteForByte(_ index: Int) throws {
        let (content, reason) = Self.damaged[index]
        let dir = TestPaths.temporaryDirectory("bm")
        let path = dir.path + "/bookmarks.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        #expect(chmod(path, 0o640) == 0)
        let before = try #require(fileInfo(path))
        let store = BookmarkStore(path: path)
        let expected = BookmarkStoreError(
            .corrupt, path + reason + "; the bookmark store was left as it is: fix it or move it away")
        #expect(throws: expected) { try store.load() }
        #expect(throws: expected) { try store.add(Bookmark(url: "https://new", title: "New")) }
        // Untouched: the same bytes, inode, mode and modification time, no temporary left.
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == content)
        let after = try #require(fileInfo(path))
        #expect(after.st_ino == before.st_ino)
        #expect(after.st_mode == before.st_mode)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
                == ["bookmarks.json", "bookmarks.json.lock"])
    }

    /// A torn file (what a non-atomic writer could leave) is never read as
    /// a shorter store: every strict prefix of a store is an error.
    @Test func everyTruncatedStoreIsAnError() throws {
        var document = BookmarkDocument()
        for index in 0..<3 {
            _ = document.add(Bookmark(url: "https://\(index)", title: "T \(index) é"), added: "2026-01-01T00:00:00Z")
        }
        let bytes = document.encoded()
        #expect(try BookmarkDocument.parse(bytes, path: "s") == document)
        for length in 0..<bytes.count where !bytes[length...].allSatisfy({ $0 == 0x0a }) {
            #expect(throws: BookmarkStoreError.self) { try BookmarkDocument.parse(Array(bytes[..<length]), path: "s") }
        }
    }

    @Test func aFolderInPlaceOfTheStoreCannotBeRead() throws {
        let dir = TestPaths.temporaryDirectory("bm")
        let path = dir.path + "/bookmarks.json"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let expected = BookmarkStoreError(
            .unreadable,
            "\(path): the bookmark store is not a regular file; give a file's path to --store or PRESENTER_BOOKMARKS")
        #expect(throws: expected) { try BookmarkStore(path: path).load() }
        #expect(throws: expected) { try BookmarkStore(path: path).add(Bookmark(url: "https://a", title: "A")) }
    }

    @Test func aFileInPlaceOfTheFolderCannotBeWritten() throws {
        let dir = TestPaths.temporaryDirectory("bm")
        #expect(FileManager.default.createFile(atPath: dir.path + "/plain", contents: Data("x".utf8)))
        let store = BookmarkStore(path: dir.path + "/plain/sub/bookmarks.json")
        #expect(
            throws: BookmarkStoreError(
                .unwritable,
                "\(dir.path)/plain/sub: cannot create the bookmark store's folder: Not a directory; create it or choose another store with --store"
            )
        ) {
            try store.add(Bookmark(url: "https://a", title: "A"))
        }
        #expect(
            throws: BookmarkStoreError(
                .unreadable,
                "\(dir.path)/plain/sub/bookmarks.json: cannot read the bookmark store: Not a directory; check the file's and its folders' permissions"
            )
        ) {
            try store.load()
        }
        #expect(try String(contentsOfFile: dir.path + "/plain", encoding: .utf8) == "x")
    }

    @Test func aSaveKilledBeforeItsRenameLeavesNothingBehindTheNextSave() throws {
        let dir = TestPaths.temporaryDirectory("bm")
        let path = dir.path + "/bookmarks.json"
        let store = BookmarkStore(path: path)
        try store.add(Bookmark(url: "https://a", title: "A"))
        // What a save killed between creating and renaming its file leaves.
        let stale = BookmarkStoreFile.temporaryPrefix(of: path) + "1f2e3d"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data("{\"version\": 1, \"book".utf8)))
        #expect(try store.load() == [Bookmark(url: "https://a", title: "A")])
        try store.add(Bookmark(url: "https://b", title: "B"))
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(try store.load().count == 2)
    }

    // MARK: - Concurrency

    @Test func threadsSavingAtOnceLoseNothing() async throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let (threads, each) = (8, 25)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    // Each task its own store value, as separate callers would have.
                    let store = BookmarkStore(path: path)
                    for index in 0..<each {
                        try store.add(
                            Bookmark(url: "https://t\(thread).example/\(index)", title: "T\(thread) #\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let saved = try BookmarkStore(path: path).load()
        #expect(saved.count == threads * each)
        #expect(Set(saved.map(\.url)).count == threads * each)
        // Each thread's bookmarks are in the order it saved them.
        for thread in 0..<threads {
            let mine = saved.filter { $0.url.hasPrefix("https://t\(thread).") }.map(\.title)
            #expect(mine == (0..<each).map { "T\(thread) #\($0)" })
        }
    }

    // MARK: - Dates

    @Test func dateTimesAreRFC3339() {
        for good in [
            "2026-12-01T00:57:38Z", "2026-12-01t00:57:38z", "2026-12-01T00:57:38.123Z",
            "2026-12-01T00:57:38+01:00", "1999-02-28T23:59:60-12:30",
        ] {
            #expect(BookmarkDocument.isDateTime(good), "\(good)")
        }
        for bad in [
            "", "yesterday", "2026-12-01", "2026-12-01 00:57:38Z", "2026-13-01T00:57:38Z",
            "2026-12-00T00:57:38Z", "2026-12-01T24:00:00Z", "2026-12-01T00:60:00Z", "2026-12-01T00:57:38",
            "2026-12-01T00:57:38.Z", "2026-12-01T00:57:38+0100", "2026-12-01T00:57:38Zx", "２026-12-01T00:57:38Z",
        ] {
            #expect(!BookmarkDocument.isDateTime(bad), "\(bad)")
        }
        #expect(BookmarkDocument.timestamp(0) == "1970-01-01T00:00:00Z")
        #expect(BookmarkDocument.timestamp(1_796_000_000) == "2026-11-30T00:53:20Z")
    }
}

// MARK: - Helpers

/// `stat` of `path`, or nil.
private func fileInfo(_ path: String) -> stat? {
    var info = stat()
    return stat(path, &info) == 0 ? info : nil
}

/// The permission bits of `path`.
private func mode(_ path: String) -> mode_t? {
    fileInfo(path).map { $0.st_mode & 0o7777 }
}

/// This process's umask, read without changing it (umask(2) would, for a
/// moment, for every thread).
private func currentUmask() -> mode_t {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") } ?? "Umask: 0022"
    return mode_t(line.split(separator: "\t").last.flatMap { UInt32($0, radix: 8) } ?? 0o022)
}
