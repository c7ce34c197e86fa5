import Foundation
import Glibc
import Testing
@testable import HostBookmarks
@testable import HostCommandLine

/// `presenter-host bookmarks` run as a process: the table, `--json`, which
/// store it reads, and stores it cannot read.
@Suite("Bookmarks: the bookmarks command")
struct BookmarksCommandTests {
    /// Runs the built binary with a private home and data home.
    private func host(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let home = TestPaths.temporaryDirectory("home")
        let isolated = ["HOME": home.path, "XDG_DATA_HOME": home.path + "/share", "PRESENTER_BOOKMARKS": ""]
        return try ProcessRunner.host(["bookmarks"] + arguments, environment: isolated.merging(environment) { $1 })
    }

    /// A store at a fresh path holding `bookmarks`, saved through the library.
    private func store(_ bookmarks: [Bookmark]) throws -> String {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        for bookmark in bookmarks { try BookmarkStore(path: path).add(bookmark) }
        return path
    }

    @Test func aMissingStoreListsNothingAndIsNotCreated() throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/none/bookmarks.json"
        let result = try host(["--store", path])
        #expect(result.status == 0)
        #expect(result.stdout == "No bookmarks saved yet in \(path).\n")
        #expect(result.stderr == "")
        #expect(
            !FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + ".lock"))
    }

    @Test func theTableLinesUpWideTitlesAndEscapesControlCharacters() throws {
        let path = try store([
            Bookmark(url: "https://example.com/", title: "Example Domain"),
            Bookmark(url: "https://例子.测试/", title: "例子 page"),
            Bookmark(url: "https://evil.example/", title: "Evil\u{1B}[2J\ntitle"),
        ])
        let result = try host(["--store", path])
        #expect(result.status == 0, "\(result.stderr)")
        let today = BookmarkDocument.timestamp().prefix(10)
        #expect(
            result.stdout == """
                ADDED       TITLE               URL
                \(today)  Example Domain      https://example.com/
                \(today)  例子 page           https://例子.测试/
                \(today)  Evil\\x1B[2J\\ntitle  https://evil.example/

                """)
    }

    @Test func jsonIsTheStoresDocumentWithItsPath() throws {
        let path = try store([
            Bookmark(url: "https://a.example/", title: "A \"quoted\" title"),
            Bookmark(url: "https://b.example/", title: "B"),
        ])
        let result = try host(["--json", "--store", path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["version", "path", "bookmarks"])
        #expect(object["version"] as? Int == 1)
        #expect(object["path"] as? String == path)
        let bookmarks = try #require(object["bookmarks"] as? [[String: String]])
        #expect(bookmarks.map { $0["url"] } == ["https://a.example/", "https://b.example/"])
        #expect(bookmarks.map { $0["title"] } == ["A \"quoted\" title", "B"])
        #expect(bookmarks.allSatisfy { BookmarkDocument.isDateTime($0["added"] ?? "") })
        // The same document the file holds, plus the path.
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            result.stdout
                == file.replacingOccurrences(of: "  \"version\"", with: "  \"path\": \"\(path)\",\n  \"version\""))
    }

    @Test func theStoreIsStoreThenVariableThenDataHome() throws {
        let flag = try store([Bookmark(url: "https://flag/", title: "flag")])
        let variable = try store([Bookmark(url: "https://variable/", title: "variable")])
        let dataHome = TestPaths.temporaryDirectory("share")
        try BookmarkStore(path: dataHome.path + "/presenter-host/bookmarks.json").add(
            Bookmark(url: "https://xdg/", title: "xdg"))
        func titles(_ arguments: [String], _ environment: [String: String]) throws -> [String] {
            let result = try host(["--json"] + arguments, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (object?["bookmarks"] as? [[String: String]] ?? []).compactMap { $0["title"] }
        }
        let environment = ["PRESENTER_BOOKMARKS": variable, "XDG_DATA_HOME": dataHome.path]
        #expect(try titles(["--store", flag], environment) == ["flag"])
        #expect(try titles(["--store=" + flag], environment) == ["flag"])
        #expect(try titles([], environment) == ["variable"])
        #expect(try titles([], ["XDG_DATA_HOME": dataHome.path]) == ["xdg"])
    }

    @Test func aDamagedStoreExits65WithOneLineAndIsLeftAlone() throws {
        let path = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let content = "{\"version\": 1, \"bookmarks\": [\n"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content.utf8)))
        let result = try host(["--store", path])
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "Error: \(path):2:1: expected a JSON value, found end of file; the bookmark store was left as it is: fix it or move it away\n"
        )
        #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
    }

    @Test func aFolderAsTheStoreExits66() throws {
        let path = TestPaths.temporaryDirectory("bm").path
        let result = try host(["--store", path])
        #expect(result.status == 66)
        #expect(
            result.stderr
                == "Error: \(path): the bookmark store is not a regular file; give a file's path to --store or PRESENTER_BOOKMARKS\n"
        )
    }

    /// Root reads any file, so the check runs the binary as `nobody`.
    @Test(
        .enabled(
            if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv to drop privileges"))
    func anUnreadableStoreExits66ForAnUnprivilegedUser() throws {
        let directory = TestPaths.temporaryDirectory("bm")
        let path = try store([Bookmark(url: "https://a/", title: "A")])
        try FileManager.default.copyItem(atPath: path, toPath: directory.path + "/bookmarks.json")
        #expect(chmod(directory.path + "/bookmarks.json", 0o600) == 0)
        // A copy of the binary in a world-readable folder: the build folder may not be.
        let bin = TestPaths.temporaryDirectory("bin")
        try copyExecutable(TestPaths.binary, to: bin.appendingPathComponent("presenter-host"))
        for folder in [directory, bin] { try #require(chmod(folder.path, 0o755) == 0) }
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", bin.path + "/presenter-host",
                "bookmarks", "--store", directory.path + "/bookmarks.json",
            ],
            environment: ["HOME": "/nonexistent"])
        #expect(result.status == 66)
        #expect(
            result.stderr
                == "Error: \(directory.path)/bookmarks.json: cannot read the bookmark store: Permission denied; check the file's and its folders' permissions\n"
        )
    }

    @Test(arguments: [
        (["--bogus"], "Unknown option '--bogus'"),
        (["extra"], "Unexpected argument 'extra'"),
        (["--store"], "Missing value for '--store <file>'"),
        (
            ["--store", ""],
            "'--store ' is not a file's path; give the bookmark store's file, e.g. --store ~/bookmarks.json"
        ),
        (
            ["--store=/tmp/"],
            "'--store /tmp/' is not a file's path; give the bookmark store's file, e.g. --store ~/bookmarks.json"
        ),
    ])
    func badArgumentsExit64WithTheUsage(_ arguments: [String], _ message: String) throws {
        let result = try host(arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "Error: \(message)\nUsage: presenter-host bookmarks [--json] [--store <file>]\nSee 'presenter-host bookmarks --help'.\n"
        )
    }

    @Test func flagsBeforeTheWordAreAUsageError() throws {
        let result = try ProcessRunner.host(["--list", "bookmarks"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: '--list' cannot be combined with 'bookmarks'; put bookmarks' options after 'bookmarks'\n")
        )
    }

    @Test func helpIsOnStdout() throws {
        let result = try host(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: " + CommandTable.bookmarks.synopsis[0]))
        #expect(result.stdout.contains("--json") && result.stdout.contains("--store <file>"))
        let top = try ProcessRunner.host(["--help"])
        #expect(top.stdout.contains("presenter-host bookmarks [--json] [--store <file>]"))
    }
}
