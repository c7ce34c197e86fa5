import Foundation
@testable import HostText
@testable import HostEngine
@testable import HostBookmarks
@testable import HostCommandLine
import Testing

/// `presenter-host add-bookmark`'s screen in tmux, a real terminal with an
/// alternate screen and job control: the screen is read back with
/// `capture-pane`, and "restored" means the lines printed before it are on
/// the screen again, the cursor shows and typed keys echo.
@Suite("add-bookmark: the screen in a real terminal", .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct AddBookmarkScreenTests {
    static var binary: String { TmuxSession.quoted(TestPaths.binary.path) }

    /// A temporary directory with the store's path and the host's pid file.
    struct Files {
        let directory = TestPaths.temporaryDirectory("add-bookmark")
        var store: String { directory.appendingPathComponent("bookmarks.json").path }
        var pidFile: String { directory.appendingPathComponent("host.pid").path }

        /// A shell command that prints BEFORE, runs the screen (its pid in
        /// `pidFile`) with `arguments`, then prints its exit status.
        /// The screen in a shell. Its presenter gets 5 s a hook (`--hook-timeout`,
        /// which a test's own `arguments` may set again): on a loaded machine the
        /// default 0.25 s is missed now and then, and the presenter is taken off.
        func command(_ arguments: String, environment: String = "") -> String {
            "echo BEFORE; \(environment) sh -c 'echo $$ > \"$0\"; exec \"$@\"' \(TmuxSession.quoted(pidFile)) "
                + "\(AddBookmarkScreenTests.binary) add-bookmark --store \(TmuxSession.quoted(store)) "
                + "--hook-timeout 5 \(arguments); "
                + "echo EXIT=$?; exec sleep 60"
        }

        func hostPid() throws -> pid_t {
            let text = try String(contentsOfFile: pidFile, encoding: .utf8)
            return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    /// The status, its wrapped rows (below the HUD's, above the help line's
    /// blank one) joined with a space, on a screen of `rows` rows.
    static func status(in lines: [String], rows: Int = 24) -> String {
        let statusRows = AddBookmarkView.presenterRows(forRows: rows).upperBound..<rows - 2
        return statusRows.filter { $0 < lines.count }.map { lines[$0].trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The line of the screen holding the field under `label`.
    static func field(after label: String, in lines: [String]) -> String? {
        guard let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == label }),
            index + 2 < lines.count
        else { return nil }
        return lines[index + 2]
    }

    /// The screen was given back: the shell's lines, the exit status, the
    /// cursor, and the terminal's echo.
    /// `shellSays`: a line the shell prints about how the program ended.
    static func expectRestored(
        _ tmux: TmuxSession, status: Int, shellSays: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let screen = try #require(tmux.waitFor { $0.contains("EXIT=\(status)") }, sourceLocation: sourceLocation)
        let ours = screen.filter { line in shellSays.map { !line.contains($0) } ?? true }
        #expect(ours == ["BEFORE", "EXIT=\(status)"], "left behind: \(screen)", sourceLocation: sourceLocation)
        #expect(tmux.cursor().visible, sourceLocation: sourceLocation)
        tmux.send("echoed")
        #expect(
            tmux.waitFor { $0.contains { $0.contains("echoed") } } != nil, "typed keys do not echo: raw mode left on",
            sourceLocation: sourceLocation)
    }

    @Test func theFormOpensOnItsOwnScreenWithTheFocusInTheURLFieldAndEscGivesItBack() throws {
        let files = Files()
        let tmux = try TmuxSession(command: files.command("--url example.org --title 'A title'"))
        defer { tmux.kill() }
        let form = try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } })
        #expect(form.first == "  Add Bookmark")
        #expect(!form.contains("BEFORE"), "not on the alternate screen")
        #expect(Self.field(after: "Site URL", in: form)?.contains("│ example.org") == true)
        #expect(Self.field(after: "Title", in: form)?.contains("│ A title") == true)
        #expect(form.contains { $0.contains("Get title") })
        #expect(!tmux.cursor().visible, "the terminal's cursor is hidden; the caret is drawn")
        // Typing goes to the URL field, even though --url filled it.
        tmux.send("/x")
        #expect(tmux.waitFor { Self.field(after: "Site URL", in: $0)?.contains("│ example.org/x") == true } != nil)
        tmux.keys("Escape")
        try Self.expectRestored(tmux, status: 0)
    }

    @Test func theFieldsEditAsALineEditorAndTakeAPastedURLMeasuredInColumns() throws {
        let files = Files()
        let tmux = try TmuxSession(command: files.command(""))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.send("exmple.com/path")
        tmux.keys("Home", "Right", "Right")
        tmux.send("a")
        tmux.keys("End", "C-w")
        #expect(tmux.waitFor { Self.field(after: "Site URL", in: $0)?.contains("│ example.com/ ") == true } != nil)
        tmux.keys("C-a", "Delete", "C-e", "BSpace")
        #expect(tmux.waitFor { Self.field(after: "Site URL", in: $0)?.contains("│ xample.com ") == true } != nil)
        tmux.keys("C-u")
        tmux.paste("https://例え.jp/パス\n")
        let pasted = try #require(
            tmux.waitFor { Self.field(after: "Site URL", in: $0)?.contains("https://例え.jp/パス") == true })
        // Wide characters take two columns: the field's right edge stays in line with its box's.
        let line = try #require(Self.field(after: "Site URL", in: pasted))
        let top = try #require(pasted.first { $0.contains("╭") })
        #expect(DisplayWidth.of(line) == DisplayWidth.of(top), "\(line)\n\(top)")
        // The pasted newline is a space, not Enter: the focus is still in the URL field.
        tmux.send("X")
        #expect(
            tmux.waitFor { Self.field(after: "Site URL", in: $0)?.contains("https://例え.jp/パス X") == true } != nil,
            "a pasted newline moved the focus")
        tmux.keys("Escape")
        try Self.expectRestored(tmux, status: 0)
    }

    @Test func aFailureWaitsForAKeyAndTheKeyThatDismissesItDoesNothingElseButEscLeaves() throws {
        let files = Files()
        let trace = TraceLog()
        let tmux = try TmuxSession(
            command: files.command("--log \(TmuxSession.quoted(trace.path))", environment: "PRESENTER_HOST_DEBUG=1"))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        // Tab, Tab: the title field, then ADD BOOKMARK (get-title is disabled without a URL).
        tmux.keys("Tab", "Tab", "Enter")
        let hud = "│ ✖ URL cannot be empty │"
        try #require(tmux.waitFor { $0.contains { $0.contains(hud) } } != nil)
        // In a view without keys the failure goes 3 s after it was drawn
        // (mbhud's failure-hold-ms); here it waits for one. Once the host's
        // clock is past that, a resize makes the presenter render the view
        // again: the failure is still there.
        let drawn = try #require(trace.renderTimes.last)
        let pastTheHold = drawn + 3_500_000_000
        #expect(waitUntil(timeout: 10) { MonotonicClock().now() >= pastTheHold })
        try #require(tmux.resize(cols: 70, rows: 24))
        let resized = try #require(
            tmux.waitFor { Self.field(after: "Site URL", in: $0).map { DisplayWidth.of($0) } == 68 })
        #expect(resized.contains { $0.contains(hud) }, "the failure went without a key: \(resized)")
        #expect((trace.renderTimes.last ?? 0) >= pastTheHold, "no render past the hold: \(trace.calls)")
        // Enter dismisses it, and does not also press ADD BOOKMARK again.
        tmux.keys("Enter")
        let after = try #require(tmux.waitFor { !$0.contains { $0.contains(hud) } })
        #expect(after.contains { $0.contains("ADD BOOKMARK") })
        #expect(after.contains { $0.contains("✖ URL cannot be empty") }, "the status line keeps the reason")
        #expect(trace.count("mbhud.key") == 1)
        // The next failure waits the same way; Esc is the screen's: it leaves, the box shown.
        tmux.keys("Enter")
        try #require(tmux.waitFor { $0.contains { $0.contains(hud) } } != nil)
        #expect(trace.count("addbookmark.show") == 2, "the dismissing Enter pressed the button: \(trace.calls)")
        tmux.keys("Escape")
        try Self.expectRestored(tmux, status: 0)
        #expect(trace.count("mbhud.key") == 1, "Esc was offered to the presenter: \(trace.calls)")
        #expect(!FileManager.default.fileExists(atPath: files.store), "nothing was saved")
    }

    @Test func aPresenterThatTakesEveryKeyGetsOnlyTheOneAfterItsFailureAndNeverEsc() throws {
        // The fixture's key hook logs every key it gets and uses it; after a
        // failure it keeps its box drawn for ever, whatever key comes.
        let files = Files()
        let log = TraceLog()
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let tmux = try TmuxSession(
            command: files.command(
                "--plugin-dir \(TmuxSession.quoted(plugins.path)) --presenter fixture.misbehaving "
                    + "--log \(TmuxSession.quoted(log.path))",
                environment: "FIXTURE_MISBEHAVE=takekeys:key"))
        defer { tmux.kill() }
        /// The keys the presenter was given, as it logged them.
        func presenterKeys() -> [String] {
            let text = (try? String(contentsOfFile: log.path, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                line.range(of: "fixture.misbehaving: info: key ").map { String(line[$0.upperBound...]) }
            }
        }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        // Typed into the form: the title (the URL left empty, so nothing is fetched).
        tmux.keys("Tab")
        tmux.send("secret")
        #expect(tmux.waitFor { Self.field(after: "Title", in: $0)?.contains("│ secret ") == true } != nil)
        // ADD BOOKMARK with no URL: a failure, which the presenter holds.
        tmux.keys("Tab", "Enter")
        let box = "x URL cannot be empty"
        try #require(tmux.waitFor { $0.contains { $0.contains(box) } } != nil)
        // The presenter gets the next key, uses it, and no more.
        tmux.keys("Enter")
        #expect(waitUntil(timeout: 10) { presenterKeys() == ["13"] })
        tmux.keys("Up")
        tmux.send("more")
        let typed = try #require(
            tmux.waitFor { Self.field(after: "Title", in: $0)?.contains("│ secretmore ") == true })
        #expect(typed.contains { $0.contains(box) }, "the box is the presenter's to keep: \(typed)")
        // A second failure: Esc is never the presenter's; it leaves the screen.
        tmux.keys("Down", "Enter")
        #expect(
            waitUntil(timeout: 10) {
                (try? String(contentsOfFile: log.path, encoding: .utf8))?.components(separatedBy: "showing").count == 3
            })
        tmux.keys("Escape")
        try Self.expectRestored(tmux, status: 0)
        #expect(presenterKeys() == ["13"], "the presenter read what was typed")
    }

    @Test func ctrlCLeavesWith130() throws {
        let files = Files()
        let tmux = try TmuxSession(command: files.command(""))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.keys("C-c")
        try Self.expectRestored(tmux, status: 130)
    }

    /// The screen gives the terminal back, then the host dies of the
    /// signal (the shell says so: "Terminated"; it says nothing for SIGINT).
    @Test(arguments: [(SIGTERM, "Terminated"), (SIGHUP, "Hangup"), (SIGINT, nil)] as [(Int32, String?)])
    func aSignalLeavesTheScreenAndTheHostDiesOfIt(signal: Int32, shellSays: String?) throws {
        let files = Files()
        let tmux = try TmuxSession(command: files.command(""))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        kill(try files.hostPid(), signal)
        try Self.expectRestored(tmux, status: 128 + Int(signal), shellSays: shellSays)
        if let shellSays { #expect(tmux.capture().contains { $0.contains(shellSays) }, "the host did not die of it") }
    }

    @Test func aCrashOfTheHostItselfGivesTheScreenBack() throws {
        let files = Files()
        // No crash report on the terminal: only what the rescue restores is looked at.
        let tmux = try TmuxSession(command: files.command("", environment: "SWIFT_BACKTRACE=enable=no"))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        kill(try files.hostPid(), SIGSEGV)
        try Self.expectRestored(tmux, status: 128 + Int(SIGSEGV), shellSays: "Segmentation fault")
    }

    @Test func ctrlZGivesTheTerminalBackAndFgTakesItAgain() throws {
        let files = Files()
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        tmux.type("\(Self.binary) add-bookmark --store \(TmuxSession.quoted(files.store)) --url kept.example")
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.keys("C-z")
        let stopped = try #require(tmux.waitFor { $0.contains { $0.contains("Stopped") } })
        #expect(!stopped.contains { $0.contains("ADD BOOKMARK") }, "the form stayed: \(stopped)")
        #expect(tmux.cursor().visible)
        tmux.type("echo at the prompt")
        #expect(tmux.waitFor { $0.contains("at the prompt") } != nil, "the shell's terminal is not usable")
        tmux.type("fg")
        let again = try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } })
        #expect(Self.field(after: "Site URL", in: again)?.contains("│ kept.example") == true, "the form lost its state")
        tmux.send("!")
        #expect(
            tmux.waitFor { Self.field(after: "Site URL", in: $0)?.contains("│ kept.example!") == true } != nil,
            "keys do not reach the form after fg")
        tmux.keys("Escape")
        let back = try #require(tmux.waitFor { $0.last == "$" && !$0.contains { $0.contains("ADD BOOKMARK") } })
        #expect(back.contains("$ fg"))
        #expect(tmux.cursor().visible)
    }

    @Test func aResizeRedrawsTheFormAtTheNewSize() throws {
        let files = Files()
        let tmux = try TmuxSession(command: files.command("--url example.org"))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        try #require(tmux.resize(cols: 50, rows: 20))
        let redrawn = try #require(
            tmux.waitFor { lines in
                lines.contains { $0.contains("ADD BOOKMARK") } && lines.allSatisfy { DisplayWidth.of($0) <= 50 }
                    && lines.filter { $0.contains("╭") }.count == 3
            })
        #expect(Self.field(after: "Site URL", in: redrawn)?.contains("│ example.org") == true)
        // At the smallest size, the HUD (one row: its line without the box)
        // and the status line stay below the button.
        try #require(tmux.resize(cols: 40, rows: 18))
        try #require(
            tmux.waitFor {
                $0.count > 1 && $0[1...].contains { $0.contains("ADD BOOKMARK") }
                    && $0.allSatisfy { DisplayWidth.of($0) <= 40 }
            } != nil)
        tmux.keys("C-u")  // an empty URL: leaving the field fetches nothing
        tmux.keys("Tab", "Tab", "Enter")
        let small = try #require(
            tmux.waitFor {
                $0.count > 15 && $0[15] == "  ✖ URL cannot be empty" && $0[14].contains("✖ URL cannot be empty")
            })
        let button = try #require(small.firstIndex { $0.contains("ADD BOOKMARK") })
        #expect(
            small[button + 1].hasPrefix("  ╰") && small[button + 1].hasSuffix("╯"),
            "the button was drawn over: \(small)")
        #expect(button + 2 == 14, "\(small)")
        // The failure waits for a key: Enter dismisses it (and only it); the status line keeps it.
        tmux.keys("Enter")
        try #require(
            tmux.waitFor {
                $0.count > 15 && !$0[14].contains("URL cannot be empty") && $0[15] == "  ✖ URL cannot be empty"
            }
                != nil)
        try #require(tmux.resize(cols: 30, rows: 10))
        #expect(tmux.waitFor { $0.contains { $0.contains("Enlarge the terminal") } } != nil)
        try #require(tmux.resize(cols: 80, rows: 24))
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.keys("Escape")
        try Self.expectRestored(tmux, status: 0)
    }

    @Test func hookTimeoutIsThePresentersBudget() throws {
        let files = Files()
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let tmux = try TmuxSession(
            command: files.command(
                "--plugin-dir \(TmuxSession.quoted(plugins.path)) --presenter fixture.misbehaving --hook-timeout 0.1",
                environment: "FIXTURE_MISBEHAVE=sleep:show FIXTURE_SLEEP_MS=2000"))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.keys("Tab", "Tab", "Enter")
        // 100 ms, the budget given, not the default 250 ms.
        #expect(
            tmux.waitFor {
                $0.contains { $0.contains("The presenter 'fixture.misbehaving' did not answer show within 100 ms") }
            } != nil)
        tmux.keys("Escape")
        try Self.expectRestored(tmux, status: 0)
    }

    @Test func aPresenterThatCrashesIsTakenOffAndTheFormGoesOn() throws {
        let files = Files()
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let tmux = try TmuxSession(
            command: files.command(
                "--plugin-dir \(TmuxSession.quoted(plugins.path)) --presenter fixture.misbehaving",
                environment: "FIXTURE_MISBEHAVE=crash:show"))
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.contains { $0.contains("ADD BOOKMARK") } } != nil)
        tmux.keys("Tab", "Tab", "Enter")
        let after = try #require(
            tmux.waitFor {
                $0.contains { $0.contains("The presenter 'fixture.misbehaving' crashed in show (SIGSEGV)") }
            })
        #expect(after.contains { $0.contains("ADD BOOKMARK") })
        // The form goes on: keys still edit it.
        tmux.keys("Up")
        tmux.send("ok")
        #expect(tmux.waitFor { Self.field(after: "Title", in: $0)?.contains("│ ok ") == true } != nil)
        tmux.keys("Escape")
        try Self.expectRestored(tmux, status: 0)
    }
}

@Suite("add-bookmark: the command line")
struct AddBookmarkCommandTests {
    @Test(arguments: [
        (["--get-title"], "Error: --get-title needs --url <url>"),
        (["--add", "--url", " "], "Error: --add needs --url <url>"),
        (["--get-title", "--add", "--url", "x"], "Error: --get-title and --add cannot be combined"),
        (["--url", "x", "--title", "t", "--get-title"], "Error: --title cannot be combined with --get-title"),
        (
            ["--timeout", "0"],
            "Error: --timeout: '0' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)"
        ),
        (["--timeout=3601"], "Error: --timeout: '3601' is too long; give at most 3600 seconds (1 hour)"),
        (["--color", "pink"], "Error: --color: 'pink' is not auto, always or never"),
        (
            ["--hook-timeout", "0"],
            "Error: --hook-timeout: '0' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)"
        ),
        (["--bogus"], "Error: Unknown option '--bogus'"),
        (["example.org"], "Error: Unexpected argument 'example.org'; give the URL with --url"),
    ])
    func aBadFlagIsOneLineAndStatus64(arguments: [String], line: String) throws {
        let result = try ProcessRunner.run(TestPaths.binary, ["add-bookmark"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(line + "\n"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func theScreenWithoutATerminalSaysWhatToDoInstead() throws {
        let result = try ProcessRunner.run(TestPaths.binary, ["add-bookmark"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: the Add Bookmark screen needs a terminal"), "\(result.stderr)")
        #expect(result.stderr.contains("use --get-title or --add"))
    }

    @Test func helpIsOnStdout() throws {
        let result = try ProcessRunner.run(TestPaths.binary, ["add-bookmark", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: presenter-host add-bookmark"))
    }
}

@Suite("add-bookmark --add: saving from a script, progress through the presenter")
struct AddBookmarkScriptTests {
    static let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

    @Test func aBookmarkWithItsTitleIsSavedWithThePresentersPlainLines() throws {
        let files = AddBookmarkScreenTests.Files()
        let result = try ProcessRunner.host(
            [
                "add-bookmark", "--url", "example.org/page", "--title", "  Example  ",
                "--add", "--store", files.store,
            ], environment: Self.utf8)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "Saving bookmark...\n✔ Bookmark saved!\n")
        #expect(result.stdout.isEmpty)
        let saved = try BookmarkStore(path: files.store).load()
        #expect(
            saved == [Bookmark(url: "https://example.org/page", title: "Example")],
            "the URL as a browser reads it, the title trimmed")
    }

    @Test(arguments: [
        (["--url", "ftp://example.org/f", "--title", "T"], "only http and https URLs can be saved"),
        (["--url", "https://example.org", "--title", "   "], "Title cannot be empty"),
    ])
    func aValidationErrorIsTheFailureMessageAndStatus1(arguments: [String], line: String) throws {
        let files = AddBookmarkScreenTests.Files()
        let result = try ProcessRunner.host(
            ["add-bookmark", "--add", "--store", files.store] + arguments,
            environment: Self.utf8)
        #expect(result.status == 1)
        // The presenter's line (a validation error's text is the message),
        // then the one a terminal shows too.
        #expect(result.stderr == "Saving bookmark...\n✖ \(line)\nError: \(line)\n")
        #expect(!FileManager.default.fileExists(atPath: files.store))
    }

    @Test func aStoreThatCannotBeReadIsNamedWithTheReasonAndLeftAlone() throws {
        let files = AddBookmarkScreenTests.Files()
        let corrupt = Data("{\"version\": 1, \"bookmarks\": [".utf8)
        try corrupt.write(to: URL(fileURLWithPath: files.store))
        let result = try ProcessRunner.host(
            [
                "add-bookmark", "--url", "https://example.org", "--title", "T",
                "--add", "--store", files.store,
            ], environment: Self.utf8)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Saving bookmark...")
        #expect(
            lines.dropLast().last?.hasPrefix("✖ An error occurred saving the bookmark: \(files.store)") == true,
            "\(result.stderr)")
        #expect(lines.last?.hasPrefix("Error: \(files.store)") == true, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: files.store)) == corrupt)
    }

    @Test func aMessagesFileReplacesTheOriginalsMessages() throws {
        let files = AddBookmarkScreenTests.Files()
        let messages = files.directory.appendingPathComponent("messages.json")
        try Data(#"{"add-bookmark": {"working": "Bookmarking", "success": "Kept"}}"#.utf8).write(to: messages)
        let result = try ProcessRunner.host(
            [
                "add-bookmark", "--url", "https://example.org", "--title", "T", "--add",
                "--store", files.store, "--messages", messages.path,
            ], environment: Self.utf8)
        #expect(result.status == 0)
        #expect(result.stderr == "Bookmarking\n✔ Kept\n")
    }
}
