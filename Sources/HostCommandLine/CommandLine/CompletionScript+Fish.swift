import HostText

/// The fish script: one `complete` line per command and option, with the
/// functions that find the command on the line.
///
/// What comes from outside is never evaluated: the presenter ids are the
/// lines `--list --ids` prints, each offered only when it is an id
/// (``PresenterIdRule``; a tab would start a description).
extension CompletionScript {
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

    /// The fish script.
    static var fish: String {
        """
        # fish completion for presenter-host, written by `presenter-host completions fish`.

        \(fishCommandFunctions)

        \(fishPresenters)

        complete -c presenter-host -f
        \(fishCompletions.joined(separator: "\n"))

        """
    }

    /// The `complete` lines: the commands, the options at the top and of each
    /// command, and what completes `check`'s, `completions`' and run's operands.
    private static var fishCompletions: [String] {
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
        return lines
    }

    /// The functions that find the command on the line, and whether the word
    /// being completed is in the command that `run` runs.
    private static var fishCommandFunctions: String {
        let runValued = CommandTable.run.options.filter { !isFlag($0) }.map(\.name).joined(separator: " ")
        return """
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
            """
    }

    /// `__presenter_host_presenters`: the ids `--list --ids` prints, asked of
    /// the program the line names with the plugin options on the line.
    private static let fishPresenters = """
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
            # Only ids (1 to \(PresenterIdRule.maxBytes) of \(PresenterIdRule.characters)), each as it is.
            $words[1] $options --list --ids 2>/dev/null | string match -r -- '^[\(PresenterIdRule.characters)]{1,\(PresenterIdRule.maxBytes)}$'
        end
        """
}
