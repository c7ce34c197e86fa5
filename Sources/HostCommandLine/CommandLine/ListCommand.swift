import HostEngine
import HostPlugins
import HostSystem
import HostText

/// `presenter-host --list`: the presenters found, as a table or JSON, and
/// the plugin files that failed to load.
///
/// Results go to stdout, failures to stderr as `presenter-host: PATH: REASON`
/// (one line each). Every text a plugin chose (an id, a name, a
/// description, a path) is escaped wherever it is shown (`PrintableText`;
/// `JSONValue` in `--json`): a forged record in the registry cache or from
/// a scan helper reaches no terminal as an escape sequence. `--ids` prints
/// only ids (``PresenterIdRule``): what shell completion offers.
/// The exit status is 0 even when some files failed (a listing that shows
/// them did its job). Files are loaded by a scan helper (`PluginScanner`),
/// or not at all when the registry cache knows them; plugin code may still
/// run here (the bundled presenters on a cold cache, every file when no
/// helper can run), so stdout is diverted (`StandardOutputDiversion`) and
/// whatever a plugin prints here ends on stderr.
enum ListCommand {
    /// Lists the presenters found as `plugins` and the environment say
    /// (with `ids`, their ids alone, one a line); returns the exit status.
    static func execute(
        _ plugins: PluginOptions, verbose: Bool, json: Bool, ids: Bool = false, environment: [String: String]
    ) -> Int32 {
        let diversion = StandardOutputDiversion()
        let registry = plugins.loadRegistry(environment: environment, verbose: verbose)
        if EngineNote.tracingEnabled(environment) {
            for line in DiscoveryTrace.lines(registry) {
                PresenterHostCommand.writeStandardError("presenter-host: debug: \(line)\n")
            }
        }
        var failure: Errno?
        if ids {
            for plugin in registry.plugins where !PresenterIdRule.isValid(plugin.id) {
                PresenterHostCommand.writeStandardError("presenter-host: \(notAnId(plugin))\n")
            }
        }
        do throws(Errno) {
            try diversion.write(
                ids ? self.ids(registry) : json ? self.json(registry) : table(registry, verbose: verbose))
        } catch {
            failure = error
        }
        for error in registry.errors {
            PresenterHostCommand.writeStandardError("presenter-host: \(error)\n")
        }
        guard let failure else { return ExitCode.success.rawValue }
        return PresenterHostCommand.report(PresenterHostCommand.outputFailure(failure))
    }

    // MARK: - Ids

    /// `--ids`: the ids, one a line, each an id by ``PresenterIdRule``: a
    /// shell completes from these lines, and a word of other characters
    /// (`$(...)`, a space, a glob) means something to a shell.
    static func ids(_ registry: PresenterRegistry) -> String {
        registry.plugins.lazy.filter { PresenterIdRule.isValid($0.id) }.map { $0.id + "\n" }.joined()
    }

    /// Why `--ids` leaves `plugin` out: its id is not one, which no file
    /// read in place can declare (a forged scan report or cache entry).
    static func notAnId(_ plugin: PresenterPlugin) -> String {
        "\(PrintableText.escaping(plugin.path)): presenter id '\(PrintableText.escaping(plugin.id))' is not an id "
            + "(1 to \(PresenterIdRule.maxBytes) bytes of a-z, 0-9, '.', '_' and '-'), left out of --ids; "
            + "rebuild the registry cache with presenter-host --list --rescan, or remove the file"
    }

    // MARK: - Table

    /// The table: one row per presenter; with `verbose`, details under each
    /// row and the search path at the end.
    static func table(_ registry: PresenterRegistry, verbose: Bool) -> String {
        var text = ""
        if registry.plugins.isEmpty {
            text += "No presenters found. Run 'presenter-host --list -v' to see where they were looked for.\n"
        } else {
            let header = ["ID", "NAME", "VERSION", "EXTENDS", "CAPABILITIES", "FILE"]
            let columns = header.count
            // The cells row by row in one array, each measured once: a listing
            // of a thousand plugins is six thousand cells, and measuring each
            // again to pad it, with an array a row, cost more than the rest
            // of a warm `--list`.
            var cells = header, widths = header.map(\.utf8.count)
            cells.reserveCapacity(columns * (registry.plugins.count + 1))
            widths.reserveCapacity(cells.capacity)
            for plugin in registry.plugins {
                // Each text as the plugin (or the file system) gave it, escaped.
                cells += [
                    shown(plugin.id), shown(plugin.name), shown(plugin.version), plugin.extends.map(shown) ?? "-",
                    capabilityList(plugin.capabilities), shown(plugin.path),
                ]
                for cell in cells[(cells.count - columns)...] { widths.append(Self.columns(of: cell)) }
            }
            // Columns line up on screen: a wide (CJK, emoji) character takes two.
            var columnWidths = [Int](repeating: 0, count: columns)
            for (index, width) in widths.enumerated() {
                columnWidths[index % columns] = max(columnWidths[index % columns], width)
            }
            // The lines as bytes, made text once: appending to a String cell
            // by cell cost several times the copying.
            var bytes: [UInt8] = []
            bytes.reserveCapacity((columnWidths.reduce(0, +) + 2 * columns) * (registry.plugins.count + 1))
            let space = UInt8(ascii: " "), newline = UInt8(ascii: "\n")
            func line(_ row: Int) {
                for column in 0..<columns {
                    let index = row * columns + column
                    bytes += cells[index].utf8
                    guard column < columns - 1 else { break }
                    // The padding, then the two spaces between columns.
                    bytes += repeatElement(space, count: columnWidths[column] - widths[index] + 2)
                }
                bytes.append(newline)
            }
            line(0)
            let chains = verbose ? registry.chains() : [:]
            for (index, plugin) in registry.plugins.enumerated() {
                if verbose && index > 0 { bytes.append(newline) }
                line(index + 1)
                if verbose { bytes += details(plugin, chain: chains[plugin.id] ?? [plugin]).utf8 }
            }
            text += String(decoding: bytes, as: UTF8.self)
        }
        if verbose {
            text +=
                "\nSearch path, in order (bundled: only \(SearchPath.bundledLibraryNames.joined(separator: ", "))):\n"
            let originWidth = SearchPathEntry.Origin.allCases.map(\.rawValue.count).max() ?? 0
            let statuses = registry.searchPath.map { $0.status().label }
            let statusWidth = statuses.map(\.count).max() ?? 0
            for (entry, status) in zip(registry.searchPath, statuses) {
                text +=
                    "  \(entry.origin.rawValue.padded(toColumns: originWidth))  \(status.padded(toColumns: statusWidth))"
                    + "  \(PrintableText.escaping(entry.path))\n"
            }
        }
        return text
    }

    /// Where `-v` says a presenter was loaded from.
    private static func loadedFrom(_ source: PresenterPlugin.Source) -> String {
        switch source {
        case .cache: return "the registry cache"
        case .description: return "the file's description"
        case .scan: return "the file (scanned now)"
        case .loaded: return "the file (loaded now)"
        }
    }

    /// The lines under a presenter's row with `-v`; `chain` is its chain
    /// (`PresenterRegistry.chains`), or itself alone when that is broken.
    private static func details(_ plugin: PresenterPlugin, chain: [PresenterPlugin]) -> String {
        var lines = [
            ("ABI", plugin.abiVersion.description),
            ("Loaded from", loadedFrom(plugin.source)),
        ]
        if let description = plugin.description { lines.append(("Description", shown(description))) }
        if let author = plugin.author { lines.append(("Author", shown(author))) }
        if let license = plugin.license { lines.append(("License", shown(license))) }
        let hooks = HookSummary(plugin, chain: chain)
        var parts: [String] = []
        if !hooks.own.isEmpty { parts.append("own: " + hooks.own.joined(separator: ", ")) }
        if !hooks.inherited.isEmpty {
            parts.append(
                "inherited: " + hooks.inherited.map { "\($0.hook) (\(shown($0.from)))" }.joined(separator: ", "))
        }
        if !hooks.none.isEmpty { parts.append("none: " + hooks.none.joined(separator: ", ")) }
        lines.append(("Hooks", parts.joined(separator: "; ")))
        return lines.map { "    \(($0.0 + ":").padded(toColumns: 13))\($0.1)\n" }.joined()
    }

    // MARK: - JSON

    /// The JSON document: `plugins`, `errors` and `searchPath`, keys sorted.
    static func json(_ registry: PresenterRegistry) -> String {
        let strings = { (texts: [String]) in JSONValue.array(texts.map(JSONValue.string)) }
        let chains = registry.chains()
        let plugins: [JSONValue] = registry.plugins.map { plugin in
            let hooks = HookSummary(plugin, chain: chains[plugin.id] ?? [plugin])
            return [
                "id": .string(plugin.id),
                "name": .string(plugin.name),
                "version": .string(plugin.version),
                "extends": JSONValue(plugin.extends),
                "supportsMessages": .bool(plugin.capabilities.contains(.messages)),
                "supportsDeterminate": .bool(plugin.capabilities.contains(.determinate)),
                "capabilities": strings(capabilityNames(plugin.capabilities)),
                "description": JSONValue(plugin.description),
                "author": JSONValue(plugin.author),
                "license": JSONValue(plugin.license),
                "abiVersion": .string(plugin.abiVersion.description),
                "hooks": strings(hooks.own),
                "inheritedHooks": .object(
                    Dictionary(uniqueKeysWithValues: hooks.inherited.map { ($0.hook, .string($0.from)) })),
                "path": .string(plugin.path),
                "cached": .bool(plugin.cached),
            ]
        }
        let document: JSONValue = [
            "plugins": .array(plugins),
            "errors": .array(registry.errors.map { ["path": .string($0.path), "reason": .string($0.reason)] }),
            "searchPath": .array(
                registry.searchPath.map { entry in
                    let status = entry.status()
                    return [
                        "path": .string(entry.path), "origin": .string(entry.origin.rawValue),
                        "exists": .bool(status != .missing), "status": .string(status.label),
                    ]
                }),
        ]
        return document.prettyPrinted + "\n"
    }

    // MARK: - Helpers

    /// `text` as a table or `-v` shows it: as it is when it is printable
    /// ASCII (almost every text), else escaped (`PrintableText`).
    private static func shown(_ text: String) -> String {
        isPrintableASCII(text) ? text : PrintableText.escaping(text)
    }

    /// The display width of a cell: its byte count when it is printable
    /// ASCII (almost every cell), else `DisplayWidth`'s.
    private static func columns(of cell: String) -> Int {
        isPrintableASCII(cell) ? cell.utf8.count : DisplayWidth.of(cell)
    }

    /// True when every byte of `text` is printable ASCII (space to `~`):
    /// one column each, and nothing `PrintableText` would escape.
    private static func isPrintableASCII(_ text: String) -> Bool {
        var text = text
        // Over the contiguous bytes: the generic UTF-8 view's iterator cost
        // several times more a byte.
        return text.withUTF8 { bytes in !bytes.contains { $0 < 0x20 || $0 >= 0x7F } }
    }

    /// The capabilities cell: `capabilityNames` joined by commas, or `-`.
    private static func capabilityList(_ capabilities: PresenterPlugin.Capabilities) -> String {
        switch capabilities {
        case []: return "-"
        case .messages: return "messages"
        case .determinate: return "determinate"
        default: return capabilityNames(capabilities).joined(separator: ",")
        }
    }

    /// `messages`, `determinate`, `one-row`, and unknown bits in hex.
    private static func capabilityNames(_ capabilities: PresenterPlugin.Capabilities) -> [String] {
        var names: [String] = []
        if capabilities.contains(.messages) { names.append("messages") }
        if capabilities.contains(.determinate) { names.append("determinate") }
        if capabilities.contains(.oneRow) { names.append("one-row") }
        let unknown = capabilities.subtracting([.messages, .determinate, .oneRow]).rawValue
        if unknown != 0 { names.append("0x" + String(unknown, radix: 16)) }
        return names
    }

    /// Which hooks a presenter defines, which it inherits from a base (the
    /// nearest one that defines it), and which nobody defines. `create` and
    /// `destroy` are never inherited: each instance in a chain has its own.
    struct HookSummary {
        var own: [String] = []
        var inherited: [(hook: String, from: String)] = []
        var none: [String] = []

        init(_ plugin: PresenterPlugin, chain: [PresenterPlugin]) {
            let ownNames = Set(plugin.hookNames)
            for hook in Hook.descriptorHooks {
                let name = hook.rawValue
                if ownNames.contains(name) {
                    own.append(name)
                } else if hook != .create, hook != .destroy,
                    let base = chain.dropFirst().first(where: { $0.hookNames.contains(name) })
                {
                    inherited.append((name, base.id))
                } else {
                    none.append(name)
                }
            }
        }
    }
}
