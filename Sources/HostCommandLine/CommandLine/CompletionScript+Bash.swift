import HostText

/// The bash script: `_presenter_host` completes from `COMP_WORDS`, with
/// `complete -F`.
///
/// It evaluates no word it did not write: `compgen -W` (which expands its
/// word list) gets only the script's own words, and what comes from outside
/// (presenter ids, file and command names) is read a line at a time into
/// `COMPREPLY`, compared with the word being completed as text, never
/// split, globbed or expanded; an id is offered only when it is one
/// (``PresenterIdRule``), since bash puts a candidate on the line as it is.
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
                        _presenter_host_lines < <(compgen -c -- "$cur")
                        return 0
                    elif ((first > 0)); then
                        compopt -o filenames 2>/dev/null
                        _presenter_host_lines < <(compgen -f -- "$cur")
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
                    _presenter_host_lines < <(compgen -f -- "$cur")
                elif [[ $command == completions ]]; then
                    COMPREPLY=($(compgen -W "\(Shell.allCases.map(\.rawValue).joined(separator: " "))" -- "$cur"))
                fi
                return 0
            }

            complete -F _presenter_host presenter-host

            """
    }

    /// `_presenter_host_presenters`: the ids `--list --ids` prints, asked of
    /// the program the line names with the plugin options on the line;
    /// `_presenter_host_ids`: those that are ids and start with the word;
    /// `_presenter_host_lines`: lines as candidates, each as it is.
    private static let bashPresenters = """
        # COMPREPLY: the lines of stdin, each one candidate as it is (a file or
        # command name is never split at spaces or globbed).
        _presenter_host_lines() {
            local line
            COMPREPLY=()
            while IFS= read -r line; do COMPREPLY+=("$line"); done
        }

        # COMPREPLY: the presenter ids that start with $1. A line is taken only
        # when it is an id (1 to \(PresenterIdRule.maxBytes) of \(PresenterIdRule.characters)): nothing a
        # plugin file or the registry cache says is run, split or globbed.
        _presenter_host_ids() {
            local id
            COMPREPLY=()
            while IFS= read -r id; do
                case $id in
                '' | *[!\(PresenterIdRule.characters)]*) continue ;;
                esac
                ((${#id} <= \(PresenterIdRule.maxBytes))) && [[ $id == "$1"* ]] && COMPREPLY+=("$id")
            done < <(_presenter_host_presenters)
        }

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
            case .file:
                reply = "compopt -o filenames 2>/dev/null; _presenter_host_lines < <(compgen -f -- \"$cur\"); return 0"
            case .directory:
                reply = "compopt -o filenames 2>/dev/null; _presenter_host_lines < <(compgen -d -- \"$cur\"); return 0"
            case .presenter: reply = "_presenter_host_ids \"$cur\"; return 0"
            case .values(let values):
                reply = "COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")); return 0"
            }
            return "        \(option.name)) \(reply) ;;"
        }.joined(separator: "\n")
    }
}
