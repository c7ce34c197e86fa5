import Foundation
import Testing
@testable import HostSystem

/// One home for every per-user folder (issue 37): with `HOME` unset, empty
/// or relative, the plugin folder stays in the search path, under the user
/// database's home, where the bookmarks go too, and `--print-plugin-path`
/// says which home that is.
@Suite("HOME: one resolved home for plugins and bookmarks")
struct HomeResolutionTests {
    @Test(arguments: ["-u HOME", "HOME=", "HOME=relative/home"])
    func aHomeThatIsNotAbsoluteIsTheUserDatabases(_ setting: String) throws {
        let home = UserAccount.homeDirectory()
        try #require(home.hasPrefix("/"), "this user has no home in the user database")
        let run = try BoundedScript(
            """
            env -u XDG_DATA_HOME -u PRESENTER_BOOKMARKS \(setting) "$HOST" --print-plugin-path 2>path.err > path
            echo "path=$?"
            env -u XDG_DATA_HOME -u PRESENTER_BOOKMARKS \(setting) "$HOST" bookmarks --json > bookmarks
            echo "bookmarks=$?"
            """)
        #expect(run.values["path"] == "0", "\(run.transcript)")
        let trimmed = home == "/" ? "" : home
        let paths = try String(contentsOfFile: run.folder + "/path", encoding: .utf8).split(separator: "\n")
        #expect(paths.contains("\(trimmed)/.local/share/presenter-host/plugins"), "\(paths)")
        let note = try String(contentsOfFile: run.folder + "/path.err", encoding: .utf8)
        #expect(note.contains(": the user's folders are under \(trimmed), the user database's home"), "\(note)")
        let bookmarks = try String(contentsOfFile: run.folder + "/bookmarks", encoding: .utf8)
        #expect(
            bookmarks.contains("\(trimmed)/.local/share/presenter-host/bookmarks.json"),
            "\(run.transcript)\n\(bookmarks)")
    }

    @Test func anAbsoluteHomeIsNotRemarkedOn() throws {
        let run = try BoundedScript(#"HOME=/nonexistent "$HOST" --print-plugin-path 2>path.err >/dev/null"#)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(try String(contentsOfFile: run.folder + "/path.err", encoding: .utf8) == "")
    }
}
