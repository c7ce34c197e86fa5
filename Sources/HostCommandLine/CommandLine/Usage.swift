import HostPlugins
import HostText

/// The help and usage text of `presenter-host` and of each command, written
/// from ``CommandTable``: what the help says a command takes is what its
/// parser takes.
enum Usage {
    /// The program's version.
    static let version = "0.1.0"

    /// The one line `--version` prints.
    static var versionLine: String {
        "presenter-host \(version) (presenter ABI \(ABIVersion.host))"
    }

    /// The column an option's help starts at, and the width text is wrapped to.
    static let column = 25
    static let width = 80

    /// `Usage: ` and the command's usage lines.
    static func usageLines(_ command: CommandSpec) -> String {
        lines(command.synopsis)
    }

    /// The usage lines of every command, shown after a top-level usage
    /// error and at the top of the help.
    static var synopsis: String {
        lines(CommandTable.commands.flatMap(\.synopsis) + ["presenter-host --help | --version"])
    }

    private static func lines(_ synopsis: [String]) -> String {
        synopsis.enumerated().map { ($0.offset == 0 ? "Usage: " : "       ") + $0.element + "\n" }.joined()
    }

    /// "See 'presenter-host run --help'.", or the top-level help's.
    static func seeHelp(_ command: CommandSpec?) -> String {
        "See '\(command?.helpCommand ?? "presenter-host --help")'.\n"
    }

    /// A command's own help.
    static func help(_ command: CommandSpec) -> String {
        var text = usageLines(command)
        if !command.description.isEmpty { text += "\n" + command.description + "\n" }
        let own = command.options.filter { !CommandTable.pluginOptionNames.contains($0.name) }
        let plugin = command.options.filter { CommandTable.pluginOptionNames.contains($0.name) }
        text += "\nOptions:\n" + rows(own.map { ($0.label, $0.help) })
        if !plugin.isEmpty {
            text += "\nPlugin options (also before '\(command.name)'):\n" + rows(plugin.map { ($0.label, $0.help) })
        }
        if !command.epilogue.isEmpty { text += "\n" + command.epilogue + "\n" }
        return text
    }

    /// The top-level help.
    static var help: String {
        let commands = CommandTable.commands.map { command in
            (
                command.names.joined(separator: ", "),
                command.summary + (command.hasHelpPage ? " See '\(command.helpCommand)'." : "")
            )
        }
        let loading = CommandTable.commands.filter { command in
            command.options.contains { CommandTable.pluginOptionNames.contains($0.name) }
                && ![CommandTable.printPluginPath.name, CommandTable.sandboxInfo.name].contains(command.name)
        }
        let topOnly = CommandTable.top.options.filter { option in
            !CommandTable.optionCommands.map(\.name).contains(option.name)
                && !CommandTable.pluginOptionNames.contains(option.name)
        }
        return """
            presenter-host: show the progress of commands with presenter plugins.

            \(synopsis)
            Commands:
            \(rows(commands))
            Plugin options, before or after \(ValueKind.either(loading.map(\.name))):
            \(rows(CommandTable.pluginOptions.map { ($0.label, $0.help) }))
            Options:
            \(rows(topOnly.map { ($0.label, $0.help) }))
            Plugins (*.so files) are looked for in this order; the first presenter with
            a given id wins and later ones are reported as shadowed:
              1. each --plugin-dir <dir>
              2. the absolute directories in \(SearchPath.environmentVariable) (colon-separated;
                 relative and empty entries are ignored with a warning)
              3. $XDG_DATA_HOME/presenter-host/plugins (default ~/.local/share/presenter-host/plugins)
              4. <prefix>/lib/presenter-host/plugins, when presenter-host is in <prefix>/bin
                 or <prefix>/lib/presenter-host (the Debian package's folder)
              5. the bundled \(SearchPath.bundledLibraryNames.joined(separator: ", "))
                 next to the presenter-host executable (in the package, in 4)
            The current directory is never searched. A --plugin-dir or
            \(SearchPath.environmentVariable) directory that is missing, not a directory or
            unreadable gets a warning. Plugin files are first loaded in a helper
            process, so one that crashes or hangs is reported instead of stopping
            presenter-host; what they hold is cached until they change. A file, or
            its directory, that others could have written is refused, as is a link
            out of its directory.

            Exit status: 0 on success, also when some plugin files fail to load (they
            are listed on stderr); 64 for a usage error. 'run' exits with the status
            of its command (see 'presenter-host run --help').
            To write a presenter, see docs/ABI.md.

            """
    }

    /// Two columns: each label, then its text wrapped from ``column`` (on
    /// the next line when the label is too long to leave room).
    static func rows(_ items: [(label: String, text: String)]) -> String {
        items.map { label, text in
            let indent = String(repeating: " ", count: column)
            var wrapped = wrap(text, width: width - column)
            let first = "  " + label
            var out = ""
            if first.count + 2 <= column {
                out = first.padded(toColumns: column) + (wrapped.first ?? "") + "\n"
                wrapped.removeFirst()
            } else {
                out = first + "\n"
            }
            return out + wrapped.map { indent + $0 + "\n" }.joined()
        }.joined()
    }

    /// `text` in lines of at most `width` characters, broken between words
    /// (a word longer than that has a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}
