import Foundation
@testable import HostBookmarks
@testable import HostCommandLine
import Testing

/// The Add Bookmark screen fetching real titles from the loopback server
/// (``TitleServer``), in tmux. A `/gate/NAME` page answers only once the
/// test opens the gate: the fetch is seen pending, then seen ending, with
/// no timed wait.
@Suite("add-bookmark: get-title and saving, end to end", .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct AddBookmarkTitleTests {
    /// Loopback requests must not go to a proxy the machine may have.
    static let direct = "env -u http_proxy -u HTTP_PROXY -u https_proxy -u HTTPS_PROXY -u ALL_PROXY -u all_proxy"

    static func field(after label: String, in lines: [String]) -> String? {
        AddBookmarkScreenTests.field(after: label, in: lines)
    }

    /// The Braille spinner glyphs (mbhud's and the form's indicator).
    static func spinner(in line: String) -> Character? {
        line.first { $0.unicodeScalars.first.map { (0x2801...0x28FF).contains($0.value) } ?? false }
    }

    static func titleRow(_ lines: [String]) -> String? { field(after: "Title", in: lines) }

    @Test func leavingTheURLFieldSwapsTheButtonForTheIndicatorThenFillsTheTitle() throws {
        let files = AddBookmarkScreenTests.Files()
        let gate = "title-\(UUID().uuidString)"
        let url = TitleServer.shared.url("/gate/\(gate)?title=The%20Example%20%26amp%3B%20Co")
        let tmux = try TmuxSession(command: files.command("", environment: Self.direct))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        #expect(Self.titleRow(tmux.capture())?.contains("Get title") == true)
        tmux.send(url)
        tmux.keys("Tab")
        // The button is gone and the indicator animates in its place.
        let first = try #require(
            tmux.waitFor { lines in
                Self.titleRow(lines).map { !$0.contains("Get title") && Self.spinner(in: $0) != nil } ?? false
            })
        #expect(!first.contains { $0.contains("╭───╮") }, "a HUD showed for get-title: \(first)")
        let glyph = try #require(Self.titleRow(first).flatMap(Self.spinner))
        let row = try #require(Self.titleRow(first))
        #expect(row.hasSuffix("│     \(glyph)     │"), "the indicator is not over the button: \(row)")
        #expect(
            tmux.waitFor { Self.titleRow($0).flatMap(Self.spinner).map { $0 != glyph } ?? false } != nil,
            "the indicator does not animate")
        _ = try TitleServer.shared.ask("/open/\(gate)")
        // The button comes back and the title is filled in, entities decoded.
        let done = try #require(
            tmux.waitFor { lines in
                Self.titleRow(lines).map { $0.contains("Get title") && $0.contains("│ The Example & Co") } ?? false
            })
        #expect(!done.contains { Self.spinner(in: $0) != nil }, "something still spins: \(done)")
        tmux.keys("Escape")
        try AddBookmarkScreenTests.expectRestored(tmux, status: 0)
    }

    @Test func aTypedURLThatAnswersOverHTTPOnlyBecomesTheHTTPURLAndIsSavedSo() throws {
        let files = AddBookmarkScreenTests.Files()
        let typed = "127.0.0.1:\(TitleServer.shared.port)/page?title=Plain"
        let tmux = try TmuxSession(command: files.command("", environment: Self.direct))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.send(typed)
        tmux.keys("Tab")
        // https failed (a plain HTTP server), http answered: the field shows the URL that did.
        let done = try #require(
            tmux.waitFor { lines in
                Self.titleRow(lines).map { $0.contains("│ Plain ") } ?? false
                    && Self.field(after: "Site URL", in: lines)?.contains("│ http://\(typed) ") == true
            })
        #expect(done.contains { $0.contains("Got the title of http://\(typed)") }, "\(done)")
        // Tab, Tab: Get title, then ADD BOOKMARK.
        tmux.keys("Tab", "Tab", "Enter")
        try #require(tmux.waitFor { $0.contains { $0.contains("Bookmark saved!") } } != nil)
        #expect(try BookmarkStore(path: files.store).load() == [Bookmark(url: "http://\(typed)", title: "Plain")])
        tmux.keys("Escape")
        try AddBookmarkScreenTests.expectRestored(tmux, status: 0)
    }

    @Test func addBookmarkShowsTheHUDSavingThenSavedAndTheStoreHasIt() throws {
        let files = AddBookmarkScreenTests.Files()
        let url = TitleServer.shared.url("/page?title=Fetched")
        let tmux = try TmuxSession(
            command: files.command(
                "--url \(TmuxSession.quoted(url)) --title Mine",
                environment: Self.direct))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        // Up from the URL field wraps to ADD BOOKMARK.
        tmux.keys("Up", "Enter")
        let saving = try #require(tmux.waitFor { $0.contains { $0.contains("Saving bookmark... │") } })
        #expect(
            saving.contains { $0.contains("│ ") && Self.spinner(in: $0) != nil && $0.contains("Saving bookmark...") })
        // Below the button, whose border is whole; the status line says the same.
        let button = try #require(saving.firstIndex { $0.contains("ADD BOOKMARK") })
        #expect(saving[button + 1] == "  ╰" + String(repeating: "─", count: 74) + "╯", "drawn over: \(saving)")
        #expect(saving[(button + 2)...].contains { $0.contains("Saving bookmark... │") })
        #expect(AddBookmarkScreenTests.status(in: saving) == "Saving bookmark...", "\(saving)")
        let done = try #require(tmux.waitFor { $0.contains { $0.contains("│ ✔ Bookmark saved! │") } })
        #expect(AddBookmarkScreenTests.status(in: done).hasPrefix("✔ Bookmark saved!"), "\(done)")
        let saved = try BookmarkStore(path: files.store).load()
        #expect(saved == [Bookmark(url: url, title: "Mine")], "a typed title is kept over the fetched one")
        tmux.keys("Escape")
        try AddBookmarkScreenTests.expectRestored(tmux, status: 0)
    }

    @Test func aFailingGetTitleShowsTheFailureUntilAKeyThatIsNotTyped() throws {
        let files = AddBookmarkScreenTests.Files()
        let url = TitleServer.shared.url("/status/404")
        let tmux = try TmuxSession(command: files.command("--url \(TmuxSession.quoted(url))", environment: Self.direct))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.keys("Tab")  // leaves the URL field for the title field: fetches
        // The box's row (the status line says it too, without a border).
        let hud = { (line: String) in line.contains("│") && line.contains("✖ An error occurred retrieving the title") }
        let failed = try #require(tmux.waitFor(timeout: 15) { $0.contains(where: hud) })
        #expect(
            AddBookmarkScreenTests.status(in: failed)
                == "✖ An error occurred retrieving the title: HTTP 404 from \(url)",
            "the status line lacks the reason: \(failed)")
        // The focus is in the title field: the key that dismisses is not typed there.
        tmux.send("x")
        let after = try #require(tmux.waitFor { !$0.contains(where: hud) })
        #expect(Self.titleRow(after)?.contains("x") == false, "the dismissing key was typed: \(after)")
        tmux.send("y")
        #expect(tmux.waitFor { Self.titleRow($0)?.contains("│ y ") == true } != nil)
        tmux.keys("Escape")
        try AddBookmarkScreenTests.expectRestored(tmux, status: 0)
    }

    @Test func aLongReasonIsShownWholeOnTheStatusLines() throws {
        let files = AddBookmarkScreenTests.Files()
        let url = TitleServer.shared.url("/status/404?" + String(repeating: "long-query-part-", count: 8))
        let tmux = try TmuxSession(command: files.command("--url \(TmuxSession.quoted(url))", environment: Self.direct))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.keys("Tab")
        let failed = try #require(
            tmux.waitFor(timeout: 15) { AddBookmarkScreenTests.status(in: $0).contains("HTTP 404") })
        // Wrapped over the rows below the HUD (a word wider than a row is cut between rows).
        let expected = "✖ An error occurred retrieving the title: HTTP 404 from \(url)"
        let status = AddBookmarkScreenTests.status(in: failed)
        #expect(
            status.replacingOccurrences(of: " ", with: "") == expected.replacingOccurrences(of: " ", with: ""),
            "\(failed)")
        #expect(!status.contains("…"), "cut: \(failed)")
        tmux.keys("Escape", "Escape")
        try AddBookmarkScreenTests.expectRestored(tmux, status: 0)
    }

    @Test func withMBHudTheTitleFetchShowsInTheBoxAndWithNetActivityAtTheRightBelowTheButtons() throws {
        for presenter in ["mbhud", "netactivity"] {
            let files = AddBookmarkScreenTests.Files()
            let gate = "\(presenter)-\(UUID().uuidString)"
            let url = TitleServer.shared.url("/gate/\(gate)?title=Overridden")
            let tmux = try TmuxSession(
                command: files.command(
                    "--presenter \(presenter) --url \(TmuxSession.quoted(url))",
                    environment: Self.direct))
            defer { tmux.kill() }
            try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
            tmux.keys("Tab")
            let pending = try #require(tmux.waitFor { lines in lines.contains { Self.spinner(in: $0) != nil } })
            #expect(
                Self.titleRow(pending)?.contains("Get title") == true, "\(presenter) swapped the button: \(pending)")
            if presenter == "mbhud" {
                #expect(pending.contains { $0.contains("╭───╮") }, "no HUD box: \(pending)")
            } else {
                // The top right of the presenter's rows, the first below the ADD BOOKMARK button.
                let row = AddBookmarkView.presenterRows(forRows: 24).lowerBound
                #expect(Self.spinner(in: pending[row]) != nil, "no indicator below the buttons: \(pending)")
                #expect(pending[row].count == 80, "the indicator is not at the right: \(pending[row])")
            }
            _ = try TitleServer.shared.ask("/open/\(gate)")
            try #require(
                tmux.waitFor { lines in
                    Self.titleRow(lines)?.contains("│ Overridden") == true
                        && !lines.contains { Self.spinner(in: $0) != nil }
                } != nil)
            tmux.keys("Escape")
            try AddBookmarkScreenTests.expectRestored(tmux, status: 0)
        }
    }

    @Test func ctrlCRightAfterEnterOnAddBookmarkStillSaves() throws {
        let files = AddBookmarkScreenTests.Files()
        let url = TitleServer.shared.url("/page?title=Fetched")
        let tmux = try TmuxSession(
            command: files.command(
                "--url \(TmuxSession.quoted(url)) --title Quick",
                environment: Self.direct))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        // In one write: the keys typed before Ctrl-C are handled before it.
        tmux.keys("Up", "Enter", "C-c")
        try AddBookmarkScreenTests.expectRestored(tmux, status: 130)
        #expect(try BookmarkStore(path: files.store).load() == [Bookmark(url: url, title: "Quick")])
    }

    @Test func ctrlCDuringAFetchLeavesAtOnce() throws {
        let files = AddBookmarkScreenTests.Files()
        let url = TitleServer.shared.url("/gate/never-\(UUID().uuidString)")
        let tmux = try TmuxSession(command: files.command("--url \(TmuxSession.quoted(url))", environment: Self.direct))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.keys("Tab")
        try #require(tmux.waitFor { Self.titleRow($0).flatMap(Self.spinner) != nil } != nil)
        let pressed = Date()
        tmux.keys("C-c")
        try AddBookmarkScreenTests.expectRestored(tmux, status: 130)
        #expect(Date().timeIntervalSince(pressed) < 5, "the pending fetch held the exit (the gate stays shut 30 s)")
    }
}

/// `add-bookmark --get-title` in a terminal, under a shell with job control
/// (tmux): a Ctrl-Z during the fetch gives the terminal back as it was, as
/// `run` does, and `fg` draws the line again.
@Suite(
    "add-bookmark --get-title in a terminal: job control",
    .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct AddBookmarkScriptJobControlTests {
    @Test func ctrlZDuringAFetchTakesTheLineOffAndShowsTheCursorThenFgDrawsItAgain() throws {
        let gate = "stopped-\(UUID().uuidString)"
        let url = TitleServer.shared.url("/gate/\(gate)?title=After%20the%20stop")
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        tmux.type(
            "\(AddBookmarkTitleTests.direct) \(TmuxSession.quoted(TestPaths.binary.path)) add-bookmark "
                + "--url \(TmuxSession.quoted(url)) --get-title --timeout 30")
        // The line being drawn (the typed command line has no indicator).
        let fetching: ([String]) -> Bool = { lines in
            lines.contains { AddBookmarkTitleTests.spinner(in: $0) != nil && $0.contains("Getting the title") }
        }
        try #require(tmux.waitFor(fetching) != nil)
        tmux.keys("C-z")
        let stopped = try #require(
            tmux.waitFor { $0.contains { $0.contains("Stopped") } },
            "the job did not stop:\n\(processTreeReport(root: tmux.panePid))")
        // Without the handler, SIGTSTP stopped it as it was: line drawn, cursor hidden, echo off.
        #expect(!stopped.contains { AddBookmarkTitleTests.spinner(in: $0) != nil }, "the line was left: \(stopped)")
        #expect(tmux.cursor().visible, "the cursor was left hidden")
        tmux.type("fg")
        try #require(tmux.waitFor(fetching) != nil, "fg did not draw the line again")
        _ = try TitleServer.shared.ask("/open/\(gate)")
        // The title on stdout, then the prompt: the job ended.
        let screen = try #require(tmux.waitFor { $0.contains("After the stop") && $0.last == "$" })
        #expect(!screen.contains { AddBookmarkTitleTests.spinner(in: $0) != nil }, "left behind: \(screen)")
        #expect(tmux.cursor().visible)
    }
}

@Suite("add-bookmark --get-title and --add against a real server")
struct AddBookmarkScriptTitleTests {
    static var environment: [String: String] {
        var environment = WebTitleFetchTests.noProxies
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        return environment
    }

    @Test func getTitlePrintsTheTitleOnStdout() throws {
        let url = TitleServer.shared.url("/page?title=%20Caf%C3%A9%20%26amp%3B%0A%20Co%20")
        let result = try ProcessRunner.host(
            ["add-bookmark", "--url", url, "--get-title"], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Café & Co\n")
        #expect(result.stderr.isEmpty, "get-title's working message is empty and it has no success message")
    }

    @Test func aFailedFetchExits1WithTheFailureMessageAndThePreciseReason() throws {
        let url = TitleServer.shared.url("/status/404")
        let result = try ProcessRunner.host(
            ["add-bookmark", "--url", url, "--get-title"], environment: Self.environment)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        // The presenter's line, then the one the terminal shows too.
        #expect(
            result.stderr
                == "✖ An error occurred retrieving the title: HTTP 404 from \(url)\nError: HTTP 404 from \(url)\n")
    }

    @Test func addWithoutATitleFetchesItThenSaves() throws {
        let files = AddBookmarkScreenTests.Files()
        let url = TitleServer.shared.url("/page?title=From%20the%20page")
        let result = try ProcessRunner.host(
            ["add-bookmark", "--url", url, "--add", "--store", files.store],
            environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "Saving bookmark...\n✔ Bookmark saved!\n")
        #expect(try BookmarkStore(path: files.store).load() == [Bookmark(url: url, title: "From the page")])
        let listed = try ProcessRunner.host(["bookmarks", "--json", "--store", files.store])
        #expect(
            listed.stdout.contains("\"title\" : \"From the page\"")
                || listed.stdout.contains("\"title\": \"From the page\""),
            "\(listed.stdout)")
    }

    /// --add in a terminal makes its runtime as run does
    /// (``PresenterSession``), so ACCESSIBLE=1 gives static lines there too:
    /// no animation, no escape code; without it, the region is drawn.
    @Test(.enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote), arguments: [true, false])
    func addInATerminalIsStaticWhenAccessibleAsRunIs(accessible: Bool) throws {
        let files = AddBookmarkScreenTests.Files()
        let raw = files.directory.appendingPathComponent("raw").path
        let run = try TerminalDriver.run(
            ["add-bookmark", "--add", "--url", "https://example.org/", "--title", "Example", "--store", files.store],
            environment: accessible ? ["ACCESSIBLE": "1"] : [:], rawFile: raw,
            steps: [.waitText("Bookmark saved!"), .waitExit(20)])
        #expect(run.errors == [])
        #expect(run.exit.code == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        #expect(bytes.contains(0x1B) == !accessible, "an escape code: \(!accessible)")
        if accessible { #expect(run.final.nonEmptyLines == ["Saving bookmark...", "✔ Bookmark saved!"]) }
    }

    /// A signal while --add's outcome shows in a terminal ends the wait for
    /// the presenter at once, as it ends run's `--linger` (the session's
    /// settle): the host dies of it. Before, the wait went on to its bound
    /// (6 s) under a presenter that never settles (misbehaving's
    /// linger:hide keeps drawing for ever).
    @Test(.enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
    func aSignalWhileTheOutcomeShowsEndsTheWaitAtOnce() throws {
        let files = AddBookmarkScreenTests.Files()
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let store = TmuxSession.quoted(files.store)
        // The save committed (the store written), the wait begins: then SIGTERM.
        let run = try TerminalDriver.run(
            [], environment: ["FIXTURE_MISBEHAVE": "linger:hide"],
            shell: """
                "$0" --plugin-dir \(TmuxSession.quoted(plugins.path)) add-bookmark --presenter fixture.misbehaving \
                --hook-timeout 5 --add --url https://example.org/ --title Example --store \(store) & host=$!
                while [ ! -s \(store) ]; do sleep 0.02; done
                kill -TERM $host; start=$(date +%s%N); wait $host; status=$?
                echo "ended status=$status ms=$(( ($(date +%s%N) - start) / 1000000 ))"
                """,
            steps: [.waitText("ended status=", timeout: 30), .waitExit(10)])
        #expect(run.errors == [])
        let line = try #require(run.final.lines.first { $0.hasPrefix("ended ") }, "\(run.final.lines)")
        #expect(line.hasPrefix("ended status=143 "), "\(line)")
        let milliseconds = try #require(line.split(separator: "=").last.flatMap { Double($0) })
        #expect(milliseconds < TestTime.scaled(3) * 1000, "\(line)")
        #expect(!run.final.cursor.hidden)
    }

    @Test func addWhoseTitleCannotBeFetchedSavesNothing() throws {
        let files = AddBookmarkScreenTests.Files()
        let url = TitleServer.shared.url("/page?title=-")
        let result = try ProcessRunner.host(
            ["add-bookmark", "--url", url, "--add", "--store", files.store],
            environment: Self.environment)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "✖ An error occurred retrieving the title: no <title> in the page\nError: no <title> in the page\n")
        #expect(!FileManager.default.fileExists(atPath: files.store))
    }
}
