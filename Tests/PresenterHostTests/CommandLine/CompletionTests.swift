import Foundation
import Testing
@testable import HostCommandLine

/// `presenter-host completions bash|zsh|fish`: scripts written from the
/// command table that complete every command, option and value, run in the
/// real shells. bash's completion function is called as bash calls it
/// (COMP_WORDS, COMP_CWORD); zsh completes in tmux on Tab; fish answers
/// `complete -C`.
@Suite struct CompletionTests {
    static func shell(_ name: String) -> URL? {
        ["/usr/bin/\(name)", "/bin/\(name)"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The script for `shell`, written by the binary.
    private func script(_ shell: String) throws -> URL {
        let result = try ProcessRunner.host(["completions", shell])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let file = TestPaths.temporaryDirectory("completions").appendingPathComponent("presenter-host.\(shell)")
        try Data(result.stdout.utf8).write(to: file)
        return file
    }

    /// An option of one name is one kind of value in every command: the
    /// scripts complete a value by the option's name alone.
    @Test func anOptionOfOneNameTakesOneKindOfValueEverywhere() {
        var seen: [String: String] = [:]
        for command in [CommandTable.top] + CommandTable.commands {
            for option in command.options {
                let kind = "\(option.value.placeholder ?? "flag") \(option.completedValues)"
                #expect(seen[option.name, default: kind] == kind, "\(command.name) \(option.name)")
                seen[option.name] = kind
            }
        }
    }

    // MARK: - bash

    /// What bash's completion function offers for `words` (the last one
    /// being completed), split as bash splits a line (at `=` too).
    private func bash(_ script: URL, _ words: [String], plugins: URL? = nil) throws -> [String] {
        let bash = try #require(Self.shell("bash"))
        let program = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _presenter_host
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try ProcessRunner.run(
            bash, ["--norc", "--noprofile", "-c", program, "bash", script.path, TestPaths.binary.path] + words,
            environment: ["XDG_CACHE_HOME": TestPaths.temporaryDirectory("cache").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: shell("bash") != nil)) func bashCompletesCommandsOptionsAndValues() throws {
        let script = try script("bash")
        #expect(try bash(script, ["ru"]) == ["run"])
        #expect(try bash(script, [""]) == CommandTable.commands.flatMap(\.names).filter { !$0.hasPrefix("-") })
        #expect(try bash(script, ["--pr"]).sorted() == ["--print-plugin-path"])
        #expect(try bash(script, ["run", "--pre"]) == ["--presenter"])
        #expect(try bash(script, ["run", "--presenter", ""]) == ["addbookmark", "mbhud", "netactivity"])
        #expect(try bash(script, ["drive", "--presenter", "n"]) == ["netactivity"])
        #expect(try bash(script, ["run", "--output", ""]) == ["on-failure", "stream", "tail", "hide"])
        #expect(try bash(script, ["run", "--color", "a"]) == ["auto", "always"])
        // --color=al: bash gives '--color', '=', 'al'.
        #expect(try bash(script, ["run", "--color", "=", "al"]) == ["always"])
        #expect(try bash(script, ["add-bookmark", "--color", "="]) == ["auto", "always", "never"])
        #expect(try bash(script, ["--list", "--j"]) == ["--json"])
        #expect(try bash(script, ["check", "--hook"]) == ["--hook-timeout"])
        #expect(try bash(script, ["completions", ""]) == ["bash", "zsh", "fish"])
        // Every option of every command.
        for command in CommandTable.commands {
            let word = command.names.first { !$0.hasPrefix("-") } ?? command.name
            let offered = Set(try bash(script, [word, "-"]))
            #expect(offered == Set(command.options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }), "\(word)")
        }
        // run's command is completed as a command, its arguments as files.
        #expect(try bash(script, ["run", "--", "slee"]).contains("sleep"))
        #expect(try bash(script, ["run", "--timeout", "3", "slee"]).contains("sleep"))
        #expect(!(try bash(script, ["run", "sleep", "--pre"]).contains("--presenter")))
    }

    /// `--presenter` asks the binary with the plugin options on the line.
    @Test(.enabled(if: shell("bash") != nil)) func bashCompletesThePresentersOfThePluginDirs() throws {
        let script = try script("bash")
        let plugins = try FixtureBuilder.directory([.good])
        #expect(try bash(script, ["--plugin-dir", plugins.path, "run", "--presenter", "f"]) == ["fixture.good"])
        #expect(try bash(script, ["run", "--plugin-dir", "=", plugins.path, "--presenter", "f"]) == ["fixture.good"])
        #expect(try bash(script, ["--bundled-only", "--plugin-dir", plugins.path, "run", "--presenter", "f"]) == [])
    }

    // MARK: - zsh

    @Test(.enabled(if: shell("zsh") != nil && TmuxSession.isAvailable))
    func zshLoadsAndCompletesOnTab() throws {
        let zsh = try #require(Self.shell("zsh"))
        let script = try script("zsh")
        let check = try ProcessRunner.run(zsh, ["-n", script.path])
        #expect(check.status == 0, "\(check.stderr)")
        let home = TestPaths.temporaryDirectory("zsh-home")
        let plugins = try FixtureBuilder.directory([.good])
        let bin = TestPaths.binary.deletingLastPathComponent().path
        let tmux = try TmuxSession(
            command:
                "env -i HOME=\(TmuxSession.quoted(home.path)) TERM=xterm-256color PATH=\(TmuxSession.quoted(bin)):/usr/bin:/bin \(zsh.path) -f"
        )
        defer { tmux.kill() }
        tmux.type(
            "PS1='$ '; autoload -U compinit && compinit -u -D && source \(TmuxSession.quoted(script.path)) && print loaded"
        )
        let loaded = try #require(tmux.waitFor { $0.contains("loaded") })
        #expect(!loaded.joined().contains("error"), "\(loaded)")
        tmux.send("presenter-host ru")
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.last == "$ presenter-host run" } != nil)
        tmux.send("--presen")
        tmux.keys("Tab")
        // zsh offers the '=' form of an option that takes a value.
        #expect(tmux.waitFor { $0.last == "$ presenter-host run --presenter=" } != nil)
        tmux.send("net")
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.last == "$ presenter-host run --presenter=netactivity" } != nil)
        tmux.send("--output str")
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.last == "$ presenter-host run --presenter=netactivity --output stream" } != nil)
        // The ids of a --plugin-dir on the line (before the command here).
        tmux.keys("C-u")
        tmux.send("presenter-host --plugin-dir \(TmuxSession.quoted(plugins.path)) run --presenter f")
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.last?.hasSuffix("--presenter fixture.good") == true } != nil)
    }

    // MARK: - fish

    private func fish(_ script: URL, _ line: String) throws -> [String] {
        let fish = try #require(Self.shell("fish"))
        let home = TestPaths.temporaryDirectory("fish-home")
        let result = try ProcessRunner.run(
            fish, ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script.path, line],
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    @Test(.enabled(if: shell("fish") != nil)) func fishLoadsAndCompletesCommandsOptionsAndValues() throws {
        let script = try script("fish")
        let program = TestPaths.binary.path
        #expect(try fish(script, "\(program) ru") == ["run"])
        #expect(try fish(script, "\(program) run --pre") == ["--presenter"])
        #expect(try fish(script, "\(program) run --presenter ") == ["addbookmark", "mbhud", "netactivity"])
        #expect(try fish(script, "\(program) drive --color=") == ["--color=always", "--color=auto", "--color=never"])
        #expect(try fish(script, "\(program) --list --i") == ["--ids"])
        #expect(try fish(script, "\(program) completions ") == ["bash", "fish", "zsh"])
    }
}
