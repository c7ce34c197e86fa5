import HostBookmarks
import HostPlugins

/// Each command of `presenter-host`, with its usage lines, options,
/// operands, refusals and help text.
extension CommandTable {
    static let list = CommandSpec(
        name: "--list", aliases: ["list"],
        synopsis: [
            "presenter-host [<plugin options>] --list [--verbose] [--json]",
            "presenter-host [<plugin options>] --list --ids",
        ],
        summary:
            "List the presenters found, then (on stderr) the plugin files that failed to load and why.",
        options: [
            OptionSpec(
                name: "--verbose", short: "-v",
                help:
                    "With --list: also show each presenter's ABI version, description, author, license and hooks, and the search path."
            ),
            OptionSpec(
                name: "--json",
                help:
                    "With --list: print JSON for scripts. Keys: plugins (id, name, version, extends, supportsMessages, path, ...), errors (path, reason), searchPath (path, origin, exists)."
            ),
            OptionSpec(
                name: "--ids",
                help: "With --list: print the presenters' ids alone, one a line (for scripts and shell completion)."
            ),
            help, trace,
        ] + pluginOptions,
        exclusive: [["--json", "--ids"], ["--verbose", "--ids"], cacheModes],
        hasHelpPage: false)

    static let run = CommandSpec(
        name: "run",
        synopsis: ["presenter-host run [<options>] [--] <command> [<argument>...]"],
        summary: "Run a command under a presenter.",
        description: "Runs <command> as an action under a progress presenter and exits with its status.",
        options: [
            presenter(
                "The presenter to show (default: \(DefaultPresenter.variable), else presenter = <id> in $XDG_CONFIG_HOME/presenter-host/config, else mbhud; see --list)."
            ),
            presenterOption,
            OptionSpec(
                name: "--action", value: .text(placeholder: "<name>", needs: "a non-empty action name"),
                help: "The action whose messages apply (default: run)."),
            messages(
                #"Messages from a JSON file shaped {"<action>": {"working": "...", "success": "...", "failure": "..."}}; an action missing from it uses the "default" action's."#
            ),
            OptionSpec(
                name: "--working", value: .text(placeholder: "<message>"),
                help: "Shown while <command> runs (default: the command line)."),
            OptionSpec(
                name: "--success", value: .text(placeholder: "<message>"),
                help: "Shown when <command> exits with status 0 (default: none)."),
            OptionSpec(
                name: "--failure", value: .text(placeholder: "<message>"),
                help: "Shown when <command> fails (default: none)."),
            OptionSpec(
                name: "--timeout",
                value: .seconds(allowZero: false, longest: RunOptions.longestTimeout, longestName: "30 days"),
                help:
                    "Stop <command> and what it started after <seconds> (TERM, KILL 2 s later); exit 124. At most 30 days."
            ),
            OptionSpec(
                name: "--output", value: .checked(placeholder: "<mode>", check: RunOptions.checkOutput),
                completion: .values(["on-failure", "stream", "tail", "hide"]),
                help:
                    "What becomes of <command>'s output in a terminal: on-failure (the default: kept, shown after the presenter only if <command> fails), stream (whole lines above the presenter as they come, the line being written live below it), tail[=N] (the last N lines, default 5, shown below the presenter as they come, the line being written live, then as on-failure) or hide (never shown, in plain mode too)."
            ),
            OptionSpec(
                name: "--show-output", help: "The same as --output stream.", alias: (name: "--output", value: "stream")),
            OptionSpec(
                name: "--pty",
                help:
                    "Give <command> a pseudo-terminal for the output run reads, in place of a pipe, sized like the terminal: it keeps its colours and line buffering; stdin, Ctrl-C and Ctrl-Z stay as without it."
            ),
            OptionSpec(
                name: "--working-from-output",
                help:
                    "In a terminal, <command>'s latest line (the one being written, live) becomes the working message, escaped and cut as messages are; not with --output hide."
            ),
            OptionSpec(
                name: "--static",
                help:
                    "One line per state change, no animation or redraws, even in a terminal (for screen readers; also when ACCESSIBLE=1)."
            ),
            terminalProgress(
                "Show progress in the terminal's tab and taskbar too (OSC 9;4): auto (terminals known to understand it, never inside tmux or screen), always, or never (default: auto)."
            ),
            OptionSpec(
                name: "--events", value: .text(placeholder: "<file>", needs: "a file, or - for stdout"),
                completion: .file,
                help:
                    "Append one JSON line per state change (start, message, progress, success or failure with the status and the duration) to <file>; - is stdout (<command>'s stdout then joins its output)."
            ),
            color,
            minShow(
                "With --linger, keep the presenter at least <seconds> once shown; run never waits for it otherwise (default: 0; at most 86400)."
            ),
            OptionSpec(
                name: "--grace",
                value: .seconds(allowZero: true, longest: PresentationOptions.longestHold, longestName: "1 day"),
                help:
                    "Draw no progress if <command> ends within <seconds>; never delays the end (default: 0; at most 86400)."
            ),
            OptionSpec(
                name: "--linger",
                help:
                    "Before ending, let the presenter show the outcome for its time, as a HUD in an app that goes on (mbhud: a success 1.5 s plus 10 ms a character, a failure 3 s); by default run ends with <command>, the outcome left as a line."
            ),
            hookTimeout(
                "How long a presenter's hook may take before the presenter is stopped and plain lines take over (default: 0.25; at most 60)."
            ),
            inProcess(
                "Run the presenter inside presenter-host instead of its own sandboxed process (to debug a plugin under gdb)."
            ),
            verbose, log, trace, help,
        ] + pluginOptions,
        operands: .command(missing: "run needs a command to run, e.g. presenter-host run -- sleep 2"),
        exclusive: [cacheModes],
        epilogue: """
            The command starts at '--' or at the first argument that is not an option.
            It may report progress: lines such as 42%, 0.42, 42/100 or
            {"progress": 0.42, "message": "Downloading foo.tar"} written to the descriptor
            numbered in $PRESENTER_PROGRESS_FD (see docs/PROGRESS.md).

            Exit status: <command>'s own; when a signal killed <command> (Ctrl-C too),
            presenter-host dies of the same signal once the terminal is restored, so
            that a shell loop stops as without it; 124 after --timeout; 126 <command>
            cannot be executed; 127 <command> not found; 64 bad option or unknown
            presenter; 65 bad messages file; 66 unreadable messages file; 73 --log
            file that cannot be written. Durations: 5, 1.5, 5s, 2m or 1h.

            The presenter runs in a sandboxed process of its own: if it crashes, hangs
            or misbehaves, it is stopped and plain progress lines take over; the
            command is never affected.
            """)

    static let addBookmark = CommandSpec(
        name: "add-bookmark",
        synopsis: [
            "presenter-host add-bookmark [<options>]",
            "presenter-host add-bookmark --url <url> --get-title",
            "presenter-host add-bookmark --url <url> [--title <title>] --add",
        ],
        summary: "The Add Bookmark screen (or, with --get-title / --add, its actions for scripts).",
        description: """
            The Add Bookmark screen of Liferay Screens' sample, in the terminal: a form
            with the site's URL and title, a button that fetches the title of the page
            (leaving the URL field fetches it too), and ADD BOOKMARK, which saves it.
            Tab, Shift-Tab and the arrows move; Enter presses; Esc leaves; Ctrl-C quits (130).
            """,
        options: [
            OptionSpec(
                name: "--url", value: .text(placeholder: "<url>"),
                help:
                    "The site's URL; without a scheme, https is tried, then http if the connection or the TLS handshake fails."
            ),
            OptionSpec(name: "--title", value: .text(placeholder: "<title>"), help: "The bookmark's title."),
            OptionSpec(name: "--get-title", help: "No screen: print the page's title on stdout."),
            OptionSpec(
                name: "--add", help: "No screen: save the bookmark, fetching its title when --title is not given."),
            OptionSpec(
                name: "--store", value: .text(placeholder: "<file>", needs: "a file"), completion: .file,
                help:
                    "The bookmarks file (default: $\(BookmarkStore.environmentVariable), else $XDG_DATA_HOME/presenter-host/bookmarks.json)."
            ),
            presenter("Show progress with <id> instead of addbookmark (see --list)."),
            messages(#"Messages from a JSON file, as for run; the actions are "add-bookmark" and "get-title"."#),
            OptionSpec(
                name: "--timeout", value: .seconds(allowZero: false, longest: 3600, longestName: "1 hour"),
                help: "How long fetching a title may take (default: 10; at most 3600)."),
            OptionSpec(
                name: "--color", value: color.value, help: "auto, always or never (default: auto)."),
            inProcess("Run the presenter inside presenter-host (to debug a plugin)."),
            hookTimeout(
                "How long one of the presenter's hooks may take before the presenter is taken off the screen (default: 0.25)."
            ),
            OptionSpec(
                name: "--log", value: log.value, completion: .file, help: "Append the presenters' log to <file>."),
            OptionSpec(
                name: "--verbose", short: "-v",
                help:
                    "Show the presenter's log and what get-title tried (https, then http for a URL without a scheme) on stderr; under the screen, once it closes."
            ),
            trace, help,
        ] + pluginOptions,
        operands: .none(hint: "give the URL with --url"),
        exclusive: [["--get-title", "--add"], cacheModes],
        epilogue: """
            Exit status: 0 done (the screen was left with Esc); 1 the title could not be
            fetched or the bookmark not saved (the reason is on stderr); 130 Ctrl-C on
            the screen; 64 bad option; 65 bad messages file; 66 unreadable messages
            file; 73 --log file that cannot be written. SIGINT, SIGTERM, SIGHUP and
            SIGQUIT end it: the terminal restored, it dies of the signal.
            """)

    static let bookmarks = CommandSpec(
        name: "bookmarks",
        synopsis: ["presenter-host bookmarks [--json] [--store <file>]"],
        summary:
            "List the bookmarks the Add Bookmark screen saved (--json for scripts, --store <file> for another store than the default).",
        description: "Lists the bookmarks the Add Bookmark screen saved.",
        options: [
            OptionSpec(
                name: "--json",
                help:
                    #"Print the store's document for scripts: {"version": 1, "path": ..., "bookmarks": [{"url", "title", "added"}]} (see docs/BOOKMARKS.md)."#
            ),
            OptionSpec(
                name: "--store", value: .checked(placeholder: "<file>", check: BookmarksCommand.checkStore),
                completion: .file,
                help:
                    "The store to read. Default: $\(BookmarkStore.environmentVariable), else $XDG_DATA_HOME/presenter-host/bookmarks.json (~/.local/share/...)."
            ),
            help,
        ],
        refused: [(pluginOptionNames + [trace.name], "it reads the bookmark store and loads no plugin")],
        epilogue: """
            Exit status: 0 (also when nothing is saved yet); 64 for a usage error; 65 for a
            store that is not a bookmark store; 66 for a store that cannot be read.
            """)

    static let check = CommandSpec(
        name: "check",
        synopsis: ["presenter-host check [--json] [--hook-timeout <seconds>] [<plugin options>] <file.so>..."],
        summary:
            "Run the conformance checks on plugin files: PASS, FAIL or WARN per check with the reason and the fix; exits 0 when nothing failed.",
        description: """
            Runs the conformance checks on each presenter of each plugin file, every
            check in a sandboxed presenter process of its own (a crash or a hang is
            that check's FAIL), and prints PASS, FAIL or WARN for each with the reason
            and what to change. Exits 0 when no check failed, 1 otherwise.
            """,
        options: [
            OptionSpec(
                name: "--json",
                help:
                    #"Print JSON for CI: {"results": [{"path", "presenter", "check", "result", "reason", "fix"}], "summary": {...}}."#
            ),
            hookTimeout("The budget of one hook (default: 0.25, at most 60)."),
            help,
            pluginDir("Where the bases of presenters that extend another are looked for first. Repeatable."),
            allowInsecure, bundledOnly, sandbox,
        ],
        operands: .files(placeholder: "<file.so>", missing: "'check' needs at least one plugin file (a .so)"),
        refused: [
            (["--rescan", "--no-cache"], "it checks every file as it is now and never uses the registry cache"),
            (
                [trace.name],
                "it traces every hook call itself and reports what it finds; to see a trace, run the presenter: presenter-host --trace run --presenter ID -- sleep 1"
            ),
        ])

    static let drive = CommandSpec(
        name: "drive",
        synopsis: ["presenter-host drive [<options>] [--socket <path>]"],
        summary: "Show actions that JSON lines on stdin or a socket start and end, from any language.",
        description: """
            Shows the actions that JSON lines on stdin (or on a Unix socket) start and end,
            as many at once as are started (protocol version 1, docs/DRIVER.md):
              {"start": "a1", "action": "get-title", "working": "Getting the title..."}
              {"progress": "a1", "fraction": 0.3, "message": "Reading the page"}
              {"succeed": "a1", "message": "Done"}
              {"fail": "a1", "message": "Could not get the title", "reason": "HTTP 404"}
            A bad line is reported on stderr with its line number and skipped. At the
            end of stdin every action still open fails ("the driver went away").
            """,
        options: [
            presenter(
                "The presenter to show (default: \(DefaultPresenter.variable), else presenter = <id> in $XDG_CONFIG_HOME/presenter-host/config, else mbhud; see --list)."
            ),
            presenterOption,
            messages(
                #"Messages for actions whose start line gives none, from a JSON file as for run; an action missing from it uses "default"'s."#
            ),
            OptionSpec(
                name: "--socket", value: .text(placeholder: "<path>", needs: "a path for the socket"),
                completion: .file,
                help:
                    "Serve the protocol on a Unix socket at <path> (mode 0600) for up to 1000 clients of your user or root at once instead of reading stdin; ends on SIGTERM, SIGINT, SIGHUP or SIGQUIT (each client's open actions fail when it disconnects). An old socket file nobody listens on is replaced."
            ),
            color,
            terminalProgress("OSC 9;4 in the terminal's tab and taskbar: auto, always, never."),
            minShow("Once shown, keep the presenter at least <seconds> while actions go on (default: 0)."),
            hookTimeout("How long a presenter's hook may take (default: 0.25; at most 60)."),
            inProcess("Run the presenter inside presenter-host (to debug a plugin)."),
            verbose, log, trace, help,
        ] + pluginOptions,
        exclusive: [cacheModes],
        epilogue: """
            Exit status: 0 when every action started succeeded; 1 when one failed or was
            left open; 64 bad option or unknown presenter; 65 bad messages file; 66
            unreadable messages file; 73 --log file or --socket path that cannot be
            created. SIGINT, SIGTERM, SIGHUP and SIGQUIT end a drive from stdin: the
            terminal restored, it dies of the signal.
            """)

    static let printPluginPath = CommandSpec(
        name: "--print-plugin-path",
        synopsis: ["presenter-host [--plugin-dir <dir>]... [--bundled-only] --print-plugin-path"],
        summary: "Print the plugin search path, one directory a line, in the order plugins are looked for.",
        options: [pluginOptions[0], bundledOnly, help],
        refused: [
            (
                ["--rescan", "--no-cache", PluginPolicy.allowInsecureFlag, "--sandbox", trace.name],
                "it prints the search path and loads no plugin"
            )
        ],
        hasHelpPage: false)

    static let completions = CommandSpec(
        name: "completions",
        synopsis: ["presenter-host completions bash|zsh|fish"],
        summary: "Print the completion script of a shell: every command, option and value.",
        description: """
            Prints the completion script of bash, zsh or fish for presenter-host: every
            command, every option, and the values of --presenter (the ids --list finds,
            asked of presenter-host as you type), --output, --color and the others.
            Load it for this shell, or install it where the shell looks:
              source <(presenter-host completions bash)
              presenter-host completions bash > ~/.local/share/bash-completion/completions/presenter-host
              presenter-host completions zsh > ~/.zfunc/_presenter-host   (a folder in $fpath)
              presenter-host completions fish > ~/.config/fish/completions/presenter-host.fish
            """,
        options: [help],
        operands: .choice(
            placeholder: "<shell>", values: CompletionScript.Shell.allCases.map(\.rawValue),
            missing: "completions needs a shell: bash, zsh or fish"),
        refused: [(pluginOptionNames + [trace.name], "it prints a script and loads no plugin")])

    static let sandboxInfo = CommandSpec(
        name: "--sandbox-info",
        synopsis: ["presenter-host [--sandbox <mode>] --sandbox-info [--json]"],
        summary:
            "Show each layer of the sandbox that processes running plugin code enter here, whether it is in force, and why not.",
        options: [
            OptionSpec(
                name: "--json",
                help: #"With --sandbox-info: print JSON: {"complete", "layers": [{"layer", "state", "detail"}]}."#),
            sandbox, help,
        ],
        refused: [
            (
                [
                    "--plugin-dir", "--rescan", "--no-cache", PluginPolicy.allowInsecureFlag, "--bundled-only",
                    trace.name,
                ],
                "it shows the sandbox and loads no plugin"
            )
        ],
        hasHelpPage: false)
}
