import Foundation
import Testing
@testable import HostText
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
    /// being completed), split as bash splits a line (at `=` too), on a
    /// line that starts with `program` (the binary by default).
    private func bash(
        _ script: URL, _ words: [String], program: String = TestPaths.binary.path,
        environment: [String: String] = ["XDG_CACHE_HOME": TestPaths.temporaryDirectory("cache").path]
    ) throws -> [String] {
        let bash = try #require(Self.shell("bash"))
        let program_ = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _presenter_host
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try ProcessRunner.run(
            bash, ["--norc", "--noprofile", "-c", program_, "bash", script.path, program] + words,
            environment: environment)
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
        #expect(try bash(script, ["run", "--presenter", ""]) == ["addbookmark", "line", "mbhud", "netactivity"])
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

    /// A file made by a stand-in's hostile id: completion must run none of them.
    @Test(.enabled(if: shell("bash") != nil)) func bashOffersOnlyIdsAndRunsNone() throws {
        let script = try script("bash")
        let standIn = try ForgedIds()
        let environment = ["PATH": standIn.bin.path + ":/usr/bin:/bin"]
        #expect(
            try bash(script, ["run", "--presenter", ""], program: "presenter-host", environment: environment)
                == ForgedIds.valid)
        #expect(
            try bash(script, ["run", "--presenter", "ok."], program: "presenter-host", environment: environment) == [
                "ok.one"
            ])
        #expect(
            try bash(script, ["drive", "--presenter", "=", ""], program: "presenter-host", environment: environment)
                == ForgedIds.valid)
        #expect(
            try bash(script, ["run", "--presenter", "$"], program: "presenter-host", environment: environment) == [])
        #expect(standIn.marks == [])
        // The real binary, its registry cache forged.
        let cache = try ForgedRegistryCache.withHostileIds(marks: standIn.marksDirectory)
        let offered = try bash(script, cache.options + ["run", "--presenter", ""], environment: cache.environment)
        #expect(offered.allSatisfy(PresenterIdRule.isValid), "\(offered)")
        #expect(offered.contains("mbhud"))
        #expect(standIn.marks == [])
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

    @Test(.enabled(if: shell("zsh") != nil && TmuxSession.isAvailable))
    func zshOffersOnlyIdsAndRunsNone() throws {
        let zsh = try #require(Self.shell("zsh"))
        let script = try script("zsh")
        let standIn = try ForgedIds()
        let cache = try ForgedRegistryCache.withHostileIds(marks: standIn.marksDirectory)
        let bin = TestPaths.binary.deletingLastPathComponent().path
        let environment = cache.environment.map { "\($0.key)=\(TmuxSession.quoted($0.value))" }.sorted().joined(
            separator: " ")
        let tmux = try TmuxSession(
            command:
                "env -i \(environment) TERM=xterm-256color PATH=\(TmuxSession.quoted(bin)):/usr/bin:/bin \(zsh.path) -f"
        )
        defer { tmux.kill() }
        tmux.type(
            "PS1='$ '; autoload -U compinit && compinit -u -D && source \(TmuxSession.quoted(script.path)) && print loaded"
        )
        #expect(tmux.waitFor { $0.contains("loaded") } != nil)
        // The stand-in, named by its path: zsh completes it as presenter-host.
        let standInPath = standIn.bin.appendingPathComponent("presenter-host").path
        tmux.send("\(standInPath) run --presenter ok.")
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.last?.hasSuffix("--presenter ok.one") == true } != nil)
        // Every candidate listed: the two ids, nothing else.
        tmux.keys("C-u")
        tmux.send("\(standInPath) run --presenter ")
        tmux.keys("Tab", "Tab")
        let listed = try #require(tmux.waitFor { $0.joined().contains("ok-two_3") && $0.joined().contains("ok.one") })
        #expect(!listed.joined().contains("touch") && !listed.joined().contains("space"), "\(listed)")
        // The real binary, its registry cache forged.
        tmux.keys("C-u")
        tmux.send("presenter-host --plugin-dir \(TmuxSession.quoted(cache.plugins.path)) run --presenter ")
        tmux.keys("Tab", "Tab")
        let real = try #require(tmux.waitFor { $0.joined().contains("netactivity") })
        #expect(!real.joined().contains("touch") && !real.joined().contains("OWNED"), "\(real)")
        tmux.keys("C-u")
        tmux.type("print done")
        #expect(tmux.waitFor { $0.contains("done") } != nil)
        #expect(standIn.marks == [])
    }

    // MARK: - fish

    private func fish(_ script: URL, _ line: String, environment: [String: String] = [:]) throws -> [String] {
        let fish = try #require(Self.shell("fish"))
        let home = TestPaths.temporaryDirectory("fish-home")
        let result = try ProcessRunner.run(
            fish, ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script.path, line],
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path]
                .merging(environment) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    @Test(.enabled(if: shell("fish") != nil)) func fishLoadsAndCompletesCommandsOptionsAndValues() throws {
        let script = try script("fish")
        let program = TestPaths.binary.path
        #expect(try fish(script, "\(program) ru") == ["run"])
        #expect(try fish(script, "\(program) run --pre") == ["--presenter"])
        #expect(try fish(script, "\(program) run --presenter ") == ["addbookmark", "line", "mbhud", "netactivity"])
        #expect(try fish(script, "\(program) drive --color=") == ["--color=always", "--color=auto", "--color=never"])
        #expect(try fish(script, "\(program) --list --i") == ["--ids"])
        #expect(try fish(script, "\(program) completions ") == ["bash", "fish", "zsh"])
    }

    @Test(.enabled(if: shell("fish") != nil)) func fishOffersOnlyIdsAndRunsNone() throws {
        let script = try script("fish")
        let standIn = try ForgedIds()
        let path = ["PATH": standIn.bin.path + ":/usr/bin:/bin"]
        #expect(
            try fish(script, "presenter-host run --presenter ", environment: path).sorted() == ForgedIds.valid.sorted())
        #expect(try fish(script, "presenter-host run --presenter ok-", environment: path) == ["ok-two_3"])
        #expect(standIn.marks == [])
        // The real binary, its registry cache forged (with its HOME: the cache's key names the user's folder).
        let cache = try ForgedRegistryCache.withHostileIds(marks: standIn.marksDirectory)
        let offered = try fish(
            script, "\(TestPaths.binary.path) \(cache.options.joined(separator: " ")) run --presenter ",
            environment: cache.environment)
        #expect(offered.allSatisfy(PresenterIdRule.isValid), "\(offered)")
        #expect(offered.contains("mbhud"))
        #expect(standIn.marks == [])
    }
}

/// A stand-in `presenter-host` (first on PATH) whose `--list --ids` prints
/// what a forged registry cache or scan report could: shell code that
/// leaves a file in `marksDirectory` if any shell runs it, a word with a
/// space, a glob, escapes, a tab (fish's description), an uppercase and a
/// too long word, among two ids.
struct ForgedIds {
    /// The ids among the lines, in their order.
    static let valid = ["ok.one", "ok-two_3"]

    let bin: URL
    let marksDirectory: URL

    init() throws {
        bin = TestPaths.temporaryDirectory("stand-in")
        marksDirectory = TestPaths.temporaryDirectory("marks")
        let marks = marksDirectory.path
        let lines = [
            "$(touch \(marks)/dollar)", "`touch \(marks)/backtick`", "ok.one", "a;touch \(marks)/semicolon",
            "x\"$(touch \(marks)/double)\"", "x'$(touch \(marks)/single)'", "with space", "*", "$((1+1))",
            "esc\u{1B}]0;OWNED\u{07}", "tab\tdescription", "UPPER", String(repeating: "x", count: 65), "ok-two_3",
        ]
        let standIn = bin.appendingPathComponent("presenter-host")
        // The lines as the stand-in's own data: a here-document, quoted, expands nothing.
        try Data(("#!/bin/sh\ncat <<'EOF'\n" + lines.joined(separator: "\n") + "\nEOF\n").utf8).write(to: standIn)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn.path)
    }

    /// The files shell code left: none, when no completion ran any.
    var marks: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: marksDirectory.path)) ?? []
    }
}

extension ForgedRegistryCache {
    /// A cache whose forged presenters have the stand-in's hostile ids
    /// (`ForgedIds`), and one id, `forged.one`.
    static func withHostileIds(marks: URL) throws -> ForgedRegistryCache {
        try ForgedRegistryCache(
            [
                "forged.one", "$(touch \(marks.path)/cache-dollar)", "`touch \(marks.path)/cache-backtick`",
                "a;touch \(marks.path)/cache-semicolon", "with space", "*", "esc\u{1B}]0;OWNED\u{07}",
            ].map { ForgedRegistryCache.Presenter(id: $0) })
    }
}
