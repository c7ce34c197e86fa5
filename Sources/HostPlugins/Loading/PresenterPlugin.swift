import PresenterABI

/// One presenter as loaded from a plugin library: what its descriptor declares
/// (read only within the descriptor's `struct_size`) and its hooks.
///
/// Values are immutable copies: nothing here points into plugin memory except
/// the hook function pointers, which stay valid because the host never
/// dlcloses a library that loaded.
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
    /// The library file it came from, as found on the search path.
    public internal(set) var path: String
    /// The real path of that file (links resolved): what is loaded.
    public internal(set) var file: String
    /// Its descriptor's index in that file: what an engine loads it by
    /// (the entry point's argument), checked there against ``id``, so that
    /// nothing looks the id up among a file's presenters again.
    public let index: Int
    /// Its hooks; `nil` where the descriptor has NULL or the field is absent,
    /// and for a presenter read from the registry cache (not loaded).
    public let hooks: Hooks
    /// The names of the hooks the descriptor defines, in descriptor order.
    public let hookNames: [String]
    /// Where what is known of it came from.
    public internal(set) var source = Source.loaded
    /// Whether this came from the registry cache (no plugin code ran for it).
    public var cached: Bool { source == .cache }
    /// Whether its library is loaded in this process, so its hooks can be
    /// called here. Not for one from the cache or the scan helper: running
    /// it loads its file (in the presenter process, or in this process for
    /// `--in-process`).
    public var isLoaded: Bool { descriptor != nil }
    /// The descriptor the plugin returned, handed back to its `create` (one
    /// create function may serve several presenters and tell them apart by
    /// it). `nil` for presenters built in code (tests): create then gets NULL.
    public let descriptor: Descriptor?

    /// A presenter with these fields and hooks, the `index`th of its file;
    /// `descriptor` is what its `create` hook gets back (nil for presenters
    /// built in code).
    public init(
        id: String, name: String, version: String, description: String?, author: String?,
        license: String?, extends: String?, capabilities: Capabilities, abiVersion: ABIVersion,
        path: String, index: Int = 0, hooks: Hooks, descriptor: UnsafePointer<presenter_descriptor>? = nil
    ) {
        self.id = id; self.name = name; self.version = version; self.description = description
        self.author = author; self.license = license; self.extends = extends
        self.capabilities = capabilities; self.abiVersion = abiVersion; self.path = path; self.file = path
        self.index = index
        self.hooks = hooks; self.hookNames = hooks.presentNames
        self.descriptor = descriptor.map(Descriptor.init)
    }

    /// A presenter as the registry cache remembers it, or the scan helper
    /// reports it: what it declares, without hooks.
    init(
        id: String, name: String, version: String, description: String?, author: String?, license: String?,
        extends: String?, capabilities: Capabilities, abiVersion: ABIVersion, file: String, index: Int = 0,
        hookNames: [String]
    ) {
        self.id = id; self.name = name; self.version = version; self.description = description
        self.author = author; self.license = license; self.extends = extends
        self.capabilities = capabilities; self.abiVersion = abiVersion; self.path = file; self.file = file
        self.index = index
        self.hooks = Hooks(); self.hookNames = hookNames; self.descriptor = nil; self.source = .cache
    }

    /// Where what the host knows of a presenter came from.
    public enum Source: Sendable, Equatable {
        /// Its file was loaded in this process: its hooks are here.
        case loaded
        /// A scan helper loaded its file and reported its descriptor.
        case scan
        /// Its file's description, read without running any of its code.
        case description
        /// The registry cache: what an earlier scan or reading gave.
        case cache
    }

    /// The address of a plugin's descriptor (static storage of a library the
    /// host never unloads, so it may be shared between threads).
    // Safe: the pointer is to a library's static storage, never written and never unloaded.
    public struct Descriptor: @unchecked Sendable, Equatable {
        /// The descriptor, as the plugin's entry point returned it.
        public let pointer: UnsafePointer<presenter_descriptor>
    }

    /// `PRESENTER_CAP_*` bits.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// `PRESENTER_CAP_MESSAGES`
        public static let messages = Capabilities(rawValue: UInt64(PRESENTER_CAP_MESSAGES))
        /// `PRESENTER_CAP_DETERMINATE`
        public static let determinate = Capabilities(rawValue: UInt64(PRESENTER_CAP_DETERMINATE))
    }

    /// The C function pointers of a descriptor. Equality compares presence only.
    // Safe: C function pointers into libraries that are never unloaded; calling them is the engine's job.
    public struct Hooks: @unchecked Sendable, Equatable {
        /// The header's `create`: makes an instance for one view.
        public typealias Create =
            @convention(c) (
                UnsafePointer<presenter_descriptor>?, UnsafePointer<presenter_host>?, OpaquePointer?,
                UnsafeMutablePointer<UnsafeMutableRawPointer?>?
            ) -> presenter_status
        /// The header's `destroy`: frees an instance.
        public typealias Destroy = @convention(c) (UnsafeMutableRawPointer?) -> Void
        /// The header's `show`: an interactor started, with its working message.
        public typealias Show =
            @convention(c) (
                UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<presenter_interactor>?
            ) -> presenter_status
        /// The header's `hide`: an interactor ended, with its outcome.
        public typealias Hide =
            @convention(c) (
                UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<presenter_interactor>?,
                UnsafePointer<presenter_failure>?
            ) -> presenter_status
        /// The header's `progress`: a shown interactor reported progress.
        public typealias Progress =
            @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<presenter_interactor>?) ->
            presenter_status
        /// The header's `render`: draw the frame of a time.
        public typealias Render = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt64) -> Void
        /// The header's `key`: a key offered; 1 when the presenter used it.
        public typealias Key = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt32) -> Int32

        /// The descriptor's `create`, or nil.
        public var create: Create?
        /// The descriptor's `destroy`, or nil.
        public var destroy: Destroy?
        /// The descriptor's `show`, or nil (a base's is used).
        public var show: Show?
        /// The descriptor's `hide`, or nil (a base's is used).
        public var hide: Hide?
        /// The descriptor's `progress`, or nil (a base's is used).
        public var progress: Progress?
        /// The descriptor's `render`, or nil (a base's is used).
        public var render: Render?
        /// The descriptor's `key`, or nil (a base's is used).
        public var key: Key?

        /// Hooks as given; those left out are absent, as a NULL field is.
        public init(
            create: Create? = nil, destroy: Destroy? = nil, show: Show? = nil, hide: Hide? = nil,
            progress: Progress? = nil, render: Render? = nil, key: Key? = nil
        ) {
            self.create = create; self.destroy = destroy; self.show = show; self.hide = hide
            self.progress = progress; self.render = render; self.key = key
        }

        /// The names of the hooks that are present, in descriptor order.
        public var presentNames: [String] {
            [
                ("create", create != nil), ("destroy", destroy != nil), ("show", show != nil),
                ("hide", hide != nil), ("progress", progress != nil), ("render", render != nil),
                ("key", key != nil),
            ].filter(\.1).map(\.0)
        }

        public static func == (a: Hooks, b: Hooks) -> Bool { a.presentNames == b.presentNames }
    }
}
