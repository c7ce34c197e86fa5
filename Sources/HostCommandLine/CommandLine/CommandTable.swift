/// Every command of `presenter-host` and every option it takes, as data:
/// the one table the parser, the help, the usage lines and the shell
/// completions are made from: the options several commands share
/// (CommandTable+SharedOptions), each command (CommandTable+Commands), and
/// here the commands in order and what may come before one.
enum CommandTable {
    /// The commands, in the order the help lists them.
    static let commands: [CommandSpec] = [
        list, run, addBookmark, bookmarks, check, drive, printPluginPath, sandboxInfo, completions,
    ]

    /// The commands spelled as options (`--list`): given before any command word.
    static var optionCommands: [CommandSpec] { commands.filter { $0.name.hasPrefix("--") } }

    /// The command a word names (`run`, `list`), if any: commands spelled
    /// as options (`--list`) are not words.
    static func command(word: String) -> CommandSpec? {
        commands.first { ($0.name == word && !word.hasPrefix("-")) || $0.aliases.contains(word) }
    }

    // MARK: - Before the command

    /// `--version`: alone, as it loads no plugin and calls no hook; an
    /// option before it is refused with ``versionRefusal``.
    static let version = OptionSpec(
        name: "--version", help: "Show the version of presenter-host and of its plugin ABI.", stops: true)

    /// Why an option before `--version` is refused.
    static let versionRefusal = "it prints the version and loads no plugin"

    /// What may come before a command: the top-level options, the commands
    /// spelled as options, and list's options (which, like the plugin
    /// options, also belong to the command that follows when it takes them).
    static let top = CommandSpec(
        name: "presenter-host",
        synopsis: [],
        summary: "",
        options: [
            trace, help, version,
        ] + optionCommands.map { OptionSpec(name: $0.name, help: $0.summary) }
            + list.options.filter { !["--help", trace.name].contains($0.name) },
        operands: .command(missing: nil))
}
