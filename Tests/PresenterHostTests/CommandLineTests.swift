import Foundation
import Testing
@testable import PresenterHost

/// Parsing of the top-level command line, and the binary's help, version
/// and usage errors.
@Suite struct CommandLineTests {
    @Test(arguments: [
        (["--list"], PresenterHostCommand.Invocation.list(PluginOptions(), verbose: false, json: false)),
        (["list", "-v"], .list(PluginOptions(), verbose: true, json: false)),
        (
            ["--plugin-dir", "a", "--plugin-dir=/b", "--list", "--verbose", "--json"],
            .list(PluginOptions(pluginDirs: ["a", "/b"]), verbose: true, json: true)
        ),
        (
            ["--plugin-dir", "p", "run", "--presenter", "mbhud", "--", "sleep", "1"],
            .run(arguments: ["--presenter", "mbhud", "--", "sleep", "1"], plugins: PluginOptions(pluginDirs: ["p"]))
        ),
        (["run", "--list"], .run(arguments: ["--list"], plugins: PluginOptions())),
        (
            ["--rescan", "--allow-insecure-plugins", "--list"],
            .list(PluginOptions(cache: .rescan, allowInsecure: true), verbose: false, json: false)
        ),
        (
            ["--no-cache", "--bundled-only", "run", "true"],
            .run(arguments: ["true"], plugins: PluginOptions(cache: .off, bundledOnly: true))
        ),
        (["--list", "--help"], .help),
        (["-h"], .help),
        (["--version", "--list"], .version),
        (["--plugin-dir", "a", "--print-plugin-path"], .printPluginPath(pluginDirs: ["a"])),
    ])
    func argumentsParse(arguments: [String], expected: PresenterHostCommand.Invocation) throws {
        #expect(try PresenterHostCommand.parse(arguments) == expected)
    }

    @Test(arguments: [
        (["--foo"], "Unknown option '--foo'"),
        (["--list", "-x"], "Unknown option '-x'"),
        (["--list", "extra"], "Unexpected argument 'extra'"),
        (["--list", "--plugin-dir"], "Missing value for '--plugin-dir <dir>'"),
        (["--plugin-dir", "--list"], "Missing value for '--plugin-dir <dir>'"),
        (["--plugin-dir=", "--list"], "Empty value for '--plugin-dir <dir>'; give a directory"),
        (["--rescan", "--no-cache", "--list"], "'--rescan' and '--no-cache' cannot be combined"),
        (["--json"], "'--json' needs '--list'"),
        (["-v"], "'--verbose' needs '--list'"),
        (
            ["--plugin-dir", "x"],
            "Missing command: use '--list', 'run', 'check', 'drive', 'add-bookmark' or 'bookmarks'"
        ),
        (["--list", "run"], "'--list' cannot be combined with 'run'; put run's options after 'run'"),
        (
            ["--list", "add-bookmark"],
            "'--list' cannot be combined with 'add-bookmark'; put add-bookmark's options after 'add-bookmark'"
        ),
        (["--print-plugin-path", "--list"], "'--list' cannot be combined with '--print-plugin-path'"),
    ])
    func usageErrorsNameTheProblem(arguments: [String], message: String) {
        #expect(throws: CommandError.usage(message)) { try PresenterHostCommand.parse(arguments) }
    }

    @Test func helpGoesToStdoutAndExitsZero() throws {
        for flag in ["--help", "-h"] {
            let result = try ProcessRunner.host([flag])
            #expect(result.status == 0)
            #expect(result.stdout.contains("Usage: presenter-host [<plugin options>] --list [--verbose] [--json]"))
            for option in [
                "--rescan", "--no-cache", "--allow-insecure-plugins", "--bundled-only", "PRESENTER_HOST_BUNDLED_ONLY",
            ] {
                #expect(result.stdout.contains(option))
            }
            #expect(result.stdout.contains("PRESENTER_PLUGIN_PATH"))
            #expect(result.stdout.contains("docs/ABI.md"))
            // The scan helper's flag is internal.
            #expect(!result.stdout.contains("--scan-plugins"))
            #expect(result.stderr == "")
        }
    }

    @Test func versionNamesTheABI() throws {
        let result = try ProcessRunner.host(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "presenter-host 0.1.0 (presenter ABI 1.1)\n")
        #expect(result.stderr == "")
    }

    @Test(arguments: [
        (["--foo"], "Error: Unknown option '--foo'"),
        (["--list", "--plugin-dir"], "Error: Missing value for '--plugin-dir <dir>'"),
    ])
    func aUsageErrorIsOneLineThenTheUsageAndExits64(arguments: [String], firstLine: String) throws {
        let result = try ProcessRunner.host(arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == firstLine)
        #expect(lines.dropFirst().first?.hasPrefix("Usage: presenter-host") == true)
        #expect(lines.dropLast().last == "See 'presenter-host --help'.")
    }

    @Test func noArgumentsPrintsTheUsageToStderrAndExits64() throws {
        let result = try ProcessRunner.host([])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Usage: presenter-host"))
        #expect(result.stderr.hasSuffix("See 'presenter-host --help'.\n"))
    }

    /// `--print-plugin-path`: every directory of the search path, one a line,
    /// in search order; the user's missing directories warned about on stderr.
    @Test func printPluginPathPrintsTheSearchPathInOrder() throws {
        let flagged = TestPaths.temporaryDirectory("flag")
        let result = try ProcessRunner.host(
            ["--plugin-dir", flagged.path, "--print-plugin-path"],
            environment: [
                "PRESENTER_PLUGIN_PATH": "/nonexistent-env:relative",
                "XDG_DATA_HOME": "/xdg",
            ])
        #expect(result.status == 0)
        #expect(
            result.stdout
                == [
                    flagged.path, "/nonexistent-env", "/xdg/presenter-host/plugins",
                    TestPaths.binary.resolvingSymlinksInPath().deletingLastPathComponent().path,
                ]
                .map { $0 + "\n" }.joined())
        #expect(result.stderr.contains("ignoring relative entry 'relative' in PRESENTER_PLUGIN_PATH"))
        #expect(result.stderr.contains("/nonexistent-env: no such directory"))
    }
}
