import Foundation
import Testing

/// docs/writing-a-presenter-in-c.md: its code is the tutorial presenter's
/// (Examples/c-tutorial/elapsed_hud.c) word for word, and that presenter
/// builds, passes every check (its base, mbhud, reached) and runs.
@Suite struct CGuideTests {
    private static let guide = TestPaths.packageRoot.appendingPathComponent("docs/writing-a-presenter-in-c.md")
    private static let source = TestPaths.packageRoot.appendingPathComponent("Examples/c-tutorial/elapsed_hud.c")

    @Test func everyCodeBlockOfTheGuideIsInTheTutorialPresenter() throws {
        let guide = try String(contentsOf: Self.guide, encoding: .utf8)
        let source = try String(contentsOf: Self.source, encoding: .utf8)
        let blocks = guide.components(separatedBy: "```c\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 7)
        for block in blocks {
            #expect(source.contains(block), "not in elapsed_hud.c:\n\(block)")
        }
        // The files it links to are there.
        for link in [
            "../Examples/c-tutorial/elapsed_hud.c", "../Examples/template-c", "ABI.md", "writing-a-presenter.md",
        ] {
            #expect(
                FileManager.default.fileExists(
                    atPath: Self.guide.deletingLastPathComponent().appendingPathComponent(link).path), "\(link)")
        }
    }

    @Test func theTutorialPresenterBuildsPassesEveryCheckAndRuns() throws {
        let directory = TestPaths.temporaryDirectory("c-guide")
        let library = directory.appendingPathComponent("libelapsed_hud.so")
        try Toolchain.compile([
            "cc", "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic",
            "-I", TestPaths.abiInclude.path, "-o", library.path, Self.source.path,
        ])
        // A budget of its own: under a loaded parallel test run a hook can
        // take more than half the usual 250 ms, and "budget" would WARN for
        // the machine, not the presenter (the budget check has its own tests).
        let check = try ProcessRunner.host(["check", "--hook-timeout", "10", library.path])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("  PASS  base: 'mbhud' reached\n"), "\(check.stdout)")
        #expect(check.stdout.hasSuffix(" passed, 0 failed, 0 warned\n"), "\(check.stdout)")

        // In a terminal, as the guide runs it (plain mode runs no presenter).
        let run = try ProcessRunner.hostInTerminal([
            "--trace", "--plugin-dir", directory.path, "run", "--presenter", "tutorial.elapsed",
            "--working", "Saving", "--", "true",
        ])
        #expect(run.status == 0)
        // Its show ran, and mbhud's through base_show inside it.
        let stderr = run.textLines.joined(separator: "\n")
        #expect(
            stderr.contains(
                #/trace: mbhud\.show\("Saving", interactor #1 "run" progress -1\.0\) -> OK in [0-9.]+ ms\n.*trace: tutorial\.elapsed\.show\("Saving", interactor #1 "run" progress -1\.0\) -> OK in/#
            ),
            "\(stderr)")
    }
}
