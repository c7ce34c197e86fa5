import HostEngine
import HostPlugins
import HostSystem
import HostText

/// The options that say how a command's plugins are found and loaded
/// (``CommandTable/pluginOptions``, before or after the command's name),
/// and the one way commands load them.
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
    /// `--sandbox require`: no third-party plugin code runs unless every
    /// layer of the sandbox is in force.
    var requiresSandbox = false

    /// The search path these options and `environment` give, and its
    /// warnings (whole stderr lines): with `--bundled-only`, the bundled
    /// folder alone and no warning.
    func searchPath(environment: [String: String]) -> (entries: [SearchPathEntry], warnings: [String]) {
        let bundledOnly = bundledOnly || environment[Self.bundledOnlyVariable] == "1"
        let (entries, warnings) = SearchPath.resolve(
            pluginDirs: bundledOnly ? [] : pluginDirs,
            environment: environment, executablePath: nil)
        guard bundledOnly else { return (entries, warnings) }
        return (entries.filter { $0.origin == .bundled }, [])
    }

    /// Resolves the search path (its warnings go to stderr) and loads the
    /// registry through the cache, with a scan helper. Under `verbose`, a
    /// cache file that was ignored gets one line on stderr. `trusting`
    /// (`--in-process`, which runs the plugins in this process anyway): a
    /// file no helper could load is loaded here (under valgrind, say, where
    /// no helper can be started beside a copy of presenter-host-plugins). `needing`: the
    /// presenter the command will run, for which files that only a scan
    /// could tell about are scanned only when needed
    /// (``RegistryPipeline/load(_:needing:)``); nil loads every file.
    func loadRegistry(
        environment: [String: String], verbose: Bool, trusting: Bool = false, needing presenter: String? = nil
    ) -> PresenterRegistry {
        let (entries, warnings) = searchPath(environment: environment)
        for warning in warnings { PresenterHostCommand.writeStandardError(warning + "\n") }
        if verbose, let note = XDGDirectories.homeNote(environment) {
            PresenterHostCommand.writeStandardError(note + "\n")
        }
        let cache = RegistryCache(mode: cache, searchPath: entries, environment: environment)
        if verbose, let cache, let reason = cache.ignored {
            PresenterHostCommand.writeStandardError(
                "presenter-host: registry cache \(PrintableText.escaping(cache.path)) ignored (\(PrintableText.escaping(reason))); rebuilding it\n"
            )
        }
        var scanner = scanner(environment: environment)
        scanner.trustsUnscanned = trusting
        // --rescan asks for every file to be scanned again.
        let registry = RegistryPipeline(scanner: scanner, policy: policy, cache: cache).load(
            entries, needing: self.cache == .rescan ? nil : presenter)
        if verbose, !registry.notScanned.isEmpty {
            let count = registry.notScanned.count
            PresenterHostCommand.writeStandardError(
                "presenter-host: \(count) plugin file\(count == 1 ? "" : "s") without a description not scanned (not needed for '\(PrintableText.escaping(presenter ?? ""))'; presenter-host --list scans them): \(registry.notScanned.map(PrintableText.escaping).joined(separator: ", "))\n"
            )
        }
        return registry
    }

    /// The scan helper these options load plugin files with.
    func scanner(environment: [String: String]) -> PluginScanner {
        var scanner = PluginScanner(environment: environment)
        scanner.requiresSandbox = requiresSandbox
        return scanner
    }

    /// How a presenter process runs these options' plugins, hooks given
    /// `hookTimeout` seconds: under their policy and sandbox mode; the
    /// bundled folder's presenters trusted by `--sandbox require`.
    func presenterProcess(hookTimeout: Double, environment: [String: String]) -> PresenterProcessConfiguration {
        var configuration = PresenterProcessConfiguration(hookTimeout: hookTimeout)
        configuration.hostEnvironment = environment
        configuration.policy = policy
        configuration.requiresSandbox = requiresSandbox
        configuration.trustedFolders = SearchPath.resolve(pluginDirs: [], environment: environment, executablePath: nil)
            .entries.filter { $0.origin == .bundled }.map(\.path)
        return configuration
    }

    /// The rules plugin files are loaded under.
    var policy: PluginPolicy { PluginPolicy(allowInsecure: allowInsecure) }
}

extension PluginOptions {
    /// The plugin options among `parsed` (a command's arguments).
    init(_ parsed: ParsedArguments) {
        pluginDirs = parsed.all("--plugin-dir")
        cache = parsed.has("--rescan") ? .rescan : parsed.has("--no-cache") ? .off : .use
        allowInsecure = parsed.has(PluginPolicy.allowInsecureFlag)
        bundledOnly = parsed.has("--bundled-only")
        requiresSandbox = parsed.last("--sandbox") == "require"
    }
}
