/// The bash script: `_presenter_host` completes from `COMP_WORDS`, with
/// `complete -F`.
extension CompletionScript {
    /// The bash script.
    static var bash: String {
        let optionCases = CommandTable.commands.map { command in
            "        \(command.names.joined(separator: "|"))) options=\"\(names(command.options).joined(separator: " "))\" ;;"
        }.joined(separator: "\n")
        let runValued = CommandTable.run.options.filter { !isFlag($0) }.map(\.name).joined(separator: "|")
        return """
            # bash completion for presenter-host, written by `presenter-host completions bash`.

            \(bashPresenters)

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
            \(bashValueCases)
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

    /// `_presenter_host_presenters`: the ids `--list --ids` prints, asked of
    /// the program the line names with the plugin options on the line.
    private static let bashPresenters = """
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
        """

    /// The `case $prev in` entries: what completes the value of each option
    /// that takes one.
    private static var bashValueCases: String {
        valued.map { option -> String in
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
    }
}
