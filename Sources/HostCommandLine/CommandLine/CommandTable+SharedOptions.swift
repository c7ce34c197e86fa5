import HostPlugins

/// The options several commands share, as values or as makers that take
/// each command's own help text.
extension CommandTable {
    /// How plugins are found and loaded: the options of every command that
    /// loads plugins, before or after its name.
    static let pluginOptions = [
        pluginDir("Look for plugins in <dir> first. Repeatable."), rescan, noCache, allowInsecure, bundledOnly, sandbox,
    ]

    static let sandbox = OptionSpec(
        name: "--sandbox", value: .choice(placeholder: "<mode>", values: ["auto", "require"]),
        help:
            "auto: run plugin code under every layer of the sandbox this machine has, and say which are missing (-v, --sandbox-info); require: run no third-party plugin code unless every layer is in force (default: auto)."
    )

    static func pluginDir(_ help: String) -> OptionSpec {
        OptionSpec(
            name: "--plugin-dir", value: .text(placeholder: "<dir>", needs: "a directory"), completion: .directory,
            help: help, repeatable: true)
    }

    static let rescan = OptionSpec(
        name: "--rescan", help: "Scan every plugin file again and rebuild the registry cache.")

    static let noCache = OptionSpec(
        name: "--no-cache",
        help: "Neither read nor write the registry cache ($XDG_CACHE_HOME/presenter-host/registry.cache).")

    static let allowInsecure = OptionSpec(
        name: PluginPolicy.allowInsecureFlag,
        help:
            "For development only: load plugin files that others could have written (owned by another user, writable by group or others)."
    )

    static let bundledOnly = OptionSpec(
        name: "--bundled-only", help: "Load the bundled presenters alone (also \(PluginOptions.bundledOnlyVariable)=1)."
    )

    /// The cache's modes: one at most.
    static let cacheModes = ["--rescan", "--no-cache"]

    /// The names of ``pluginOptions``.
    static let pluginOptionNames = pluginOptions.map(\.name)

    static let help = OptionSpec(name: "--help", short: "-h", help: "Show this help.", stops: true)

    /// `--trace`: PRESENTER_HOST_DEBUG=1 for this process and those it
    /// starts. Taken, before or after the command's name, by the commands
    /// that load plugins and call their hooks; the others refuse it.
    static let trace = OptionSpec(
        name: "--trace",
        help:
            "Log every discovery decision and every hook call (arguments, result, duration) on stderr, or in the --log file; the same as PRESENTER_HOST_DEBUG=1."
    )

    static func presenter(_ help: String) -> OptionSpec {
        OptionSpec(
            name: "--presenter", value: .text(placeholder: "<id>", needs: "a presenter id; see presenter-host --list"),
            completion: .presenter, help: help)
    }

    /// `--option <key>=<value>`: an option presenters read
    /// through the ABI's `option` service (``DefaultPresenter``), held to
    /// the settings file's rules (``SettingsFile/keyProblem(_:)``,
    /// ``SettingsFile/valueProblem(_:of:)``), at most ``mostPresenterOptions``.
    static let presenterOption = OptionSpec(
        name: "--option",
        value: .checked(placeholder: "<key>=<value>") { name, value throws(CommandError) in
            guard let equals = value.firstIndex(of: "="), SettingsFile.isName(String(value[..<equals])) else {
                throw .usage(
                    "\(name) needs <key>=<value>, the key 1 to 64 of a-z 0-9 . _ - (spinner=moon), not '\(SettingsFile.quoted(value))'"
                )
            }
            let key = String(value[..<equals])
            if let problem = SettingsFile.keyProblem(key)
                ?? SettingsFile.valueProblem(String(value[value.index(after: equals)...]), of: key)
            {
                throw .usage("\(name): \(problem)")
            }
        },
        help:
            "Set an option of the presenter, read through its option service (line: spinner=moon, spinner-color=red, title-color=blue; <id>.<key>=<value> for one presenter). Repeatable.",
        repeatable: true, most: mostPresenterOptions)

    /// The most `--option`s a command takes: a presenter has a few.
    static let mostPresenterOptions = 64

    static func messages(_ help: String) -> OptionSpec {
        OptionSpec(name: "--messages", value: .text(placeholder: "<file>"), completion: .file, help: help)
    }

    static let color = OptionSpec(
        name: "--color", value: .choice(placeholder: "<when>", values: ["auto", "always", "never"]),
        help: "auto, always or never (default: auto; NO_COLOR turns colour off).")

    static func terminalProgress(_ help: String) -> OptionSpec {
        OptionSpec(
            name: "--terminal-progress",
            value: .choice(placeholder: "<when>", values: ["auto", "always", "never"]), help: help)
    }

    static func minShow(_ help: String) -> OptionSpec {
        OptionSpec(
            name: "--min-show",
            value: .seconds(allowZero: true, longest: PresentationOptions.longestHold, longestName: "1 day"), help: help
        )
    }

    static func hookTimeout(_ help: String) -> OptionSpec {
        OptionSpec(
            name: "--hook-timeout",
            value: .seconds(allowZero: false, longest: PresentationOptions.longestHookTimeout, longestName: "1 minute"),
            help: help)
    }

    static func inProcess(_ help: String) -> OptionSpec { OptionSpec(name: "--in-process", help: help) }

    static let verbose = OptionSpec(
        name: "--verbose", short: "-v", help: "Show the presenter's log and what the host did about it.")

    static let log = OptionSpec(
        name: "--log", value: .text(placeholder: "<file>", needs: "a file"), completion: .file,
        help: "Append the same log to <file>, with timestamps.")
}
