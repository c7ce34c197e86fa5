import PresenterABI
import Testing

/// The Swift example presenter (libSwiftExamplePresenter.so), the SDK's
/// sample for plugin authors: a status line with a spinner, then the result.
@Suite struct SDKExamplePresenterTests {
    private func statusLine(_ options: [String: String] = [:]) throws -> (PluginInstance, FakeView) {
        let host = FakeHost()
        host.options = options
        let plugin = try LoadedPlugin.load("SwiftExamplePresenter")
        return (try PluginInstance(plugin.descriptor, host: host), FakeView(cols: 30, rows: 5))
    }

    @Test func workingLineIsOnTheBottomRowWithASpinner() throws {
        let (presenter, view) = try statusLine()
        presenter.show(view, "Saving bookmark...", id: 1)
        presenter.render(view)
        #expect(view.lines[4] == "⠋ Saving bookmark...          ")
        #expect(view.visibleLines.count == 1)
        #expect(presenter.host.takeFrameRequests() == [presenter.host.now + 80_000_000])
    }

    @Test func optionRowTopMovesTheLine() throws {
        let (presenter, view) = try statusLine(["row": "top"])
        presenter.show(view, "Saving", id: 1)
        presenter.render(view)
        #expect(view.lines[0].hasPrefix("⠋ Saving"))
    }

    @Test func successShowsForTwoSecondsThenClears() throws {
        let (presenter, view) = try statusLine()
        presenter.show(view, "Saving", id: 1)
        presenter.hide(view, "Bookmark saved!", id: 1)
        let end = presenter.host.now + 2_000_000_000
        presenter.render(view)
        #expect(view.visibleLines == ["✔ Bookmark saved!"])
        #expect(presenter.host.takeFrameRequests() == [end])
        presenter.host.now = end
        presenter.render(view)
        #expect(view.isBlank)
        #expect(presenter.host.takeFrameRequests() == [])
    }

    @Test func failureShowsTheReason() throws {
        let (presenter, view) = try statusLine()
        presenter.show(view, "Saving", id: 1)
        presenter.hide(view, "Could not save", id: 1, failure: (1, "http", "HTTP 500"))
        presenter.render(view)
        #expect(view.visibleLines == ["✖ Could not save: HTTP 500"])
    }

    /// Its last render (`View.Flags.final`) leaves the outcome on the top
    /// row, its time over or not: the rows kept run from the top.
    @Test func theLastRenderLeavesTheOutcomeOnTheTopRow() throws {
        let (presenter, view) = try statusLine()
        presenter.show(view, "Saving", id: 1)
        presenter.hide(view, "Could not save", id: 1, failure: (1, "http", "HTTP 500"))
        presenter.host.now += 10_000_000_000
        view.flags |= PRESENTER_VIEW_FINAL
        presenter.render(view)
        #expect(view.lines[0] == "✖ Could not save: HTTP 500    ")
        #expect(view.visibleLines.count == 1)
    }

    @Test func lineShowsTheLatestOfSeveralAndEndsWithTheLast() throws {
        let (presenter, view) = try statusLine()
        presenter.show(view, "Uploading", id: 1)
        presenter.show(view, "Saving", id: 2)
        presenter.hide(view, "Saved", id: 2)
        presenter.render(view)
        #expect(view.visibleLines == ["⠋ Uploading"])
        presenter.hide(view, nil, id: 1)
        presenter.render(view)
        #expect(view.isBlank)
    }
}
