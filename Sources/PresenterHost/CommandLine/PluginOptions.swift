import Glibc

/// The options that come before a command and say how its plugins are
/// found and loaded, and the one way both commands load them.
struct PluginOptions: Equatable {
    /// The environment variable that, set to 1, does what `--bundled-only` does.
    static let bundledOnlyVariable = "PRESENTER_HOST_BUNDLED_ONLY"

    /// `--plugin-dir` values, in the order given.
    var pluginDirs: [String] = []
    /// `--rescan` or `--no-cache`, or the default.
    var cache: RegistryCache.Mode = .use
    /// `--allow-insecure-plugins`.
    var allowInsecure = false
    /// `--bundled-only`.
    var bundledOnly = false

    /// Parses `argument` (and its value at `arguments[index]`) when it is
    /// one of these options; returns false for any other argument.
    mutating func parse(_ argument: String, _ arguments: [String], _ index: inout Int) throws(CommandError) -> Bool {
        switch argument {
        case "--plugin-dir":
            guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else {
                throw .usage("Missing value for '--plugin-dir <dir>'")
            }
            pluginDirs.append(try Self.directory(arguments[index]))
            index += 1
        case _ where argument.hasPrefix("--plugin-dir="):
            pluginDirs.append(try Self.directory(String(argument.dropFirst("--plugin-dir=".count))))
        case "--rescan", "--no-cache":
            let mode: RegistryCache.Mode = argument == "--rescan" ? .rescan : .off
            if cache != .use && cache != mode { throw .usage("'--rescan' and '--no-cache' cannot be combined") }
            cache = mode
        case PluginPolicy.allowInsecureFlag:
            allowInsecure = true
        case "--bundled-only":
            bundledOnly = true
        default:
            return false
        }
        return true
    }

    /// Resolves the search path (its warnings go to stderr) and loads the
    /// registry through the cache, with a scan helper. Under `verbose`, a
    /// cache file that was ignored gets one line on stderr.
    func loadRegistry(environment: [String: String], verbose: Bool) -> PresenterRegistry {
        let bundledOnly = bundledOnly || environment[Self.bundledOnlyVariable] == "1"
        var (entries, warnings) = SearchPath.resolve(
            pluginDirs: bundledOnly ? [] : pluginDirs,
            environment: environment, executablePath: nil)
        if bundledOnly {
            entries = entries.filter { $0.origin == .bundled }
            warnings = []
        }
        for warning in warnings { PresenterHostCommand.writeStandardError(warning + "\n") }
        let cache = RegistryCache(mode: cache, searchPath: entries, environment: environment)
        if verbose, let cache, let reason = cache.ignored {
            PresenterHostCommand.writeStandardError(
                "presenter-host: registry cache \(PrintableText.escaping(cache.path)) ignored (\(reason)); rebuilding it\n"
            )
        }
        return RegistryPipeline(scanner: PluginScanner(environment: environment), policy: policy, cache: cache)
            .load(entries)
    }

    /// The rules plugin files are loaded under.
    var policy: PluginPolicy { PluginPolicy(allowInsecure: allowInsecure) }

    private static func directory(_ value: String) throws(CommandError) -> String {
        guard !value.isEmpty else { throw .usage("Empty value for '--plugin-dir <dir>'; give a directory") }
        return value
    }
}
