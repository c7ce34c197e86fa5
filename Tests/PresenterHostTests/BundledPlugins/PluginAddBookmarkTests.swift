import PresenterABI
import Testing

/// AddBookmark, loaded from the built libAddBookmark.so: it drives the view's
/// elements for the title interactor and calls its base (mbhud) otherwise.
@Suite struct PluginAddBookmarkTests {
    let plugin: LoadedPlugin
    init() throws { plugin = try LoadedPlugin.load("AddBookmark") }

    private func screen(elements: [String: presenter_status]) throws -> (PluginInstance, FakeView) {
        let view = FakeView()
        view.elements = elements
        return (try PluginInstance(plugin.descriptor), view)
    }

    private static let bothElements = ["get-title-button": PRESENTER_OK, "activity-indicator": PRESENTER_OK]

    @Test func descriptorExtendsTheHUDAndInheritsItsDrawing() {
        let d = plugin.descriptor.pointee
        #expect(String(cString: d.id) == "addbookmark")
        #expect(String(cString: d.name) == "Add Bookmark")
        #expect(String(cString: d.extends) == "mbhud")
        #expect(d.capabilities == UInt64(PRESENTER_CAP_MESSAGES))
        #expect(d.create != nil && d.destroy != nil && d.show != nil && d.hide != nil)
        #expect(d.progress == nil && d.render == nil && d.key == nil)
    }

    @Test func titleInteractorSwapsTheButtonForTheIndicator() throws {
        let (presenter, view) = try screen(elements: Self.bothElements)
        #expect(presenter.show(view, "", id: 1, type: "GetWebTitleInteractor", action: "get-title") == PRESENTER_OK)
        #expect(
            view.elementCalls == [
                "get-title-button \(PRESENTER_ELEMENT_HIDE)",
                "activity-indicator \(PRESENTER_ELEMENT_START_ANIMATING)",
            ])
        #expect(
            presenter.hide(
                view, "An error occurred retrieving the title", id: 1, type: "GetWebTitleInteractor",
                action: "get-title", failure: (1, "http", "HTTP 404")) == PRESENTER_OK)
        #expect(
            view.elementCalls.suffix(2) == [
                "activity-indicator \(PRESENTER_ELEMENT_STOP_ANIMATING)",
                "get-title-button \(PRESENTER_ELEMENT_SHOW)",
            ])
        // The failure shows in the HUD (the base), as any other action's:
        // shown with no text, then hidden with the message and the failure.
        #expect(
            presenter.host.baseCalls == [
                "show  GetWebTitleInteractor:get-title:1:-1.0",
                "hide An error occurred retrieving the title GetWebTitleInteractor:get-title:1:-1.0 1:http:HTTP 404",
            ])
    }

    @Test func aTitleFetchThatSucceedsOrHasNoFailureMessageNeverReachesTheHUD() throws {
        let (presenter, view) = try screen(elements: Self.bothElements)
        presenter.show(view, "", id: 1, type: "GetWebTitleInteractor", action: "get-title")
        presenter.hide(view, nil, id: 1, type: "GetWebTitleInteractor", action: "get-title")
        presenter.show(view, "", id: 2, type: "GetWebTitleInteractor", action: "get-title")
        presenter.hide(
            view, nil, id: 2, type: "GetWebTitleInteractor", action: "get-title", failure: (1, "http", "HTTP 404"))
        #expect(view.elementCalls.count == 8)
        #expect(presenter.host.baseCalls == [])
    }

    @Test func concurrentTitleFetchesKeepTheIndicatorUntilTheLastEnds() throws {
        let (presenter, view) = try screen(elements: Self.bothElements)
        let hideButton = "get-title-button \(PRESENTER_ELEMENT_HIDE)"
        let start = "activity-indicator \(PRESENTER_ELEMENT_START_ANIMATING)"
        let stop = "activity-indicator \(PRESENTER_ELEMENT_STOP_ANIMATING)"
        let showButton = "get-title-button \(PRESENTER_ELEMENT_SHOW)"
        presenter.show(view, "", id: 1, type: "GetWebTitleInteractor", action: "get-title")
        presenter.show(view, "", id: 2, type: "GetWebTitleInteractor", action: "get-title")
        #expect(view.elementCalls == [hideButton, start, hideButton, start])
        // The first ends while the second still fetches: the indicator stays.
        #expect(presenter.hide(view, nil, id: 1, type: "GetWebTitleInteractor", action: "get-title") == PRESENTER_OK)
        #expect(view.elementCalls.count == 4)
        // Another interactor's hide does not count as a title fetch's.
        presenter.show(view, "Saving bookmark...", id: 3)
        presenter.hide(view, nil, id: 3)
        #expect(view.elementCalls.count == 4)
        presenter.hide(
            view, "An error occurred retrieving the title", id: 2, type: "GetWebTitleInteractor",
            action: "get-title", failure: (1, "http", "HTTP 404"))
        #expect(view.elementCalls.suffix(2) == [stop, showButton])
        // A later fetch starts over.
        presenter.show(view, "", id: 4, type: "GetWebTitleInteractor")
        presenter.hide(view, nil, id: 4, type: "GetWebTitleInteractor")
        #expect(view.elementCalls.suffix(4) == [hideButton, start, stop, showButton])
    }

    @Test func otherInteractorsGoToTheBasePresenter() throws {
        let (presenter, view) = try screen(elements: Self.bothElements)
        #expect(presenter.show(view, "Saving bookmark...", id: 7) == PRESENTER_OK)
        presenter.hide(view, "An error occurred saving the bookmark", id: 7, failure: (3, "http", "HTTP 500"))
        presenter.show(view, "Saving bookmark...", id: 8)
        presenter.hide(view, nil, id: 8)
        #expect(
            presenter.host.baseCalls == [
                "show Saving bookmark... AddBookmarkInteractor:add-bookmark:7:-1.0",
                "hide An error occurred saving the bookmark AddBookmarkInteractor:add-bookmark:7:-1.0 3:http:HTTP 500",
                "show Saving bookmark... AddBookmarkInteractor:add-bookmark:8:-1.0",
                "hide nil AddBookmarkInteractor:add-bookmark:8:-1.0 nil",
            ])
        #expect(view.elementCalls == [])
    }

    @Test func missingElementsAreFine() throws {
        let (presenter, view) = try screen(elements: [:])
        #expect(presenter.show(view, "", id: 1, type: "GetWebTitleInteractor") == PRESENTER_OK)
        #expect(presenter.hide(view, nil, id: 1, type: "GetWebTitleInteractor") == PRESENTER_OK)
        #expect(view.elementCalls.count == 4)
        #expect(presenter.host.logs.filter { $0.level == PRESENTER_LOG_DEBUG }.count == 4)
        #expect(presenter.host.errors == [])
    }

    @Test func otherElementErrorsAreReportedAfterEveryOperationRan() throws {
        let (presenter, view) = try screen(elements: [
            "get-title-button": PRESENTER_OK,
            "activity-indicator": PRESENTER_ERR_UNSUPPORTED,
        ])
        #expect(presenter.hide(view, nil, id: 1, type: "GetWebTitleInteractor") == PRESENTER_ERR_UNSUPPORTED)
        #expect(
            view.elementCalls == [
                "activity-indicator \(PRESENTER_ELEMENT_STOP_ANIMATING)",
                "get-title-button \(PRESENTER_ELEMENT_SHOW)",
            ])
        #expect(presenter.host.errors.count == 1)
        #expect(presenter.host.errors.first?.contains("activity-indicator") == true)
    }

    @Test func baseFailureKeepsTheBaseMessage() throws {
        let (presenter, view) = try screen(elements: [:])
        presenter.host.baseStatus = PRESENTER_ERR_FAILED
        #expect(presenter.show(view, "Saving bookmark...", id: 1) == PRESENTER_ERR_FAILED)
        #expect(presenter.host.errors == [])  // the base already set its own message with the host
    }
}
