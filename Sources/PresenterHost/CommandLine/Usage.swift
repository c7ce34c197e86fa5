/// The text of `presenter-host --help` and of the usage lines shown with a
/// usage error.
enum Usage {
    /// The program's version.
    static let version = "0.1.0"

    /// The one line `--version` prints.
    static var versionLine: String {
        "presenter-host \(version) (presenter ABI \(ABIVersion.host))"
    }

    /// The usage lines, shown after a usage error and at the top of the help.
    static let synopsis = """
        Usage: presenter-host [<plugin options>] --list [--verbose] [--json]
               presenter-host [<plugin options>] run [<options>] -- <command> [<argument>...]
               presenter-host [--plugin-dir <dir>]... add-bookmark [<options>]
               presenter-host bookmarks [--json] [--store <file>]
               presenter-host [--plugin-dir <dir>]... check [--json] <file.so>...
               presenter-host [--plugin-dir <dir>]... drive [<options>] [--socket <path>]
               presenter-host [--plugin-dir <dir>]... --print-plugin-path
               presenter-host --help | --version

        """

    /// The full help.
    static var help: String {
        """
        presenter-host: show the progress of commands with presenter plugins.

        \(synopsis)
        Commands:
          --list, list        List the presenters found, then (on stderr) the plugin
                              files that failed to load and why.
          run                 Run a command under a presenter. See 'presenter-host run --help'.
          add-bookmark        The Add Bookmark screen (or, with --get-title / --add, its
                              actions for scripts). See 'presenter-host add-bookmark --help'.
          bookmarks           List the bookmarks the Add Bookmark screen saved (--json for
                              scripts, --store <file> for another store than the default
                              $XDG_DATA_HOME/presenter-host/bookmarks.json or $\(BookmarkStore.environmentVariable)).
                              See 'presenter-host bookmarks --help'.
          check               Run the conformance checks on plugin files: PASS, FAIL or
                              WARN per check with the reason and the fix; exits 0
                              when nothing failed. See 'presenter-host check --help'.
          drive               Show actions that JSON lines on stdin or a socket start and end,
                              from any language. See 'presenter-host drive --help'.
          --print-plugin-path Print the plugin search path, one directory a line, in
                              the order plugins are looked for.

        Plugin options (before --list or run):
          --plugin-dir <dir>  Look for plugins in <dir> first. Repeatable.
          --rescan            Scan every plugin file again and rebuild the registry cache.
          --no-cache          Neither read nor write the registry cache
                              ($XDG_CACHE_HOME/presenter-host/registry.cache).
          --allow-insecure-plugins
                              For development only: load plugin files that others could
                              have written (owned by another user, writable by group or others).
          --bundled-only      Load the bundled presenters alone (also \(PluginOptions.bundledOnlyVariable)=1).

        Options:
          -v, --verbose       With --list: also show each presenter's ABI version,
                              description, author, license and hooks, and the search path.
          --json              With --list: print JSON for scripts. Keys: plugins (id, name,
                              version, extends, supportsMessages, path, ...), errors (path,
                              reason), searchPath (path, origin, exists).
          --trace             Log every discovery decision and every hook call (arguments,
                              result, duration) on stderr, or in run's --log file; the
                              same as PRESENTER_HOST_DEBUG=1.
          -h, --help          Show this help.
          --version           Show the version of presenter-host and of its plugin ABI.

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
}
