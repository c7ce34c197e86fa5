import PresenterABI
import Testing

/// NetActivity, loaded from the built libNetActivity.so. Each test loads a
/// private copy so that the counter it shares between instances is its own.
@Suite struct PluginNetActivityTests {
    /// The one cell drawn, when it is the view's top-right cell and nothing else is drawn.
    private func indicator(_ view: FakeView) -> String? {
        let top = Array(view.lines[0])
        let rest = view.lines.dropFirst().joined() + String(top.dropLast())
        guard rest.allSatisfy({ $0 == " " }), top.last != " " else { return nil }
        return top.last.map(String.init)
    }

    @Test func descriptorDeclaresNoMessages() throws {
        let d = try LoadedPlugin.load("NetActivity").descriptor.pointee
        #expect(String(cString: d.id) == "netactivity")
        #expect(String(cString: d.name) == "Network Activity")
        // What --list -v says: where it draws (the first row of run's
        // region, under the command line), not the terminal's top right.
        #expect(
            String(cString: d.description)
                == "A one-cell spinner at the right end of its view's first row while any action of any view runs")
        #expect(d.capabilities == 0)
        #expect(d.extends == nil)
        #expect(d.show != nil && d.hide != nil && d.render != nil)
        #expect(d.progress == nil && d.key == nil)
    }

    @Test func indicatorIsSharedByEveryInstanceAndWakesIdleViews() throws {
        let plugin = try LoadedPlugin.load("NetActivity", privateCopy: true)
        let a = try PluginInstance(plugin.descriptor), b = try PluginInstance(plugin.descriptor)
        let viewA = FakeView(), viewB = FakeView()
        a.render(viewA)
        #expect(viewA.isBlank)
        #expect(a.host.takeFrameRequests() == [])

        a.show(viewA, "", id: 1)
        #expect(b.host.takeFrameRequests() == [0])  // the other view redraws at once
        a.render(viewA)
        b.render(viewB)
        // At 1 s the Braille spinner is at frame 12 % 10; the next change is at 1.04 s.
        #expect(indicator(viewA) == "⠹")
        #expect(indicator(viewB) == "⠹")
        #expect(a.host.takeFrameRequests() == [1_040_000_000])
        #expect(b.host.takeFrameRequests() == [1_040_000_000])

        b.show(viewB, "", id: 2)
        a.hide(viewA, nil, id: 1)
        #expect(b.host.takeFrameRequests() == [])  // still in flight: nothing to wake
        a.render(viewA)
        #expect(indicator(viewA) == "⠹")

        b.hide(viewB, nil, id: 2)
        #expect(a.host.takeFrameRequests().contains(0))
        a.render(viewA)
        b.render(viewB)
        #expect(viewA.isBlank && viewB.isBlank)
        #expect(a.host.takeFrameRequests() == [] && b.host.takeFrameRequests() == [])
    }

    /// Its last render (PRESENTER_VIEW_FINAL) leaves how the view's last
    /// interactor ended, the one place it shows a message: one line from the
    /// top-left, the indicator gone.
    @Test func theLastRenderLeavesTheOutcome() throws {
        let plugin = try LoadedPlugin.load("NetActivity", privateCopy: true)
        let a = try PluginInstance(plugin.descriptor)
        func last(_ view: FakeView) -> [String] {
            view.flags |= PRESENTER_VIEW_FINAL
            a.render(view)
            return view.visibleLines
        }
        let view = FakeView()
        a.show(view, "", id: 1)
        a.hide(view, "Built", id: 1)
        #expect(last(view) == ["✔ Built"])
        #expect(view.texts.contains { $0 == ("✔", UInt32(PRESENTER_COLOR_GREEN)) })

        let failed = FakeView()
        a.show(failed, "", id: 2)
        a.hide(failed, "Build failed", id: 2, failure: (2, "process", "exit status 2"))
        #expect(last(failed) == ["✖ Build failed: exit status 2"])
        #expect(failed.texts.contains { $0 == ("✖", UInt32(PRESENTER_COLOR_RED)) })

        let silent = FakeView()
        a.show(silent, "", id: 3)
        a.hide(silent, nil, id: 3, failure: (2, "process", "exit status 2"))
        #expect(last(silent) == ["✖ exit status 2"])

        // A validation failure's text is its message: said once.
        let once = FakeView()
        a.show(once, "", id: 4)
        a.hide(once, "URL cannot be empty", id: 4, failure: (1, "validation", ""))
        #expect(last(once) == ["✖ URL cannot be empty"])

        let quiet = FakeView()
        a.show(quiet, "", id: 5)
        a.hide(quiet, nil, id: 5)
        #expect(last(quiet) == [])

        let narrow = FakeView(cols: 1, rows: 1, flags: PRESENTER_VIEW_ANIMATED)
        a.show(narrow, "", id: 6)
        a.hide(narrow, "Built", id: 6)
        #expect(last(narrow) == ["v"])
    }

    @Test func counterNeverGoesBelowZero() throws {
        let plugin = try LoadedPlugin.load("NetActivity", privateCopy: true)
        let a = try PluginInstance(plugin.descriptor)
        let view = FakeView()
        #expect(a.hide(view, nil, id: 5) == PRESENTER_OK)  // never shown
        a.render(view)
        #expect(view.isBlank)
        a.show(view, "", id: 6)
        a.hide(view, nil, id: 6)
        a.hide(view, nil, id: 6)  // a second hide is ignored
        a.render(view)
        #expect(view.isBlank)
        a.show(view, "", id: 7)  // would stay hidden had the count gone to -1
        a.render(view)
        #expect(indicator(view) != nil)
    }

    @Test func destroyingAnInstanceEndsItsInteractors() throws {
        let plugin = try LoadedPlugin.load("NetActivity", privateCopy: true)
        var a: PluginInstance? = try PluginInstance(plugin.descriptor)
        let b = try PluginInstance(plugin.descriptor)
        let view = FakeView()
        a?.show(FakeView(), "", id: 1)
        b.render(view)
        #expect(indicator(view) != nil)
        _ = b.host.takeFrameRequests()
        a = nil
        #expect(b.host.takeFrameRequests() == [0])
        b.render(view)
        #expect(view.isBlank)
    }

    @Test func asciiViewGetsAnAsciiIndicator() throws {
        let plugin = try LoadedPlugin.load("NetActivity", privateCopy: true)
        let a = try PluginInstance(plugin.descriptor)
        let view = FakeView(flags: PRESENTER_VIEW_ANIMATED)
        a.show(view, "", id: 1)
        a.render(view)
        #expect(indicator(view) == "-")  // frame 12 % 4 of -\|/
    }
}
