import Foundation
import Testing

/// When a run's command ends and nothing of its presenter will stay on the
/// screen (a success without a message), `run` lets the presenter process
/// go at once instead of waiting for the hooks it is owed, or, when the
/// command was quicker than the process's start, for that start (the
/// prompt would wait for nothing to be drawn). Where something stays, or
/// the presenter's log is wanted, it is heard out as before.
@Suite("run: a presenter nothing waits for")
struct RunLetsItsPresenterGoTests {
    /// The misbehaving fixture, which here never finishes loading (its
    /// constructor waits for a file that never comes), under a hook budget
    /// no test waits out: `extra` goes before the command.
    private static func run(_ extra: [String], before: [String] = []) throws -> (
        result: ProcessResult, seconds: Double
    ) {
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let never = TestPaths.temporaryDirectory("never").appendingPathComponent("never").path
        let started = Date()
        let result = try ProcessRunner.hostInTerminal(
            before + ["--plugin-dir", plugins.path, "--no-cache", "run", "--presenter", "fixture.misbehaving"] + extra
                + ["--", "true"],
            environment: ["FIXTURE_LOAD_UNTIL": never])
        return (result, Date().timeIntervalSince(started))
    }

    /// Waiting for the presenter would take the whole budget (60 s): the
    /// run ends with its command, draws nothing and says nothing.
    @Test func aRunThatLeavesNothingDoesNotWaitForItsPresenter() throws {
        let (result, seconds) = try Self.run(["--hook-timeout", "60"])
        #expect(result.status == 0)
        #expect(seconds < TestTime.scaled(20), "took \(seconds) s")
        #expect(result.screen.allSatisfy { $0.isEmpty }, "\(result.screen)")
        #expect(!result.stderr.contains("presenter"), "\(result.stderr)")
    }

    /// An outcome that stays is the presenter's to draw: the run waits for
    /// it (here one hook budget, after which the host's own line stands).
    @Test func anOutcomeThatStaysIsStillWaitedFor() throws {
        let (result, _) = try Self.run(["--hook-timeout", "1", "--success", "Done"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("did not answer load within 1000 ms"), "\(result.stderr)")
        #expect(result.screen.contains { $0.contains("Done") }, "\(result.screen)")
    }

    /// With its log wanted (`-v`, `--trace`), the presenter's last hooks
    /// are what one reads: it is heard out too.
    @Test(arguments: [(["-v"], [String]()), ([], ["--trace"])])
    func withItsLogWantedThePresenterIsHeardOut(extra: [String], before: [String]) throws {
        let (result, _) = try Self.run(["--hook-timeout", "1"] + extra, before: before)
        #expect(result.status == 0)
        #expect(result.stderr.contains("did not answer load within 1000 ms"), "\(result.stderr)")
    }
}
