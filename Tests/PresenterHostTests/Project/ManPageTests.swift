import Foundation
import Testing

/// docs/presenter-host.1 as man shows it: rendered by groff, which is what
/// `man` runs (the text checks in CommandLineTests read its source).
@Suite("the man page, rendered", .enabled(if: Groff.executable != nil, Groff.missingNote))
struct ManPageTests {
    /// The page as text, on lines long enough that nothing wraps or is hyphenated.
    static func rendered() throws -> String {
        let page = TestPaths.packageRoot.appendingPathComponent("docs/presenter-host.1").path
        let result = try ProcessRunner.run(
            try #require(Groff.executable), ["-man", "-Tutf8", "-P-cbou", "-rLL=2000n", "-rHY=0", "-ww", page])
        #expect(result.status == 0)
        #expect(result.stderr == "", "groff's warnings")
        return result.stdout
    }

    /// A `.B` line's quotes group its words: a JSON example's own quotes must
    /// be `\(dq`, or roff eats them (`{"progress": 0.42, message : Downloading foo.tar }`).
    @Test func theJSONExamplesKeepTheirQuotes() throws {
        let text = try Self.rendered()
        for example in [
            #"{"progress": 0.42, "message": "Downloading foo.tar"}"#,
            #"{"complete", "layers": [{"layer", "state", "detail"}]}"#,
        ] {
            #expect(text.contains(example), "the man page does not show \(example)")
        }
    }
}

/// groff, which `man` renders pages with, if it is installed.
enum Groff {
    static let executable: URL? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("groff")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    static let missingNote: Comment = "SKIPPED: rendering the man page needs groff (apt-get install groff-base)"
}
