/// `presenter-host completions bash|zsh|fish`: the shells' completion
/// scripts, written from ``CommandTable``, so they complete exactly the
/// commands and options the parser takes. `--presenter`'s values are the
/// ids `presenter-host --list --ids` prints when the user presses Tab (with
/// the `--plugin-dir`, `--bundled-only` and `--allow-insecure-plugins`
/// typed on the line), asked of the program the line names.
enum CompletionScript {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    // MARK: - What the scripts are made of

    /// Commands named by a word (`run`, `list`).
    private static var words: [String] {
        CommandTable.commands.flatMap(\.names).filter { !$0.hasPrefix("-") }
    }

    /// Every name of `options`, long and short.
    private static func names(_ options: [OptionSpec]) -> [String] {
        options.flatMap { [$0.short, $0.name].compactMap { $0 } }
    }

    /// The top level's options that take a value (their value is not a command).
    private static var topValued: [String] {
        CommandTable.top.options.filter { !isFlag($0) }.map(\.name)
    }

    private static func isFlag(_ option: OptionSpec) -> Bool {
        if case .flag = option.value { return true }
        return false
    }

    /// Every option that takes a value, once by name, with what completes
    /// it (the table gives an option of one name one kind of value in
    /// every command; `CompletionTests` checks it).
    private static var valued: [(name: String, completion: OptionSpec.Completion)] {
        var seen: Set<String> = []
        return ([CommandTable.top] + CommandTable.commands).flatMap(\.options).compactMap { option in
            guard !isFlag(option), seen.insert(option.name).inserted else { return nil }
            return (option.name, option.completedValues)
        }
    }

    /// The first sentence of `help`, for a shell's one-line description.
    private static func brief(_ help: String) -> String {
        let first = help.split(separator: ". ", maxSplits: 1).first.map(String.init) ?? help
        return first.hasSuffix(".") ? String(first.dropLast()) : first
    }

    /// The word that names `command` in the scripts' `case`s (`--list` for list).
    private static func key(_ command: CommandSpec) -> String { command.name }

    // MARK: - bash

    private static var bash: String {
        let valueCases = valued.map { option -> String in
            let reply: String
            switch option.completion {
            case .none: reply = "return 0"
            case .file: reply = "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return 0"
            case .directory: reply = "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\")); return 0"
            case .presenter:
                reply = "COMPREPLY=($(compgen -W \"$(_presenter_host_presenters)\" -- \"$cur\")); return 0"
            case .values(let values):
                reply = "COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")); return 0"
            }
            return "        \(option.name)) \(reply) ;;"
        }.joined(separator: "\n")
        let optionCases = CommandTable.commands.map { command in
            "        \(command.names.joined(separator: "|"))) options=\"\(names(command.options).joined(separator: " "))\" ;;"
        }.joined(separator: "\n")
        let runValued = CommandTable.run.options.filter { !isFlag($0) }.map(\.name).joined(separator: "|")
        return """
            # bash completion for presenter-host, written by `presenter-host completions bash`.

            # The ids `--list --ids` prints, with the plugin options on the line.
            _presenter_host_presenters() {
                local program=${COMP_WORDS[0]} i word options=()
                [[ $program == "~/"* ]] && program=$HOME/${program#"~/"}
                for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                    --plugin-dir)
                        # bash splits --plugin-dir=DIR at '='.
                        if [[ ${COMP_WORDS[i + 1]} == = ]]; then options+=(--plugin-dir "${COMP_WORDS[i + 2]}")
                        else options+=(--plugin-dir "${COMP_WORDS[i + 1]}"); fi ;;
                    --bundled-only | --allow-insecure-plugins) options+=("$word") ;;
                    esac
                done
                "$program" "${options[@]}" --list --ids 2>/dev/null
            }

            _presenter_host() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
                local i word command="" start=0 options
                # --name=value: bash gives '--name', '=', 'value'.
                if [[ $cur == = ]]; then
                    cur=""
                elif [[ $prev == = ]]; then
                    prev=${COMP_WORDS[COMP_CWORD - 2]}
                fi
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                    \(topValued.joined(separator: "|"))) ((i++)) ;;
                    \(words.joined(separator: "|"))) command=$word; start=$i; break ;;
                    \(CommandTable.optionCommands.map(\.name).joined(separator: " | "))) command=$word ;;
                    esac
                done
                if [[ $command == run ]]; then
                    # run's command starts at '--' or at its first word that is not an option.
                    local first=0
                    for ((i = start + 1; i < COMP_CWORD; i++)); do
                        word=${COMP_WORDS[i]}
                        case $word in
                        --) first=$((i + 1)); break ;;
                        \(runValued)) [[ ${COMP_WORDS[i + 1]} == = ]] && ((i++)); ((i++)) ;;
                        = | -*) ;;
                        *) first=$i; break ;;
                        esac
                    done
                    # Nothing started it and the word being completed is free: it does.
                    ((first == 0 && i == COMP_CWORD)) && [[ $cur != -* ]] && first=$COMP_CWORD
                    if ((first == COMP_CWORD)); then
                        COMPREPLY=($(compgen -c -- "$cur"))
                        return 0
                    elif ((first > 0)); then
                        compopt -o filenames 2>/dev/null
                        COMPREPLY=($(compgen -f -- "$cur"))
                        return 0
                    fi
                fi
                case $prev in
            \(valueCases)
                esac
                case $command in
            \(optionCases)
                *) options="\(names(CommandTable.top.options).joined(separator: " "))" ;;
                esac
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                elif [[ -z $command ]]; then
                    COMPREPLY=($(compgen -W "\(words.joined(separator: " "))" -- "$cur"))
                elif [[ $command == check ]]; then
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=($(compgen -f -- "$cur"))
                elif [[ $command == completions ]]; then
                    COMPREPLY=($(compgen -W "\(Shell.allCases.map(\.rawValue).joined(separator: " "))" -- "$cur"))
                fi
                return 0
            }

            complete -F _presenter_host presenter-host

            """
    }

    // MARK: - zsh

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

    private static var zsh: String {
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
                local i
                for ((i = 2; i <= $#_presenter_host_line; i++)); do
                    case ${_presenter_host_line[i]} in
                    --plugin-dir) options+=(--plugin-dir ${(Q)_presenter_host_line[i + 1]}) ;;
                    --plugin-dir=* | --bundled-only | --allow-insecure-plugins) options+=(${(Q)_presenter_host_line[i]}) ;;
                    esac
                done
                ids=(${(f)"$(${~_presenter_host_line[1]} $options --list --ids 2>/dev/null)"})
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

    // MARK: - fish

    /// `text` inside a single-quoted fish string.
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'") + "'"
    }

    private static func fishLine(_ option: OptionSpec, when condition: String) -> String {
        var line = "complete -c presenter-host -n \(fishQuoted(condition))"
        if let short = option.short { line += " -s \(short.dropFirst())" }
        line += " -l \(option.name.dropFirst(2))"
        if !isFlag(option) {
            switch option.completedValues {
            case .none: line += " -x"
            case .file: line += " -r -F"
            case .directory: line += " -x -a '(__fish_complete_directories)'"
            case .presenter: line += " -x -a '(__presenter_host_presenters)'"
            case .values(let values): line += " -x -a \(fishQuoted(values.joined(separator: " ")))"
            }
        }
        return line + " -d \(fishQuoted(brief(option.help)))"
    }

    private static var fish: String {
        var lines: [String] = []
        for command in CommandTable.commands {
            for name in command.names where !name.hasPrefix("-") {
                lines.append(
                    "complete -c presenter-host -n '__presenter_host_at_top' -a \(name) -d \(fishQuoted(brief(command.summary)))"
                )
            }
        }
        for option in CommandTable.top.options { lines.append(fishLine(option, when: "__presenter_host_at_top")) }
        for command in CommandTable.commands where command.names.contains(where: { !$0.hasPrefix("-") }) {
            let condition = "__presenter_host_using \(command.name)"
            for option in command.options { lines.append(fishLine(option, when: condition)) }
        }
        lines.append("complete -c presenter-host -n '__presenter_host_using check' -F")
        lines.append(
            "complete -c presenter-host -n '__presenter_host_using completions' -a \(fishQuoted(Shell.allCases.map(\.rawValue).joined(separator: " ")))"
        )
        lines.append(
            "complete -c presenter-host -n '__presenter_host_in_run_command' -F -a '(__fish_complete_command)'")
        let runValued = CommandTable.run.options.filter { !isFlag($0) }.map(\.name).joined(separator: " ")
        return """
            # fish completion for presenter-host, written by `presenter-host completions fish`.

            # The command on the line (run, list, --list, ...), or nothing.
            function __presenter_host_command
                set -l words (commandline -opc)
                set -e words[1]
                set -l found
                set -l skip 0
                for word in $words
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    switch $word
                        case \(topValued.joined(separator: " "))
                            set skip 1
                        case \(words.joined(separator: " "))
                            echo $word
                            return 0
                        case \(CommandTable.optionCommands.map(\.name).joined(separator: " "))
                            set found $word
                    end
                end
                test -n "$found"; and echo $found
            end

            # No command yet, or one spelled as an option (--list).
            function __presenter_host_at_top
                set -l command (__presenter_host_command)
                test -z "$command"; or string match -q -- '--*' $command
            end

            function __presenter_host_using -a name
                set -l command (__presenter_host_command)
                test "$command" = $name; or begin; test $name = --list; and test "$command" = list; end
            end

            # Past run's options: in the command it runs.
            function __presenter_host_in_run_command
                __presenter_host_using run; or return 1
                set -l words (commandline -opc)
                set -l seen 0
                set -l skip 0
                for word in $words
                    if test $seen = 0
                        test $word = run; and set seen 1
                        continue
                    end
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    switch $word
                        case --
                            return 0
                        case \(runValued)
                            set skip 1
                        case '-*'
                        case '*'
                            return 0
                    end
                end
                return 1
            end

            # The ids `--list --ids` prints, with the plugin options on the line.
            function __presenter_host_presenters
                set -l words (commandline -opc)
                set -l options
                set -l next 0
                for word in $words[2..-1]
                    if test $next = 1
                        set -a options --plugin-dir $word
                        set next 0
                        continue
                    end
                    switch $word
                        case --plugin-dir
                            set next 1
                        case '--plugin-dir=*' --bundled-only --allow-insecure-plugins
                            set -a options $word
                    end
                end
                $words[1] $options --list --ids 2>/dev/null
            end

            complete -c presenter-host -f
            \(lines.joined(separator: "\n"))

            """
    }
}
