import Foundation
import Testing

/// `scripts/soak`'s own command line (the soak itself runs in scripts/test).
@Suite struct SoakScriptTests {
    @Test func helpPrintsTheUsageAndBuildsNothing() throws {
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/soak")
        let result = try ProcessRunner.run(script, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("scripts/soak [--seconds N] [--jobs J] [--seed S]"), "\(result.stdout)")
        #expect(result.stdout.contains("Exits 1 when any run failed"))
        // Before it built the release binary first (its output goes to stderr).
        #expect(result.stderr == "")
    }
}
