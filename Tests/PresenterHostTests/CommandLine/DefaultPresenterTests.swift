import Foundation
import Testing

/// The default presenter with the real binary: `--presenter` first, then
/// `PRESENTER_HOST_PRESENTER`, then the settings file's `presenter = <id>`,
/// then mbhud; and a settings file that is wrong, said in one line, never
/// failing the command. Which presenter was chosen shows without a
/// terminal: an id no file holds is named, in plain mode too (an error
/// for --presenter's; a line, then mbhud, for a default's).
@Suite struct DefaultPresenterTests {
    /// A settings folder holding `config` with `text` (none when nil), and
    /// the environment that makes the binary read it.
    private func settings(_ text: String?) throws -> (folder: URL, environment: [String: String]) {
        let folder = TestPaths.temporaryDirectory("settings")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("presenter-host"), withIntermediateDirectories: true)
        if let text {
            try Data(text.utf8).write(to: folder.appendingPathComponent("presenter-host/config"))
        }
        return (folder, ["XDG_CONFIG_HOME": folder.path])
    }

    private func run(_ arguments: [String], config: String?, presenterVariable: String? = nil) throws -> ProcessResult {
        let (folder, base) = try settings(config)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = base
        if let presenterVariable { environment["PRESENTER_HOST_PRESENTER"] = presenterVariable }
        return try ProcessRunner.host(["run"] + arguments + ["--", "true"], environment: environment)
    }

    @Test func theFlagComesBeforeTheVariableWhichComesBeforeTheFile() throws {
        let all = try run(
            ["--presenter", "from-flag"], config: "presenter = from-file\n", presenterVariable: "from-env")
        #expect(all.status == 64)
        #expect(all.stderr.contains("no presenter 'from-flag'"), "\(all.stderr)")

        // A default that is not here is said, and mbhud shows: the command runs.
        let noFlag = try run([], config: "presenter = from-file\n", presenterVariable: "from-env")
        #expect(noFlag.status == 0)
        #expect(
            noFlag.stderr.hasPrefix(
                "presenter-host: PRESENTER_HOST_PRESENTER names a presenter that is not here: no presenter 'from-env' ("
            ),
            "\(noFlag.stderr)")
        #expect(noFlag.stderr.hasSuffix("; going on with mbhud\ntrue\n"), "\(noFlag.stderr)")

        let fileOnly = try run([], config: "# mine\n\npresenter = from-file\r\n", presenterVariable: "")
        #expect(fileOnly.status == 0)
        #expect(
            fileOnly.stderr.contains(
                "/presenter-host/config names a presenter that is not here: no presenter 'from-file'"),
            "\(fileOnly.stderr)")

        // Neither: mbhud, which is there; plain mode's working line alone.
        let none = try run([], config: nil)
        #expect(none.status == 0 && none.stderr == "true\n", "\(none.stderr)")
    }

    @Test func drivesDefaultIsTheSame() throws {
        let (folder, environment) = try settings("presenter = from-file\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ProcessRunner.host(["drive"], environment: environment)
        #expect(result.status == 0)
        #expect(
            result.stderr.contains("config names a presenter that is not here: no presenter 'from-file'"),
            "\(result.stderr)")
    }

    /// Each line that breaks the format: one line naming the file and the
    /// line, what is wrong and what to do; the command runs, with mbhud.
    @Test(arguments: [
        ("presenter line\n", ":1: expected 'key = value' or a # comment"),
        ("# ok\ncolour = red\n", ":2: 'colour' is not a setting; use presenter = <id> or <id>.<option> = <value>"),
        ("presenter = Line!\n", ":1: 'Line!' is not a presenter id"),
        ("presenter = line\npresenter = mbhud\n", ":2: 'presenter' is set twice"),
        (
            "line.spinner = a\u{1B}b\n",
            #":1: the value of 'line.spinner' has a control or bidi character (\x1B); remove it"#
        ),
        ("line.spinner = a\u{85}b\n", #":1: the value of 'line.spinner' has a control or bidi character (\x85)"#),
        ("line.spinner = a\u{2067}b\n", #":1: the value of 'line.spinner' has a control or bidi character (\u{2067})"#),
        (
            "line.spinner = \(String(repeating: "x", count: 1025))\n",
            ":1: the value of 'line.spinner' is over 1024 bytes; shorten it"
        ),
        // The host's own keys, for one presenter or all: they would beat --grace.
        ("line.grace-ms = 60000\n", ":1: 'line.grace-ms' is the host's own option; set it with run's --grace"),
        (
            "mbhud.failure-hold-ms = 1\n",
            ":1: 'mbhud.failure-hold-ms' is the host's own option, which no setting changes"
        ),
        // What the user wrote is quoted short.
        ("\(String(repeating: "k", count: 200)) = 1\n", ":1: '\(String(repeating: "k", count: 61))…' is not a setting"),
    ])
    func aBadLineIsSaidAndIgnored(config: String, said: String) throws {
        let (folder, environment) = try settings(config)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ProcessRunner.host(["run", "--", "true"], environment: environment)
        #expect(result.status == 0)
        // The one line, then plain mode's working line.
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines.last == "true", "\(result.stderr)")
        #expect(
            lines.first?.hasPrefix("presenter-host: \(folder.path)/presenter-host/config\(said)") == true,
            "\(result.stderr)")
        #expect(lines.first?.hasSuffix("(ignored: going on without it)") == true)
    }

    @Test func aFileTooLargeOrNotAFileIsSaidAndIgnored() throws {
        let large = try run([], config: String(repeating: "# padding\n", count: 7000))
        #expect(large.status == 0)
        #expect(large.stderr.contains("the settings file is over 64 KiB"), "\(large.stderr)")

        let (folder, environment) = try settings(nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("presenter-host/config"), withIntermediateDirectories: true)
        let directory = try ProcessRunner.host(["run", "--", "true"], environment: environment)
        #expect(directory.status == 0)
        #expect(directory.stderr.contains("config: the settings file is not a regular file"), "\(directory.stderr)")
    }

    @Test func aBadVariableIsSaidAndIgnored() throws {
        let result = try run([], config: "presenter = from-file\n", presenterVariable: "Not An Id")
        #expect(
            result.stderr.contains("PRESENTER_HOST_PRESENTER='Not An Id' is not a presenter id"), "\(result.stderr)")
        // It goes on as if the variable were not set: the file's.
        #expect(
            result.stderr.contains("config names a presenter that is not here: no presenter 'from-file'"),
            "\(result.stderr)")
    }

    /// A 20 KB variable is not a 20 KB line: quoted short, escaped.
    @Test func aLongVariableIsQuotedShort() throws {
        let result = try run([], config: nil, presenterVariable: String(repeating: "\u{1B}X", count: 10_000))
        let line = result.stderr.split(separator: "\n").first ?? ""
        #expect(line.hasPrefix(#"presenter-host: PRESENTER_HOST_PRESENTER='\x1BX\x1BX"#), "\(line)")
        #expect(line.utf8.count < 400 && line.contains("…' is not a presenter id"), "\(line)")
    }

    @Test func aPresenterOptionNeedsAKeyAndAValue() throws {
        let result = try ProcessRunner.host(["run", "--option", "spinner", "--", "true"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --option needs <key>=<value>"), "\(result.stderr)")
    }
}
