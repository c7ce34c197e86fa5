import Foundation
import Testing

/// `run` returns when its command ends, and its outcome stays (issue 31): the
/// built binary in tmux, a real terminal. Times are measured in the shell
/// around the run (`date +%s.%N` as the command ends and as `run` returns)
/// and checked against generous bounds; nothing sleeps to synchronise.
@Suite(
    "run end to end: it returns with its command, and the outcome stays",
    .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct RunOutcomeEndToEndTests {
    static var binary: String { TmuxSession.quoted(TestPaths.binary.path) }

    /// A frame or two after the command, generous for a loaded machine:
    /// the 0.5 s minimum show, 1.5 s success or 3 s failure of before fail it.
    static let frameBudget = TestTime.scaled(0.3)

    /// One way to run a command, and what stays of it.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        /// What the command does before it ends (sh).
        var work = "sleep 0.3"
        var status = 0
        /// The screen's lines once `run` returned, `DONE` after them.
        var left: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "run -- true", arguments: [], work: ":", left: []),
        Case(name: "--success", arguments: ["--success", "Built"], left: ["✔ Built"]),
        Case(
            name: "--failure", arguments: ["--failure", "Build failed"], status: 2,
            left: ["✖ Build failed: exit status 2"]),
        Case(name: "a failure without a message", arguments: [], status: 3, left: ["✖ exit status 3"]),
        Case(
            name: "--grace longer than the command", arguments: ["--grace", "3", "--success", "Built"],
            left: ["✔ Built"]),
        Case(name: "--min-show", arguments: ["--min-show", "2", "--success", "Built"], left: ["✔ Built"]),
        Case(
            name: "netactivity", arguments: ["--presenter", "netactivity", "--failure", "Build failed"], status: 2,
            left: ["✖ Build failed: exit status 2"]),
    ]

    /// Runs `run ARGUMENTS -- sh -c WORK` in a fresh tmux of `cols` columns;
    /// returns the seconds from the command's end to run's, and the screen
    /// above the `DONE` the shell prints next (blank lines dropped).
    func run(
        _ arguments: [String], work: String, status: Int = 0, cols: Int = 80, extra: String = ""
    ) throws -> (after: Double, screen: [String], exit: Int?) {
        let dir = TestPaths.temporaryDirectory("run-outcome")
        defer { try? FileManager.default.removeItem(at: dir) }
        let end = dir.appendingPathComponent("end").path, back = dir.appendingPathComponent("back").path
        let script = "\(work); date +%s.%N > '\(end)'; exit \(status)"
        let tmux = try TmuxSession(
            command: "\(Self.binary) \(extra) run \(arguments.map(TmuxSession.quoted).joined(separator: " ")) -- "
                + "sh -c \(TmuxSession.quoted(script)); echo \"DONE $?\"; date +%s.%N > '\(back)'; exec sleep 60",
            cols: cols)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor(timeout: 20) { $0.contains { $0.hasPrefix("DONE") } })
        #expect(tmux.cursor().visible)
        let read = { (path: String) in Double((try? String(contentsOfFile: path, encoding: .utf8))?.trimmed ?? "") }
        #expect(waitUntil(timeout: 10) { read(back) != nil })
        let after = try #require(read(back)) - (try #require(read(end)))
        let done = screen.firstIndex { $0.hasPrefix("DONE") } ?? screen.count
        return (after, screen[..<done].filter { !$0.isEmpty }, Int(screen[done].dropFirst("DONE ".count)))
    }

    @Test(arguments: cases)
    func runReturnsWithinAFrameOfItsCommand(_ runCase: Case) throws {
        let (after, screen, exit) = try run(runCase.arguments, work: runCase.work, status: runCase.status)
        #expect(exit == runCase.status)
        #expect(after < Self.frameBudget, "run took \(after) s after its command ended")
        #expect(screen == runCase.left)
    }

    /// The timeout stops the command, and run returns then: not 3 s later,
    /// after the failure's hold. The time is from before run started: the
    /// command never ends on its own.
    @Test func aTimeoutReturnsWithinAFrameOfItsEnd() throws {
        let dir = TestPaths.temporaryDirectory("run-timeout")
        defer { try? FileManager.default.removeItem(at: dir) }
        let start = dir.appendingPathComponent("start").path, back = dir.appendingPathComponent("back").path
        let tmux = try TmuxSession(
            command: "date +%s.%N > '\(start)'; \(Self.binary) run --timeout 1 -- sleep 30; "
                + "date +%s.%N > '\(back)'; echo DONE; exec sleep 60")
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor(timeout: 20) { $0.contains("DONE") })
        #expect(screen.first == "✖ timed out after 1 s", "\(screen)")
        let read = { (path: String) in Double((try? String(contentsOfFile: path, encoding: .utf8))?.trimmed ?? "") }
        #expect(waitUntil(timeout: 10) { read(back) != nil })
        let took = try #require(read(back)) - (try #require(read(start)))
        // The 1 s timeout, and a frame or two; today's 4 s (its 3 s failure hold) fails it.
        #expect(took < 1 + TestTime.scaled(0.5), "run --timeout 1 took \(took) s")
    }

    /// drive returns when its input ends and its actions are done: not after
    /// the last outcome's time (1.5 s + 10 ms a character), which stays as
    /// its line.
    @Test func driveReturnsWithinAFrameOfItsInputsEnd() throws {
        let dir = TestPaths.temporaryDirectory("drive-end")
        defer { try? FileManager.default.removeItem(at: dir) }
        let end = dir.appendingPathComponent("end").path, back = dir.appendingPathComponent("back").path
        let lines = [
            #"{"start": "a", "working": "Building"}"#, #"{"succeed": "a", "message": "Built"}"#,
        ].map(TmuxSession.quoted).joined(separator: " ")
        let tmux = try TmuxSession(
            command: "{ printf '%s\\n' \(lines); sleep 0.3; date +%s.%N > '\(end)'; } | \(Self.binary) drive; "
                + "date +%s.%N > '\(back)'; echo DONE; exec sleep 60")
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor(timeout: 20) { $0.contains("DONE") })
        #expect(screen.filter { !$0.isEmpty } == ["✔ Built", "DONE"])
        let read = { (path: String) in Double((try? String(contentsOfFile: path, encoding: .utf8))?.trimmed ?? "") }
        #expect(waitUntil(timeout: 10) { read(back) != nil })
        let after = try #require(read(back)) - (try #require(read(end)))
        #expect(after < Self.frameBudget, "drive took \(after) s after its input ended")
    }

    /// With --linger run keeps the HUD's own time before it returns, the
    /// original's: a success 1.5 s plus 10 ms a character, a failure 3 s.
    /// The outcome's line stays after it.
    @Test(arguments: [
        (["--success", "ok"], 0, 1.52, "✔ ok"), (["--failure", "Broke"], 2, 3.0, "✖ Broke: exit status 2"),
    ])
    func lingerKeepsTheHUDsTime(arguments: [String], status: Int, seconds: Double, left: String) throws {
        let (after, screen, exit) = try run(["--linger"] + arguments, work: "sleep 0.3", status: status)
        #expect(exit == status)
        #expect(after >= seconds, "run --linger returned \(after) s after its command")
        #expect(screen == [left])
    }

    /// What stays, as a real terminal shows it after run returned: one line,
    /// in its history too, at 80 columns with the region drawn first, and in
    /// a terminal one column wide, where nothing else is ever drawn.
    @Test(arguments: ["mbhud", "netactivity", "line"], [80, 1])
    func theOutcomeLineStaysAtAnyWidth(presenter: String, cols: Int) throws {
        for (arguments, status, line) in [
            (["--success", "Built"], 0, "✔ Built"),
            (["--failure", "Build failed"], 2, "✖ Build failed: exit status 2"),
        ] {
            let go = GoFile()
            let script = "\(go.wait); exit \(status)"
            // A line first: the region does not come at the screen's top-left
            // cell, where erasing it is, for tmux, clearing the screen, which
            // it keeps in its history (scroll-on-clear).
            let tmux = try TmuxSession(
                command: "echo START; \(Self.binary) run --presenter \(presenter) --working Building "
                    + "\(arguments.map(TmuxSession.quoted).joined(separator: " ")) -- sh -c \(TmuxSession.quoted(script)); "
                    + "echo END; exec sleep 60", cols: cols)
            defer { tmux.kill() }
            if cols > 1 {
                // The region is up (a spinner's cell) before the command ends.
                try #require(
                    tmux.waitFor { $0.contains { $0.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) } } }
                        != nil)
            }
            go.create()
            let screen = try #require(tmux.waitFor { $0.contains("END") })
            // One column: the mark alone says how it ended.
            let expected = cols > 1 ? line : String(line.prefix(1))
            // (At one column START takes five rows: -J joins them.)
            #expect(screen == ["START", expected, "END"], "\(presenter), \(cols) columns")
            #expect(tmux.capture(history: true).filter { !$0.isEmpty } == ["START", expected, "END"])
            #expect(tmux.cursor().visible)
        }
    }

    /// A presenter built for ABI 1.0 (the frozen fixture) knows no final
    /// look: run writes the outcome's line itself.
    @Test func aPresenterBuiltForAnOlderABIGetsTheHostsLine() throws {
        let frozen = TestPaths.packageRoot.appendingPathComponent("Tests/PresenterHostTests/Fixtures/abi-1.0")
        let directory = TestPaths.temporaryDirectory("outcome-1.0")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Toolchain.compile([
            "cc", "-shared", "-fPIC", "-std=c11", "-I", frozen.path,
            "-o", directory.appendingPathComponent("libpresenter_1_0.so").path,
            frozen.appendingPathComponent("presenter_1_0.c").path,
        ])
        let go = GoFile()
        let script = "\(go.wait); exit 2"
        let tmux = try TmuxSession(
            command: "\(Self.binary) --plugin-dir \(TmuxSession.quoted(directory.path)) run "
                + "--presenter fixture.abi-1-0 --working Building --failure 'Build failed' -- "
                + "sh -c \(TmuxSession.quoted(script)); echo END; exec sleep 60")
        defer { tmux.kill() }
        // Its own box, while the command runs.
        try #require(tmux.waitFor { $0.contains { $0.contains("│ Building") || $0.contains("| Building") } } != nil)
        go.create()
        let screen = try #require(tmux.waitFor { $0.contains("END") })
        #expect(screen == ["✖ Build failed: exit status 2", "END"])
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
