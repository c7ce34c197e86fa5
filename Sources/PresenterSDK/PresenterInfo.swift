import PresenterABI

/// What a presenter's descriptor declares. The SDK copies every string into
/// storage that lives as long as the library, as the ABI requires.
public struct PresenterInfo: Sendable {
    /// Unique id: 1 to 64 bytes of `[a-z0-9._-]`; users choose presenters by it.
    public var id: String
    /// Display name, e.g. "MB HUD".
    public var name: String
    /// The presenter's own version, e.g. "1.2.0".
    public var version: String
    /// One line saying what it shows.
    public var description: String?
    /// Who wrote it.
    public var author: String?
    /// An SPDX licence id, e.g. "MIT".
    public var license: String?
    /// The id of the presenter this one extends (its base), or `nil`.
    public var extends: String?
    /// What the presenter can show.
    public var capabilities: Capabilities
    /// The hooks this presenter implements. The others are NULL in the
    /// descriptor, so the host runs the base presenter's hook instead.
    public var hooks: Hooks

    /// Describes a presenter; by default it implements every hook.
    public init(
        id: String, name: String, version: String, description: String? = nil,
        author: String? = nil, license: String? = nil, extends: String? = nil,
        capabilities: Capabilities = [], hooks: Hooks = .all
    ) {
        self.id = id; self.name = name; self.version = version; self.description = description
        self.author = author; self.license = license; self.extends = extends
        self.capabilities = capabilities; self.hooks = hooks
    }

    /// `PRESENTER_CAP_*` bits.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// `PRESENTER_CAP_MESSAGES`: shows the messages given to show and hide.
        public static let messages = Capabilities(rawValue: UInt64(PRESENTER_CAP_MESSAGES))
        /// `PRESENTER_CAP_DETERMINATE`: shows a determinate progress fraction.
        public static let determinate = Capabilities(rawValue: UInt64(PRESENTER_CAP_DETERMINATE))
        /// `PRESENTER_CAP_ONE_ROW` (ABI 1.4): draws in one row, so a host
        /// that draws a region gives it a view of one row.
        public static let oneRow = Capabilities(rawValue: UInt64(PRESENTER_CAP_ONE_ROW))
    }

    /// The optional hooks of a descriptor (create and destroy are always set).
    public struct Hooks: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// ``Presenter/show(view:message:interactor:)``
        public static let show = Hooks(rawValue: 1 << 0)
        /// ``Presenter/hide(view:message:interactor:failure:)``
        public static let hide = Hooks(rawValue: 1 << 1)
        /// ``Presenter/progress(view:interactor:)``
        public static let progress = Hooks(rawValue: 1 << 2)
        /// ``Presenter/render(view:now:)``
        public static let render = Hooks(rawValue: 1 << 3)
        /// ``Presenter/key(_:view:)``
        public static let key = Hooks(rawValue: 1 << 4)
        /// Every optional hook.
        public static let all: Hooks = [.show, .hide, .progress, .render, .key]
    }
}
