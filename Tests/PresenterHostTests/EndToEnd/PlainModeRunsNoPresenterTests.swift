import Foundation
import Testing

/// Where nothing will be drawn (plain lines: stderr not a terminal,
/// `TERM=dumb`, CI, `--static`, `ACCESSIBLE=1`), the host prints its lines
/// itself: no presenter process starts, not even ahead, and no plugin file
/// is loaded in any process; the presenter is still looked up, for its
/// errors. In a terminal the presenter process starts ahead, and never
/// holds the command's start.
@Suite("plain mode runs no presenter")
struct PlainModeRunsNoPresenterTests {
    /// Where a run's stderr is, and what says plain lines there.
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case pipe, ci, dumbTerminal, accessible, staticFlag
        /// A terminal with nothing that asks for plain lines: the contrast.
        case terminal

        var testDescription: String { rawValue }
        var plain: Bool { self != .terminal }

        /// `arguments` run here.
        func run(_ arguments: [String]) throws -> ProcessResult {
            switch self {
            case .pipe: return try ProcessRunner.host(arguments)
            case .ci: return try ProcessRunner.hostInTerminal(arguments, environment: ["CI": "1"])
            case .dumbTerminal: return try ProcessRunner.hostInTerminal(arguments, environment: ["TERM": "dumb"])
            case .accessible: return try ProcessRunner.hostInTerminal(arguments, environment: ["ACCESSIBLE": "1"])
            case .staticFlag:
                var arguments = arguments
                arguments.insert("--static", at: try #require(arguments.firstIndex(of: "run")) + 1)
                return try ProcessRunner.hostInTerminal(arguments)
            case .terminal: return try ProcessRunner.hostInTerminal(arguments)
            }
        }
    }

    /// The command lists its parent's children (`/proc/PID/task/*/children`):
    /// in plain mode the host has one, the command itself; in a terminal the
    /// presenter process, started ahead, runs beside it.
    @Test(arguments: Place.allCases)
    func plainModeStartsNoPresenterProcess(place: Place) throws {
        let plugins = try FixtureBuilder.directory([.described])
        let result = try place.run(
            [
                "--plugin-dir", plugins.path, "--no-cache", "run", "--presenter", "fixture.described",
                "--working", "Working", "--success", "Done", "--",
                "sh", "-c", "echo $$; cat /proc/$PPID/task/*/children",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let command = try #require(lines.first.map(String.init))
        let children = lines.dropFirst().flatMap { $0.split(separator: " ").map(String.init) }
        if place.plain {
            #expect(children == [command], "the host's children: \(children)")
            #expect(result.stderr == "Working\n✔ Done\n")
        } else {
            #expect(children.count == 2 && children.contains(command), "the host's children: \(children)")
        }
    }

    /// A presenter whose file would kill or hang whatever loads it (known
    /// from its description): in plain mode the run is exactly as with
    /// no plugin at all, in a presenter process or `--in-process` (where
    /// loading it would kill the host itself).
    @Test(arguments: [
        (Fixture.describedAborting, false), (Fixture.describedAborting, true), (Fixture.describedHanging, false),
    ])
    func aPresenterThatWouldCrashOrHangAtLoadIsNeverLoaded(fixture: Fixture, inProcess: Bool) throws {
        let plugins = try FixtureBuilder.directory([fixture])
        let id = "fixture.\(fixture.rawValue)"
        let run = try ProcessRunner.host(
            ["--plugin-dir", plugins.path, "--no-cache", "run", "--presenter", id] + (inProcess ? ["--in-process"] : [])
                + ["--working", "Working", "--failure", "Broke", "--", "sh", "-c", "echo out; exit 3"])
        #expect(run.status == 3)
        #expect(run.stdout == "out\n")
        #expect(run.stderr == "Working\n✖ Broke: exit status 3\n")

        let drive = try ProcessRunner.run(
            TestPaths.binary, ["--plugin-dir", plugins.path, "--no-cache", "drive", "--presenter", id],
            stdin: #"{"start": "a", "working": "W"}"# + "\n" + #"{"succeed": "a", "message": "S"}"# + "\n")
        #expect(drive.status == 0)
        #expect(drive.stderr == "W\n✔ S\n")
    }

    /// An unknown presenter is the same usage error as ever: the id is
    /// still looked up where nothing will be drawn.
    @Test func anUnknownPresenterIsStillAUsageError() throws {
        let result = try ProcessRunner.host(["run", "--presenter", "no.such", "--", "true"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: no presenter 'no.such'"), "\(result.stderr)")
    }

    /// In a terminal the presenter process starts ahead, beside the
    /// command, and never holds its start: here the presenter's file
    /// finishes loading only once the command has run (its constructor
    /// waits for the file the command creates), within a hook budget no
    /// machine reaches. Were the command held until the presenter had
    /// loaded, the load would run out of its budget and plain lines would
    /// take over.
    @Test func aPresenterSlowToStartDoesNotHoldTheCommandsStart() throws {
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let go = GoFile()
        let result = try ProcessRunner.hostInTerminal(
            [
                "--plugin-dir", plugins.path, "--no-cache", "run", "--presenter", "fixture.misbehaving",
                "--hook-timeout", "60", "--working", "Working", "--success", "Done", "--",
                "sh", "-c", "touch '\(go.path)'; echo started",
            ],
            environment: [
                "FIXTURE_LOAD_UNTIL": go.path,
                // Its own root would hide the test's folder from the constructor.
                "PRESENTER_HOST_SANDBOX_OFF": "landlock,seccomp,limits,namespaces",
            ])
        #expect(result.status == 0)
        #expect(result.stdout == "started\n")
        #expect(!result.stderr.contains("plain progress lines"), "\(result.stderr)")
        #expect(result.stderr.contains("Done"), "\(result.stderr)")
    }
}
