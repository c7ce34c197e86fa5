import Foundation
import Glibc
import Testing
@testable import HostSystem
@testable import HostBookmarks

/// The bookmark store's promises between processes, through the real
/// binary: `presenter-host add-bookmark --url U --title T --add --store S`
/// saves one bookmark per process, as a script would.
@Suite("Bookmarks: store between processes")
struct BookmarkStoreProcessTests {
    /// The arguments of one save.
    private static func addArguments(url: String, title: String, store: String) -> [String] {
        ["add-bookmark", "--url", url, "--title", title, "--add", "--store", store]
    }

    /// Off a terminal, no colour, a private home: what a script would see.
    private static let environment = ["HOME": "/nonexistent", "XDG_DATA_HOME": "/nonexistent/share", "TERM": "dumb"]

    @Test func oneSaveThroughTheBinaryIsInTheStore() throws {
        let store = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let result = try ProcessRunner.host(
            Self.addArguments(url: "https://example.com/", title: "Example", store: store),
            environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try BookmarkStore(path: store).load() == [Bookmark(url: "https://example.com/", title: "Example")])
    }

    @Test func aDamagedStoreIsReportedAndLeftByteForByte() throws {
        let store = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let content = Array("{\"version\": 1, \"bookmarks\": [{\"url\": \"https://a/\", \"title\": 1}]}\n".utf8)
        #expect(FileManager.default.createFile(atPath: store, contents: Data(content)))
        let result = try ProcessRunner.host(
            Self.addArguments(url: "https://b/", title: "B", store: store),
            environment: Self.environment)
        #expect(result.status != 0)
        #expect(
            result.stderr.contains(
                "\(store): /bookmarks/0/title: expected a string, found a number; the bookmark store was left as it is")
        )
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: store))) == content)
    }

    /// (An empty --url is a usage error of add-bookmark's before any validation.)
    @Test(arguments: [
        ("https://a/", " ", "Title cannot be empty"),
        ("ftp://a/", "T", "only http and https URLs can be saved"),
    ])
    func eachValidationErrorSavesNothing(_ url: String, _ title: String, _ message: String) throws {
        let store = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let result = try ProcessRunner.host(
            Self.addArguments(url: url, title: title, store: store),
            environment: Self.environment)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// Two scripts, each saving 500 bookmarks one process at a time, at once:
    /// every save's read-modify-write holds the lock, so none is lost.
    @Test func twoProcessesAdding500EachEndWithAll1000() throws {
        let store = TestPaths.temporaryDirectory("bm").path + "/bookmarks.json"
        let each = 500
        // A loop in sh: a writer process that runs the real binary 500 times.
        let script = """
            i=0
            while [ "$i" -lt \(each) ]; do
                "$PH" add-bookmark --url "https://w$W.example/$i" --title "W$W #$i" --add --store "$STORE" || exit 1
                i=$((i + 1))
            done
            """
        let writers = try ["1", "2"].map { writer in
            try TestProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", script],
                environment: Self.environment.merging(["PH": TestPaths.binary.path, "W": writer, "STORE": store]) {
                    $1
                },
                stdin: .null, stdout: .null, stderr: .pipe)
        }
        for writer in writers {
            let (_, errors) = writer.communicate()
            #expect(writer.wait() == 0, "\(String(decoding: errors, as: UTF8.self))")
        }
        let saved = try BookmarkStore(path: store).load()
        #expect(saved.count == 2 * each)
        for writer in ["1", "2"] {
            // All of this writer's, in the order it saved them.
            #expect(
                saved.filter { $0.url.hasPrefix("https://w\(writer).") }.map(\.title)
                    == (0..<each).map { "W\(writer) #\($0)" })
        }
    }

    /// Writers killed with SIGKILL at chosen moments, most while their save
    /// is under way (once its temporary file exists: writing, syncing or
    /// renaming it): after each kill the store is a valid bookmark store
    /// holding every bookmark whose save returned, and the killed writer's
    /// bookmark either whole or not at all.
    @Test func writersKilledPartWayLeaveAValidStoreWithEverySavedBookmark() throws {
        let dir = TestPaths.temporaryDirectory("bm")
        let store = dir.path + "/bookmarks.json"
        // A big store, so that each save takes long enough to be killed in.
        var document = BookmarkDocument()
        for index in 0..<1000 {
            _ = document.add(
                Bookmark(
                    url: "https://old.example/\(index)", title: "Old \(index) " + String(repeating: "x", count: 80)),
                added: "2026-01-01T00:00:00Z")
        }
        #expect(FileManager.default.createFile(atPath: store, contents: Data(document.encoded())))
        let temporaryName = String(BookmarkStoreFile.temporaryPrefix(of: store).dropFirst(dir.path.count + 1))
        func temporaries() -> Set<String> {
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter {
                    $0.hasPrefix(temporaryName)
                })
        }

        var expected = document.entries.map(\.bookmark)
        var killedMidSave = 0, completed = 0
        var generator = SeededGenerator(seed: 7)
        for round in 0..<40 {
            let bookmark = Bookmark(url: "https://new.example/\(round)", title: "New \(round)")
            // Those of earlier killed writers (this writer's save removes them).
            let earlier = temporaries()
            let writer = try TestProcess(
                TestPaths.binary, Self.addArguments(url: bookmark.url, title: bookmark.title, store: store),
                environment: Self.environment, stdin: .null, stdout: .null, stderr: .null)
            // Most rounds: kill as soon as the save is under way; some: let it finish.
            if Int.random(in: 0..<4, using: &generator) != 0 {
                let deadline = Date().addingTimeInterval(20)
                while temporaries().isSubset(of: earlier) && !(ProcessStat.read(writer.pid)?.isDead ?? true)
                    && Date() < deadline
                {
                    usleep(50)  // a poll, not a wait: the kill must land within the save
                }
                writer.send(SIGKILL)
            }
            let status = writer.wait()
            // A temporary file of its own left behind: killed between creating and renaming it.
            if status == 128 + SIGKILL && !temporaries().subtracting(earlier).isEmpty { killedMidSave += 1 }

            let saved = try BookmarkStore(path: store).load()
            if status == 0 {
                completed += 1
                expected.append(bookmark)
            } else {
                #expect(status == 128 + SIGKILL)
                // Killed after its rename: its bookmark is there, whole.
                if saved.last == bookmark { expected.append(bookmark) }
            }
            #expect(saved == expected, "round \(round): status \(status)")
            if saved != expected { break }
        }
        // The test did what it says: kills in the middle of a save, and saves that returned.
        #expect(killedMidSave >= 5, "only \(killedMidSave) kills landed mid-save")
        #expect(completed >= 1)

        // The next save removes what the killed ones left.
        try BookmarkStore(path: store).add(Bookmark(url: "https://last.example/", title: "Last"))
        #expect(temporaries().isEmpty)
        #expect(
            try BookmarkStore(path: store).load() == expected + [Bookmark(url: "https://last.example/", title: "Last")])
    }
}
