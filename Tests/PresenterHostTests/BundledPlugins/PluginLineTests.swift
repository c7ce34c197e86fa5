import Foundation
import Testing

/// The bundled one-row presenter, `line`, run by the real binary in tmux:
/// its row at 80 and 20 columns, every spinner style the docs name, its
/// colours with and without NO_COLOR (the pane captured with its escape
/// codes), the bar of a command that reports progress, and the outcome's
/// line that stays. The command waits on a go file until the test has seen
/// what it looks for.
@Suite(.enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct PluginLineTests {
    /// The styles README and the man page name, with their frames.
    static let styles: [(name: String, frames: [String])] = [
        ("dot", ["⣾", "⣽", "⣻", "⢿", "⡿", "⣟", "⣯", "⣷"]), ("line", ["|", "/", "-", "\\"]),
        ("minidot", ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]),
        ("jump", ["⢄", "⢂", "⢁", "⡁", "⡈", "⡐", "⡠"]), ("pulse", ["█", "▓", "▒", "░"]),
        ("points", ["∙∙∙", "●∙∙", "∙●∙", "∙∙●"]), ("globe", ["🌍", "🌎", "🌏"]),
        ("moon", ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"]), ("monkey", ["🙈", "🙉", "🙊"]),
        ("meter", ["▱▱▱", "▰▱▱", "▰▰▱", "▰▰▰", "▰▰▱", "▰▱▱", "▱▱▱"]), ("hamburger", ["☱", "☲", "☴", "☲"]),
    ]

    /// A tmux session of `cols` columns that prints 30 lines (so the
    /// cursor is on the last row), then runs `run --presenter line` with
    /// `options`, its command doing `work` once `go` exists.
    private func session(
        _ options: String, work: String = "exit 0", before: String = "", go: GoFile, cols: Int = 80
    ) throws -> TmuxSession {
        let command = "sh -c " + TmuxSession.quoted("\(before)\(go.wait); \(work)")
        return try TmuxSession(
            command: "seq 30; \(TmuxSession.quoted(TestPaths.binary.path)) run --presenter line \(options) -- "
                + "\(command); echo \"DONE $?\"; exec sleep 60", cols: cols)
    }

    /// The pane with its escape codes (`capture-pane -e`).
    private func coloured(_ tmux: TmuxSession) -> String {
        tmux.run(["capture-pane", "-p", "-e", "-t", "main"]).output
    }

    /// At 80 columns the row is the spinner and the message; at 20 the
    /// message is cut to the width. One row: the terminal scrolled by one
    /// (the line the cursor was on stays blank above it), not by five.
    @Test(arguments: [80, 20])
    func theRowIsTheSpinnerAndTheMessage(cols: Int) throws {
        let go = GoFile()
        let tmux = try session("--working 'Building the site'", go: go, cols: cols)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor { $0.last?.contains("Build") == true })
        let row = try #require(screen.last)
        #expect(Self.styles[0].frames.contains(String(row.prefix(1))), "\(row)")
        if cols == 80 {
            #expect(row.dropFirst() == "  Building the site")
        } else {
            #expect(row.dropFirst() == "  Building the si…", "\(row)")
        }
        #expect(screen.suffix(3).first == "30" && screen.suffix(2).first == "", "\(screen)")
        go.create()
        let end = try #require(tmux.waitFor { $0.last?.hasPrefix("DONE") == true })
        #expect(end.suffix(2) == ["30", "DONE 0"], "left behind: \(end)")
    }

    @Test(arguments: PluginLineTests.styles.map(\.name))
    func everySpinnerStyleShows(name: String) throws {
        let frames = try #require(Self.styles.first { $0.name == name }?.frames)
        let go = GoFile()
        let tmux = try session("--option spinner=\(name) --working Working", go: go)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor { $0.last?.hasSuffix(" Working") == true })
        let mark = try #require(screen.last?.dropLast(" Working".count)).trimmingCharacters(in: .whitespaces)
        #expect(frames.contains(mark), "\(name): \(mark)")
        go.create()
        #expect(tmux.waitFor { $0.last?.hasPrefix("DONE") == true } != nil)
    }

    /// The settings file makes line the default with its options; the
    /// command line's `--option` wins over the file's.
    @Test(arguments: [("", "moon"), ("--option spinner=line ", "line")])
    func theSettingsFileChoosesLineAndItsSpinner(flags: String, style: String) throws {
        let frames = try #require(Self.styles.first { $0.name == style }?.frames)
        let folder = TestPaths.temporaryDirectory("settings")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("presenter-host"), withIntermediateDirectories: true)
        try Data("presenter = line\nline.spinner = moon\n".utf8).write(
            to: folder.appendingPathComponent("presenter-host/config"))
        let go = GoFile()
        let tmux = try TmuxSession(
            command: "XDG_CONFIG_HOME=\(TmuxSession.quoted(folder.path)) \(TmuxSession.quoted(TestPaths.binary.path)) "
                + "run \(flags)--working Working -- sh -c \(TmuxSession.quoted(go.wait)); echo DONE; exec sleep 60")
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor { $0.last?.hasSuffix(" Working") == true })
        let mark = try #require(screen.last?.dropLast(" Working".count)).trimmingCharacters(in: .whitespaces)
        #expect(frames.contains(mark), "\(style): \(mark)")
        go.create()
        #expect(tmux.waitFor { $0.last == "DONE" } != nil)
    }

    /// An unknown style is the default's, with a warning in the log.
    @Test func anUnknownSpinnerIsTheDefaultWithAWarning() throws {
        let go = GoFile()
        let tmux = try session("-v --option spinner=bogus --working Working", go: go)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor { $0.last?.hasSuffix(" Working") == true })
        #expect(screen.contains { $0.contains("option spinner=\"bogus\" is not a spinner") }, "\(screen)")
        #expect(Self.styles[0].frames.contains(String(try #require(screen.last).prefix(1))))
        go.create()
        #expect(tmux.waitFor { $0.last?.hasPrefix("DONE") == true } != nil)
    }

    /// The spinner's colour (cyan by default) and the message's, as the
    /// options say; NO_COLOR leaves no colour at all, and still the row.
    @Test(arguments: [
        ("", ["\u{1B}[36m"]),
        ("--option spinner-color=red --option title-color=blue", ["\u{1B}[31m", "\u{1B}[34mWorking"]),
    ])
    func colours(options: String, codes: [String]) throws {
        let go = GoFile()
        let tmux = try session("\(options) --working Working", go: go)
        defer { tmux.kill() }
        #expect(tmux.waitFor { $0.last?.hasSuffix(" Working") == true } != nil)
        let pane = coloured(tmux)
        for code in codes { #expect(pane.contains(code), "\(code.debugDescription) in \(pane.debugDescription)") }
        go.create()
        #expect(tmux.waitFor { $0.last?.hasPrefix("DONE") == true } != nil)
    }

    @Test func noColorLeavesNoColour() throws {
        let go = GoFile()
        let tmux = try TmuxSession(
            command: "NO_COLOR=1 \(TmuxSession.quoted(TestPaths.binary.path)) run --presenter line "
                + "--option spinner-color=red --working Working -- sh -c \(TmuxSession.quoted(go.wait)); "
                + "echo DONE; exec sleep 60")
        defer { tmux.kill() }
        #expect(tmux.waitFor { $0.last?.hasSuffix(" Working") == true } != nil)
        let pane = coloured(tmux)
        #expect(!pane.contains("\u{1B}[3"), "\(pane.debugDescription)")
        go.create()
        #expect(tmux.waitFor { $0.last == "DONE" } != nil)
    }

    /// A command that reports 42%: the bar and the percentage at the row's
    /// end, the message cut before them; at 20 columns a short bar still.
    @Test(arguments: [80, 20])
    func theBarShowsReportedProgress(cols: Int) throws {
        let go = GoFile()
        let tmux = try session(
            "--working 'Compressing the logs'", before: "echo 42% >&$PRESENTER_PROGRESS_FD; ", go: go, cols: cols)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor { $0.last?.hasSuffix(" 42%") == true })
        let row = try #require(screen.last)
        #expect(row.contains("█") && row.contains("░"), "\(row)")
        #expect(row.count <= cols - 1, "\(row)")
        #expect(row.contains(cols == 80 ? "Compressing the logs" : "Comp"), "\(row)")
        go.create()
        #expect(tmux.waitFor { $0.last?.hasPrefix("DONE") == true } != nil)
    }

    /// Past "elapsed-after-ms" (0 here) the row says how long the work has
    /// run, and, with counts reported, its ETA and rate (ABI 1.4's times,
    /// the host's own estimate): `1s ETA …s …/s` after the percentage.
    /// Before the threshold (a minute), the row has none of it.
    @Test(arguments: [("0", true), ("60000", false)])
    func theRowSaysTheElapsedTimeETAAndRate(after: String, shown: Bool) throws {
        let go = GoFile()
        let steps = "i=0; while [ $i -lt 4 ]; do i=$((i + 1)); echo $i/100 >&$PRESENTER_PROGRESS_FD; sleep 0.2; done; "
        let tmux = try session("--option elapsed-after-ms=\(after) --working Copying", before: steps, go: go)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor { $0.last?.contains(" 4%") == true })
        let row = try #require(screen.last)
        #expect(row.contains("ETA ") == shown && row.contains("/s") == shown, "\(row)")
        #expect(
            row.range(of: #" 4% \d+s ETA \d+(m\d+)?s [0-9.]+k?/s$"#, options: .regularExpression) != nil || !shown,
            "\(row)")
        go.create()
        #expect(tmux.waitFor { $0.last?.hasPrefix("DONE") == true } != nil)
    }

    /// The outcome's line stays where the row was: the check mark and the
    /// success message, or the cross, the failure message and the reason.
    @Test(arguments: [
        ("--success 'Site built'", "exit 0", "✔ Site built", "DONE 0"),
        ("--failure 'Build failed'", "exit 2", "✖ Build failed: exit status 2", "DONE 2"),
    ])
    func theOutcomeLineStays(options: String, work: String, left: String, done: String) throws {
        let go = GoFile()
        let tmux = try session("\(options) --working Building", work: work, go: go)
        defer { tmux.kill() }
        #expect(tmux.waitFor { $0.last?.hasSuffix(" Building") == true } != nil)
        go.create()
        let end = try #require(tmux.waitFor { $0.last?.hasPrefix("DONE") == true })
        #expect(end.suffix(3) == ["30", left, done], "\(end)")
    }
}
