import Foundation
import Testing

/// `PRESENTER_HOST_DEBUG=1` and `--trace`: every discovery decision and
/// every hook call (arguments, result, duration) on stderr, or in the
/// `--log` file when there is one; nothing of it otherwise. Runs in a
/// terminal (stderr), where a presenter runs (plain mode runs none).
@Suite struct TracingTests {
    // A computed property: a Regex is not Sendable, so it cannot be a stored static.
    private static var hookLine: Regex<Substring> {
        #/trace: fixture\.misbehaving\.show\("Working", interactor #1 "run" progress -1\.0\) -> OK in [0-9]+\.[0-9]{3} ms/#
    }

    private func directory() throws -> URL { try FixtureBuilder.directory([.misbehaving, .text]) }

    @Test(arguments: [(["--trace"], [:]), ([], ["PRESENTER_HOST_DEBUG": "1"])] as [([String], [String: String])])
    func runTracesDiscoveryAndEveryHookOnStderr(flags: [String], environment: [String: String]) throws {
        for isolation in [[], ["--in-process"]] {
            let plugins = try directory()
            let result = try ProcessRunner.hostInTerminal(
                flags + ["--plugin-dir", plugins.path, "run"] + isolation
                    + ["--presenter", "fixture.misbehaving", "--working", "Working", "--", "true"],
                environment: environment)
            #expect(result.status == 0)
            let stderr = result.textLines.joined(separator: "\n")
            #expect(
                stderr.contains("trace: discovery: directory \(plugins.path) (flag): exists, 2 candidate files (*.so)"),
                "\(stderr)")
            #expect(
                stderr.contains(
                    "trace: discovery:   taken: \(plugins.path)/libmisbehaving.so: presenter 'fixture.misbehaving'"))
            #expect(
                stderr.contains(
                    "trace: discovery:   refused: \(plugins.path)/libtext.so: is a text file, not an ELF shared library"
                ))
            #expect(
                stderr.contains(
                    "(bundled): exists, 4 candidate files (only libMBHud.so, libNetActivity.so, libAddBookmark.so, libLine.so)"
                ))
            #expect(stderr.contains(Self.hookLine), "\(isolation): \(stderr)")
            for hook in [
                "create() -> OK", "hide(NULL, interactor #1 \"run\" progress -1.0, success) -> OK", "destroy() -> done",
            ] {
                #expect(stderr.contains("trace: fixture.misbehaving.\(hook) in "), "\(hook): \(stderr)")
            }
        }
    }

    @Test func withALogFileTheTraceGoesThereAndNotToStderr() throws {
        let log = TestPaths.temporaryDirectory("trace").appendingPathComponent("run.log")
        let result = try ProcessRunner.hostInTerminal([
            "--trace", "--plugin-dir", try directory().path, "run", "--log", log.path,
            "--presenter", "fixture.misbehaving", "--working", "Working", "--", "true",
        ])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("trace:"), "\(result.stderr)")
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("presenter-host: debug: trace: discovery: directory"))
        #expect(text.contains(Self.hookLine))
    }

    @Test func withoutTracingNothingIsTracedEvenVerbose() throws {
        let result = try ProcessRunner.hostInTerminal(
            [
                "--plugin-dir", try directory().path, "run", "-v", "--presenter", "fixture.misbehaving",
                "--working", "Working", "--", "true",
            ], environment: ["PRESENTER_HOST_DEBUG": "0"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("trace:"), "\(result.stderr)")
        #expect(result.textLines.contains { $0.hasSuffix("fixture.misbehaving: info: showing Working") })
    }

    @Test func listTracesDiscoveryOnStderrAndKeepsItsStdout() throws {
        let plugins = try directory()
        let plain = try ProcessRunner.host(["--plugin-dir", plugins.path, "--list"])
        let traced = try ProcessRunner.host(["--trace", "--plugin-dir", plugins.path, "--list"])
        #expect(traced.stdout == plain.stdout)
        #expect(
            traced.stderr.contains(
                "presenter-host: debug: trace: discovery:   taken: \(plugins.path)/libmisbehaving.so"))
        #expect(!plain.stderr.contains("trace:"))
    }
}

extension TracingTests {
    /// The commands that run work under a presenter take --trace before
    /// their name or after it, and trace discovery and the hooks on stderr
    /// as run does (issue 20, item 1: an option taken is an option honoured).
    @Test(
        arguments: [
            ["run", "--presenter", "fixture.misbehaving", "--", "true"],
            ["drive", "--presenter", "fixture.misbehaving"],
            [
                "add-bookmark", "--add", "--url", "https://example.org/", "--title", "T", "--presenter",
                "fixture.misbehaving",
            ],
        ], [true, false])
    func everyCommandThatTakesTraceTracesDiscoveryAndHooks(command: [String], before: Bool) throws {
        let plugins = try directory()
        let home = TestPaths.temporaryDirectory("home")
        let arguments =
            before
            ? ["--trace", "--plugin-dir", plugins.path] + command
            : [command[0], "--trace", "--plugin-dir", plugins.path] + command.dropFirst()
        let result = try ProcessRunner.hostInTerminal(
            arguments, environment: ["HOME": home.path, "XDG_DATA_HOME": home.path, "PRESENTER_HOST_DEBUG": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        let stderr = result.textLines.joined(separator: "\n")
        #expect(stderr.contains("trace: discovery:   taken: \(plugins.path)/libmisbehaving.so"), "\(stderr)")
        #expect(stderr.contains("trace: fixture.misbehaving.create() -> OK in "), "\(stderr)")
    }

    @Test func discoverySaysWhetherEachFileCameFromTheRegistryCache() throws {
        let plugins = try directory()
        let cache = TestPaths.temporaryDirectory("trace-cache")
        let environment = ["XDG_CACHE_HOME": cache.path]
        let line = "trace: discovery:   taken: \(plugins.path)/libmisbehaving.so: presenter 'fixture.misbehaving'"
        let cold = try ProcessRunner.host(
            ["--trace", "--plugin-dir", plugins.path, "--list"], environment: environment)
        #expect(cold.stderr.contains(line + " (cache miss, loaded)"), "\(cold.stderr)")
        let warm = try ProcessRunner.host(
            ["--trace", "--plugin-dir", plugins.path, "--list"], environment: environment)
        #expect(warm.stderr.contains(line + " (cache hit)"), "\(warm.stderr)")
        let off = try ProcessRunner.host(
            ["--trace", "--no-cache", "--plugin-dir", plugins.path, "--list"], environment: environment)
        #expect(off.stderr.contains(line + " (cache miss, loaded)"), "\(off.stderr)")
    }
}
