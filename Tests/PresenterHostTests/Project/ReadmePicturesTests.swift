import Foundation
import Testing

/// The README's pictures of the bundled presenters are what they draw
/// today: `scripts/screenshots --check` captures each one again in tmux
/// with the built binary and compares.
@Suite("README: the presenters' pictures", .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct ReadmePicturesTests {
    private static let script = TestPaths.packageRoot.appendingPathComponent("scripts/screenshots")

    private func check(_ readme: URL) throws -> ProcessResult {
        try ProcessRunner.run(
            Self.script, ["--check", "--binary", TestPaths.binary.path, "--readme", readme.path],
            environment: ["SCREENSHOTS_WAIT": String(Int(TestTime.scaled(30)))])
    }

    @Test func theREADMEsPicturesAreWhatThePresentersDrawToday() throws {
        let result = try check(TestPaths.packageRoot.appendingPathComponent("README.md"))
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aStalePictureIsFound() throws {
        let readme = TestPaths.packageRoot.appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        // netactivity drawn where it used to be said to be: the top right of the terminal.
        let stale = text.replacingOccurrences(
            of: "$ presenter-host run --presenter netactivity -- ./build.sh\n",
            with: "$ presenter-host run --presenter netactivity -- ./build.sh" + String(repeating: " ", count: 12)
                + "⠋\n")
        try #require(stale != text, "the README has no netactivity picture")
        let copy = TestPaths.temporaryDirectory("readme").appendingPathComponent("README.md")
        try stale.write(to: copy, atomically: true, encoding: .utf8)
        let result = try check(copy)
        #expect(result.status == 1)
        #expect(result.stderr.contains("-$ presenter-host run --presenter netactivity -- ./build.sh            ⠋"))
        #expect(result.stderr.contains("pictures are not what the presenters draw today; run scripts/screenshots"))
    }
}
