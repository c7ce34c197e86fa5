import HostText

/// The zsh script: one `_arguments` spec per option, per command.
///
/// What comes from outside is never evaluated: the presenter ids are the
/// lines `--list --ids` prints, each offered only when it is an id
/// (``PresenterIdRule``), and `compadd` quotes what it inserts.
extension CompletionScript {
    /// `_arguments`' spec of one option.
    private static func zshSpec(_ option: OptionSpec, in command: CommandSpec) -> String {
        let excluded =
            command.exclusive.filter { $0.contains(option.name) }.flatMap { $0 }.filter { $0 != option.name }
            + (option.short.map { [$0, option.name] } ?? [])
        let exclusion =
            option.stops ? "(- *)" : excluded.isEmpty || option.repeatable ? "" : "(\(excluded.joined(separator: " ")))"
        let description = "[" + zshEscaped(brief(option.help)) + "]"
        let value: String
        switch (isFlag(option), option.completedValues) {
        case (true, _): value = ""
        case (false, .none): value = ":" + zshEscaped(option.value.placeholder ?? "value") + ": "
        case (false, .file): value = ":file:_files"
        case (false, .directory): value = ":directory:_files -/"
        case (false, .presenter): value = ":presenter:_presenter_host_presenters"
        case (false, .values(let values)): value = ":value:(\(values.joined(separator: " ")))"
        }
        let repeat_ = option.repeatable ? "*" : ""
        // `--name=`: the value in the same word after '=' or in the next one.
        let equals = isFlag(option) ? "" : "="
        let namesSpec = option.short.map { "{\($0),\(option.name)\(equals)}" } ?? option.name + equals
        if option.short != nil {
            return "'\(exclusion)\(repeat_)'\(namesSpec)'\(description)\(value)'"
        }
        return "'\(exclusion)\(repeat_)\(namesSpec)\(description)\(value)'"
    }

    /// `text` inside a single-quoted `_arguments` description.
    private static func zshEscaped(_ text: String) -> String {
        text.replacingEvery("\\", with: "\\\\").replacingEvery("[", with: "\\[")
            .replacingEvery("]", with: "\\]").replacingEvery(":", with: "\\:")
            .replacingEvery("'", with: "'\\''")
    }

    /// The zsh script.
    static var zsh: String {
        func specs(_ command: CommandSpec) -> String {
            command.options.map { "        " + zshSpec($0, in: command) + " \\" }.joined(separator: "\n")
        }
        let commands = CommandTable.commands.flatMap { command in
            command.names.filter { !$0.hasPrefix("-") }.map { "'\($0):\(zshEscaped(brief(command.summary)))'" }
        }.joined(separator: " ")
        let operands: [String: String] = [
            CommandTable.run.name: "'(-)1:command:_command_names -e' '*::arguments:_normal'",
            CommandTable.check.name: "'*:plugin file:_files -g \"*.so(-.)\"'",
            CommandTable.completions.name: "'1:shell:(\(Shell.allCases.map(\.rawValue).joined(separator: " ")))'",
        ]
        let cases = CommandTable.commands.filter { $0.names.contains { !$0.hasPrefix("-") } }.map { command in
            """
                    \(command.names.filter { !$0.hasPrefix("-") }.joined(separator: "|")))
                        _arguments -s -S \\
            \(specs(command))
                            \(operands[command.name] ?? "") && ret=0
                        ;;
            """
        }.joined(separator: "\n")
        return """
            #compdef presenter-host
            # zsh completion for presenter-host, written by `presenter-host completions zsh`.

            # The ids `--list --ids` prints, with the plugin options on the line.
            # (The line as typed: a command's own _arguments sees its words only.)
            _presenter_host_presenters() {
                local -a ids options
                local i id
                for ((i = 2; i <= $#_presenter_host_line; i++)); do
                    case ${_presenter_host_line[i]} in
                    --plugin-dir) options+=(--plugin-dir ${(Q)_presenter_host_line[i + 1]}) ;;
                    --plugin-dir=* | --bundled-only | --allow-insecure-plugins) options+=(${(Q)_presenter_host_line[i]}) ;;
                    esac
                done
                # Only ids (1 to \(PresenterIdRule.maxBytes) of \(PresenterIdRule.characters)), each as it is.
                for id in ${(f)"$(${~_presenter_host_line[1]} $options --list --ids 2>/dev/null)"}; do
                    [[ -n $id && $id != *[^\(PresenterIdRule.characters)]* && ${#id} -le \(PresenterIdRule.maxBytes) ]] && ids+=("$id")
                done
                compadd -a ids
            }

            _presenter_host() {
                local curcontext=$curcontext state line ret=1
                local -a _presenter_host_line
                _presenter_host_line=("${words[@]}")
                typeset -A opt_args
                _arguments -C -s -S \\
            \(specs(CommandTable.top))
                    '1: :->command' '*:: :->arguments' && ret=0
                case $state in
                command)
                    local -a commands
                    commands=(\(commands))
                    _describe -t commands command commands && ret=0
                    ;;
                arguments)
                    curcontext=${curcontext%:*:*}:presenter-host-$words[1]:
                    case $words[1] in
            \(cases)
                    esac
                    ;;
                esac
                return ret
            }

            if [[ $funcstack[1] == _presenter-host ]]; then
                _presenter_host "$@"
            else
                compdef _presenter_host presenter-host
            fi

            """
    }
}
