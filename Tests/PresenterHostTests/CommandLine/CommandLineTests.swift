import Foundation
import HostPlugins
import Testing
@testable import HostCommandLine

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
            .run(run(["sleep", "1"], presenter: "mbhud", chosen: true, plugins: PluginOptions(pluginDirs: ["p"])))
        ),
        (
            ["--rescan", "--allow-insecure-plugins", "--list"],
            .list(PluginOptions(cache: .rescan, allowInsecure: true), verbose: false, json: false)
        ),
        (
            ["--no-cache", "--bundled-only", "run", "true"],
            .run(run(["true"], plugins: PluginOptions(cache: .off, bundledOnly: true)))
        ),
        // The plugin options are the command's own, before its name or after it.
        (
            ["--plugin-dir", "a", "run", "--plugin-dir=b", "--rescan", "--", "true"],
            .run(run(["true"], plugins: PluginOptions(pluginDirs: ["a", "b"], cache: .rescan)))
        ),
        (["list", "--no-cache", "--ids"], .list(PluginOptions(cache: .off), verbose: false, json: false, ids: true)),
        (["--list", "--help"], .help),
        (["-h"], .help),
        (["run", "--help", "--bogus"], .commandHelp("run")),
        (["--version", "--list"], .version),
        (["--plugin-dir", "a", "--print-plugin-path"], .printPluginPath(PluginOptions(pluginDirs: ["a"]))),
        (["--bundled-only", "--print-plugin-path"], .printPluginPath(PluginOptions(bundledOnly: true))),
        (["completions", "zsh"], .completions(.zsh)),
        (["bookmarks", "--store=/s.json", "--json"], .bookmarks(json: true, store: "/s.json")),
    ])
    func argumentsParse(arguments: [String], expected: PresenterHostCommand.Invocation) throws {
        #expect(try PresenterHostCommand.parse(arguments) == expected)
    }

    /// An option read before a command's name is taken as read
    /// (``ArgumentParser/parse(_:as:after:)``), not read again: so every
    /// option the top spec reads must mean the same option, with the same
    /// kind of value, in each command that takes it (or the command
    /// refuses it, as it would after its name).
    @Test func anOptionBeforeACommandMeansTheSameInTheCommand() {
        for command in CommandTable.commands {
            for option in CommandTable.top.options {
                for name in [option.name] + (option.short.map { [$0] } ?? []) {
                    guard let own = command.option(named: name) else { continue }
                    let target = own.alias.flatMap { command.option(named: $0.name) } ?? own
                    let topTarget = option.alias.flatMap { CommandTable.top.option(named: $0.name) } ?? option
                    #expect(target.name == topTarget.name, "\(name) before \(command.name)")
                    #expect(
                        own.value.placeholder == option.value.placeholder,
                        "\(name) before \(command.name) takes another value")
                }
            }
        }
    }

    private static func run(
        _ command: [String], presenter: String = "mbhud", chosen: Bool = false, plugins: PluginOptions
    ) -> RunOptions {
        var options = RunOptions()
        options.presentation.presenter = presenter
        options.presentation.presenterChosen = chosen
        options.command = command
        options.presentation.plugins = plugins
        return options
    }

    @Test(arguments: [
        (["--foo"], "Unknown option '--foo'"),
        (["--list", "-x"], "Unknown option '-x'"),
        (["--list", "extra"], "Unexpected argument 'extra'"),
        (["--list", "--plugin-dir"], "Missing value for '--plugin-dir <dir>'"),
        (["--plugin-dir", "--list"], "Missing value for '--plugin-dir <dir>'"),
        (["--plugin-dir=", "--list"], "--plugin-dir needs a directory"),
        (["--rescan", "--no-cache", "--list"], "--rescan and --no-cache cannot be combined"),
        (["--rescan", "run", "--no-cache", "true"], "--rescan and --no-cache cannot be combined"),
        (["--json"], "'--json' needs '--list'"),
        (["-v"], "'--verbose' needs '--list'"),
        (
            ["--plugin-dir", "x"],
            "Missing command: use '--list', 'run', 'add-bookmark', 'bookmarks', 'check', 'drive', '--print-plugin-path', '--sandbox-info' or 'completions'"
        ),
        (
            ["frobnicate"],
            "Unknown command 'frobnicate'; the commands are --list, run, add-bookmark, bookmarks, check, drive, --print-plugin-path, --sandbox-info and completions"
        ),
        (["run", "--list"], "Unknown option '--list'"),
        (["--json", "run", "true"], "Unknown option '--json'"),
        (["--list", "--json", "--ids"], "--json and --ids cannot be combined"),
        (["completions", "tcsh"], "'tcsh' is not bash, zsh or fish"),
        (["completions"], "completions needs a shell: bash, zsh or fish"),
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
        #expect(result.stdout == "presenter-host 0.1.0 (presenter ABI 1.4)\n")
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

    /// The words that name `command` and the operands it needs, for a test
    /// of one of its options.
    private static func invoking(_ command: CommandSpec, with options: [String]) -> [String] {
        let word = command.names.first { !$0.hasPrefix("-") } ?? command.name
        switch command.operands {
        case .command: return [word] + options + ["--", "true"]
        case .files: return [word] + options + ["x.so"]
        case .choice(_, let values, _): return [word] + options + [values[0]]
        case .none: return [word] + options
        }
    }

    /// One shape for every command's usage error, through the binary: the
    /// line, the command's usage lines, where its help is; status 64.
    @Test(arguments: CommandTable.commands.filter { $0.hasHelpPage || !$0.aliases.isEmpty }.map(\.name))
    func everyCommandsUsageErrorHasOneShape(name: String) throws {
        let command = try #require(CommandTable.commands.first { $0.name == name })
        let result = try ProcessRunner.host(Self.invoking(command, with: ["--bogus=1"]))
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(
            result.stderr == "Error: Unknown option '--bogus'\n" + Usage.usageLines(command) + Usage.seeHelp(command))
    }

    /// `--option=value` and `--option value` are the same to every command,
    /// for every option that takes a value: the same options, or the same error.
    @Test func everyOptionTakesItsValueInlineOrNext() throws {
        for command in CommandTable.commands {
            for option in command.options {
                if case .flag = option.value { continue }
                for value in ["", "x", "2", "never", "tail=3"] {
                    func outcome(_ words: [String]) -> String {
                        do {
                            return "\(try PresenterHostCommand.parse(Self.invoking(command, with: words)))"
                        } catch {
                            return "\(error)"
                        }
                    }
                    let inline = outcome(["\(option.name)=\(value)"])
                    #expect(inline == outcome([option.name, value]), "\(command.name) \(option.name) \(value)")
                }
            }
        }
        #expect(
            try PresenterHostCommand.parse(["check", "--hook-timeout=5", "x.so"])
                == .check(
                    {
                        var options = CheckCommand.Options(files: ["x.so"])
                        options.hookTimeout = 5
                        options.plugins.cache = .off
                        return options
                    }()))
    }

    /// The help of each command lists what its table says it takes, and
    /// nothing the table does not have: both come from ``CommandTable``.
    @Test(arguments: CommandTable.commands.filter(\.hasHelpPage).map(\.name))
    func eachCommandsHelpListsItsOptions(name: String) throws {
        let command = try #require(CommandTable.commands.first { $0.name == name })
        let result = try ProcessRunner.host([name, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout == Usage.help(command))
        #expect(result.stdout.hasPrefix(Usage.usageLines(command)))
        for option in command.options { #expect(result.stdout.contains("  " + option.label), "\(option.name)") }
        let listed = Set(
            result.stdout.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  -") else { return nil }
                return line.split(separator: " ").map(String.init).first { $0.hasPrefix("--") }
            })
        #expect(listed == Set(command.options.map(\.name)))
    }

    /// The README's and the man page's account of the command line is the
    /// table's: the README's usage block is the help's usage lines, and
    /// both name every command and every option.
    @Test func theReadmeAndTheManPageNameWhatTheTableHas() throws {
        let readme = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "## The command line\n\n```\n").dropFirst().first?
                .components(separatedBy: "```").first)
        #expect(
            block
                == (CommandTable.commands.flatMap(\.synopsis) + ["presenter-host --help | --version"]).map { $0 + "\n" }
                .joined())
        let man = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/presenter-host.1"), encoding: .utf8)
        for command in [CommandTable.top] + CommandTable.commands {
            for option in command.options {
                #expect(readme.contains("`" + option.name), "README lacks \(command.name) \(option.name)")
                #expect(
                    man.contains(option.name.replacingOccurrences(of: "-", with: "\\-")),
                    "the man page lacks \(command.name) \(option.name)")
            }
            guard command.name != CommandTable.top.name else { continue }
            let roff =
                command.name.hasPrefix("-") ? command.name.replacingOccurrences(of: "-", with: "\\-") : command.name
            #expect(man.contains(".B " + roff) || man.contains(".BR " + roff), "the man page lacks \(command.name)")
        }
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
