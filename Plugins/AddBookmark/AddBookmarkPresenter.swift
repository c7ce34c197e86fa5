import PresenterSDK

/// The Add Bookmark screen's presenter, after the original sample: it extends
/// the HUD. While the page title is fetched it swaps the view's get-title
/// button for the activity indicator over it; every other interactor goes to
/// the HUD (the "super" call). It implements only show and hide: render, key
/// and progress stay NULL, so the host runs the HUD's own.
///
/// A fetch that fails shows its failure message in the HUD, as any other
/// action's would.
///
/// Several title fetches may run at once: the indicator stays until the last
/// of them ends, so one never hides another's progress.
final class AddBookmarkPresenter: Presenter {
    /// From addbookmark.presenters, which is also the library's description.
    static let info = PresenterInfo.addbookmark

    /// The interactor whose progress shows in the view's own elements.
    static let titleInteractor = "GetWebTitleInteractor"
    static let button = "get-title-button"
    static let indicator = "activity-indicator"

    let host: Host
    /// The title interactors shown and not yet hidden (hooks run on one thread).
    private var titleFetches: Set<UInt64> = []

    init(host: Host) {
        self.host = host
    }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        guard interactor.typeName == Self.titleInteractor else {
            return try host.baseShow(view: view, message: message, interactor: interactor)
        }
        titleFetches.insert(interactor.id)
        try apply([(Self.button, .hide), (Self.indicator, .startAnimating)], on: view)
    }

    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        guard interactor.typeName == Self.titleInteractor else {
            return try host.baseHide(view: view, message: message, interactor: interactor, failure: failure)
        }
        titleFetches.remove(interactor.id)
        if titleFetches.isEmpty {  // else another fetch still runs
            try apply([(Self.indicator, .stopAnimating), (Self.button, .show)], on: view)
        }
        // The original shows nothing when the title cannot be had (one of
        // its known defects): the HUD shows the failure, and in an
        // interactive view waits for a key, as for any other action.
        if failure != nil, let message, !message.isEmpty {
            try host.baseShow(view: view, message: "", interactor: interactor)
            try host.baseHide(view: view, message: message, interactor: interactor, failure: failure)
        }
    }

    /// Applies every operation even when one fails, so that the button comes
    /// back whatever happened to the indicator. A view without the element is
    /// fine (another screen may use this presenter); other errors are thrown
    /// after all operations ran.
    private func apply(_ operations: [(String, View.ElementOperation)], on view: View) throws {
        var firstError: (any Error)?
        for (name, operation) in operations {
            do {
                try view.element(name, operation)
            } catch let error as PresenterError where error.code == .notFound {
                host.log("the view has no element \"\(name)\"; skipping \(operation)", level: .debug)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }
}
