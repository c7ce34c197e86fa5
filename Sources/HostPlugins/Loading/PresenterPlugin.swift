import PresenterABI

/// One presenter as described: what its descriptor declares (read only
/// within the descriptor's `struct_size`), where its file is, its index
/// there and the names of its hooks. A value, set once where it is made
/// (a loaded descriptor, a file's description, a scan record, the cache,
/// then resolution, which names the file as found): compared as a whole.
///
/// It holds no hook and no pointer into a plugin: running it is an
/// engine's job, which loads its file by ``file`` and ``index`` and gets a
/// ``LoadedPresenter`` (SwiftPM's `Module` and `ResolvedModule`, one type
/// a state). A resolved presenter is a ``PresenterChain`` of these.
public struct PresenterPlugin: Sendable, Equatable {
    /// The presenter's unique id (`[a-z0-9._-]`, at most 64 bytes).
    public let id: String
    /// Its name for people, one line.
    public let name: String
    /// Its own version (free text, one line).
    public let version: String
    /// One line about it, if the descriptor has one.
    public let description: String?
    /// Who wrote it, if the descriptor says.
    public let author: String?
    /// Its licence, if the descriptor says.
    public let license: String?
    /// The id of the presenter this one extends, if any.
    public let extends: String?
    /// What it declares it can show (messages, a determinate fraction).
    public let capabilities: Capabilities
    /// The ABI version the plugin was built for.
    public let abiVersion: ABIVersion
    /// The library file it came from, as found on the search path (what
    /// messages name).
    public let path: String
    /// The real path of that file (links resolved): what is loaded.
    public let file: String
    /// Its descriptor's index in that file: what an engine loads it by
    /// (the entry point's argument), checked there against ``id``, so that
    /// nothing looks the id up among a file's presenters again.
    public let index: Int
    /// The names of the hooks the descriptor defines, in descriptor order.
    public let hookNames: [String]
    /// Where what is known of it came from.
    public let source: Source
    /// Whether this came from the registry cache (no plugin code ran for it).
    public var cached: Bool { source == .cache }

    /// A presenter with these fields, the `index`th of `file` (a real
    /// path), found as `path` (`file` when nil), known from `source`.
    public init(
        id: String, name: String, version: String, description: String?, author: String?, license: String?,
        extends: String?, capabilities: Capabilities, abiVersion: ABIVersion, file: String, path: String? = nil,
        index: Int = 0, hookNames: [String], source: Source
    ) {
        self.id = id; self.name = name; self.version = version; self.description = description
        self.author = author; self.license = license; self.extends = extends
        self.capabilities = capabilities; self.abiVersion = abiVersion; self.file = file; self.path = path ?? file
        self.index = index; self.hookNames = hookNames; self.source = source
    }

    /// `plugin` as found at `path` on the search path (resolution names
    /// the file the user put there, not the real one it leads to).
    package init(_ plugin: PresenterPlugin, foundAt path: String) {
        self.init(
            id: plugin.id, name: plugin.name, version: plugin.version, description: plugin.description,
            author: plugin.author, license: plugin.license, extends: plugin.extends, capabilities: plugin.capabilities,
            abiVersion: plugin.abiVersion, file: plugin.file, path: path, index: plugin.index,
            hookNames: plugin.hookNames, source: plugin.source)
    }

    /// Where what the host knows of a presenter came from.
    public enum Source: Sendable, Equatable {
        /// Its file was loaded in this process.
        case loaded
        /// A scan helper loaded its file and reported its descriptor.
        case scan
        /// Its file's description, read without running any of its code.
        case description
        /// The registry cache: what an earlier scan or reading gave.
        case cache
    }

    /// `PRESENTER_CAP_*` bits.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// `PRESENTER_CAP_MESSAGES`
        public static let messages = Capabilities(rawValue: UInt64(PRESENTER_CAP_MESSAGES))
        /// `PRESENTER_CAP_DETERMINATE`
        public static let determinate = Capabilities(rawValue: UInt64(PRESENTER_CAP_DETERMINATE))
        /// `PRESENTER_CAP_ONE_ROW`: the host gives it a view of one row.
        public static let oneRow = Capabilities(rawValue: UInt64(PRESENTER_CAP_ONE_ROW))
    }
}
