import Foundation
import Testing

/// A presenter the registry knows (from its file's description) whose file
/// then does not load (it disagrees with its description): the presenter
/// could not start, one line says so, plain lines take over, and the
/// command runs and ends as it would without it: in a presenter process
/// and, since the engine loads the chain at attach, in process alike. In a
/// terminal (stderr), where a presenter runs (plain mode runs none).
@Suite("run: a presenter that cannot start")
struct PresenterCannotStartTests {
    @Test(arguments: [false, true])
    func theCommandRunsAndPlainLinesTakeOver(inProcess: Bool) throws {
        let plugins = try FixtureBuilder.directory([.describedDisagreeing])
        let result = try ProcessRunner.hostInTerminal(
            ["--plugin-dir", plugins.path, "--no-cache", "run", "--presenter", "fixture.described-disagreeing"]
                + (inProcess ? ["--in-process"] : [])
                + ["--working", "Working", "--failure", "Broke", "--", "sh", "-c", "echo out; exit 3"],
            environment: ["LANG": "C.UTF-8"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stdout == "out\n")
        #expect(result.stderr.contains("could not be started"), "\(result.stderr)")
        #expect(result.stderr.contains("going on with plain progress lines"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("✖ Broke: exit status 3\n"), "\(result.stderr)")
    }
}
