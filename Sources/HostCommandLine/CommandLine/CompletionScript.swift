/// `presenter-host completions bash|zsh|fish`: the shells' completion
/// scripts, written from ``CommandTable``, so they complete exactly the
/// commands and options the parser takes. `--presenter`'s values are the
/// ids `presenter-host --list --ids` prints when the user presses Tab (with
/// the `--plugin-dir`, `--bundled-only` and `--allow-insecure-plugins`
/// typed on the line), asked of the program the line names.
///
/// A script never evaluates a word it did not write: those ids come from
/// plugin files (or a registry cache, or a scan report) and are data. Each
/// script reads them a line at a time, offers a line only when it is an id
/// (``PresenterIdRule``, checked by a shell pattern spelled from it), and
/// compares it with the word being completed as text; file and command
/// names are never split or globbed either.
enum CompletionScript {
    /// The shells a script is written for: `completions`' operand.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The completion script of `shell` (CompletionScript+Bash, +Zsh, +Fish).
    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    // MARK: - What the scripts are made of

    // Internal, not private: the scripts' extensions (CompletionScript+Bash,
    // +Zsh, +Fish) share them. Nothing outside the scripts' files uses them.

    /// Commands named by a word (`run`, `list`).
    static var words: [String] {
        CommandTable.commands.flatMap(\.names).filter { !$0.hasPrefix("-") }
    }

    /// Every name of `options`, long and short.
    static func names(_ options: [OptionSpec]) -> [String] {
        options.flatMap { [$0.short, $0.name].compactMap { $0 } }
    }

    /// The top level's options that take a value (their value is not a command).
    static var topValued: [String] {
        CommandTable.top.options.filter { !isFlag($0) }.map(\.name)
    }

    /// Whether `option` takes no value.
    static func isFlag(_ option: OptionSpec) -> Bool {
        if case .flag = option.value { return true }
        return false
    }

    /// Every option that takes a value, once by name, with what completes
    /// it (the table gives an option of one name one kind of value in
    /// every command; `CompletionTests` checks it).
    static var valued: [(name: String, completion: OptionSpec.Completion)] {
        var seen: Set<String> = []
        return ([CommandTable.top] + CommandTable.commands).flatMap(\.options).compactMap { option in
            guard !isFlag(option), seen.insert(option.name).inserted else { return nil }
            return (option.name, option.completedValues)
        }
    }

    /// The first sentence of `help`, for a shell's one-line description.
    static func brief(_ help: String) -> String {
        let first = help.split(separator: ". ", maxSplits: 1).first.map(String.init) ?? help
        return first.hasSuffix(".") ? String(first.dropLast()) : first
    }

    /// The word that names `command` in the scripts' `case`s (`--list` for list).
    private static func key(_ command: CommandSpec) -> String { command.name }
}
