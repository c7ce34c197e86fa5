import HostSystem
import PresenterABI

/// A named part of a screenlet view that presenters may act on through the
/// `element` host service (the original's buttons and activity indicators):
/// it can be hidden and it can animate. The view draws it as it likes.
///
/// Thread-safe: presenters change it on the presenter thread, anything may read it.
public final class ViewElement: Sendable {
    private struct State {
        var hidden: Bool
        var animating: Bool
    }

    private let state: LockedValue<State>
    /// Like UIActivityIndicatorView's `hidesWhenStopped`: not visible while
    /// it does not animate.
    public let hidesWhenStopped: Bool

    /// An element, shown and still unless told otherwise.
    public init(isHidden: Bool = false, isAnimating: Bool = false, hidesWhenStopped: Bool = false) {
        state = LockedValue(State(hidden: isHidden, animating: isAnimating))
        self.hidesWhenStopped = hidesWhenStopped
    }

    /// Hidden by `PRESENTER_ELEMENT_HIDE`, shown by `PRESENTER_ELEMENT_SHOW`.
    public var isHidden: Bool {
        get { state.withLock { $0.hidden } }
        set { state.withLock { $0.hidden = newValue } }
    }

    /// Started by `PRESENTER_ELEMENT_START_ANIMATING`, stopped by `..._STOP_ANIMATING`.
    public var isAnimating: Bool {
        get { state.withLock { $0.animating } }
        set { state.withLock { $0.animating = newValue } }
    }

    /// Whether the view should draw it now.
    public var isVisible: Bool {
        state.withLock { !$0.hidden && ($0.animating || !hidesWhenStopped) }
    }

    /// Applies a `PRESENTER_ELEMENT_*` operation; false for an unknown one.
    func apply(_ operation: Int32) -> Bool {
        switch operation {
        case PRESENTER_ELEMENT_HIDE: isHidden = true
        case PRESENTER_ELEMENT_SHOW: isHidden = false
        case PRESENTER_ELEMENT_START_ANIMATING: isAnimating = true
        case PRESENTER_ELEMENT_STOP_ANIMATING: isAnimating = false
        default: return false
        }
        return true
    }
}
