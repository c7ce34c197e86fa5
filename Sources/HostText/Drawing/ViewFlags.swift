import PresenterABI

/// What a render backend's view can do. The low bits mirror the ABI's
/// `PRESENTER_VIEW_*` flags (what `view_flags` returns to plugins); ``color``
/// is the host's own and never reaches a plugin.
public struct ViewFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `PRESENTER_VIEW_UNICODE`: the view can show Unicode (else ASCII only).
    public static let unicode = ViewFlags(rawValue: UInt32(PRESENTER_VIEW_UNICODE))
    /// `PRESENTER_VIEW_INTERACTIVE`: keys can reach the view.
    public static let interactive = ViewFlags(rawValue: UInt32(PRESENTER_VIEW_INTERACTIVE))
    /// `PRESENTER_VIEW_ANIMATED`: frames reach a screen.
    public static let animated = ViewFlags(rawValue: UInt32(PRESENTER_VIEW_ANIMATED))
    /// Colours are written (host-only: plugins always pass colours; the host drops them).
    public static let color = ViewFlags(rawValue: 0x100)

    /// The bits a plugin sees through `view_flags`.
    public var abiValue: UInt32 {
        rawValue & UInt32(PRESENTER_VIEW_UNICODE | PRESENTER_VIEW_INTERACTIVE | PRESENTER_VIEW_ANIMATED)
    }
}
