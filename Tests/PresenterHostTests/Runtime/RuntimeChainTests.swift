import PresenterABI
import PresenterHost
import Testing
import PresenterHostTesting

/// Presenters that extend others: instance chains, base_* routing, NULL hooks.
@Suite("Runtime: instance chains")
struct RuntimeChainTests {
    let messages: [String: ProgressMessages] = [ScreenletView.defaultAction: [.working: "W", .success: "S"]]

    @Test("bases are created first and destroyed last")
    func lifecycleOrder() throws {
        let recorder = Recorder([
            "root": PresenterScript(), "mid": PresenterScript(extends: "root"),
            "top": PresenterScript(extends: "mid"),
        ])
        let runtime = recorder.runtime()
        _ = try runtime.attach(TestView(presenter: "top"))
        runtime.shutdown()
        #expect(
            recorder.calls.map { "\($0.presenter).\($0.hook)" }
                == ["root.create", "mid.create", "top.create", "top.destroy", "mid.destroy", "root.destroy"])
    }

    @Test("a chain the caller resolved is attached as it is: the view's id is not looked up again")
    func attachWithAResolvedChain() throws {
        let recorder = Recorder(["root": PresenterScript(), "top": PresenterScript(extends: "root")])
        let chain = try recorder.registry.resolve("top")
        let runtime = recorder.runtime()
        // The view names a presenter no registry has: only the chain counts.
        let screenlet = try runtime.attach(TestView(presenter: "not-in-any-registry"), presenter: chain)
        runtime.shutdown()
        #expect(screenlet.presenterId == "top")
        #expect(recorder.calls.map { "\($0.presenter).\($0.hook)" }.prefix(2) == ["root.create", "top.create"])
        let lookingUp = recorder.runtime()
        defer { lookingUp.shutdown() }
        #expect(throws: RuntimeError.unknownPresenter(id: "not-in-any-registry")) {
            try lookingUp.attach(TestView(presenter: "not-in-any-registry"))
        }
    }

    @Test("base_* calls reach the base's own instance, recursively")
    func baseCalls() throws {
        // The root draws, and holds a failure until a key: the key hook is offered one then.
        let recorder = Recorder([
            "root": PresenterScript(text: "failed", holdsFailures: true),
            "mid": PresenterScript(extends: "root", callBase: true),
            "top": PresenterScript(extends: "mid", callBase: true, consumesKeys: false),
        ])
        let runtime = recorder.runtime(backend: TestBackend(flags: [.unicode, .animated, .interactive]))
        let screenlet = try runtime.attach(TestView(presenter: "top", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        handle.reportProgress(0.5)
        runtime.advance(by: 0.1)  // the progress hook runs at the frame
        handle.fail(InteractorError(code: 1, domain: "test", message: "no"))
        runtime.sync {}
        runtime.key(13)
        runtime.shutdown()
        let calls = recorder.calls.filter { !["create", "destroy"].contains($0.hook) }.map {
            "\($0.presenter).\($0.hook)"
        }
        #expect(
            calls == [
                "top.show", "mid.show", "root.show", "top.progress", "mid.progress", "root.progress",
                "top.hide", "mid.hide", "root.hide", "top.key", "mid.key", "root.key",
            ])
        // Each level's render ran too (base_render).
        #expect(Array(recorder.renderers.prefix(3)) == ["top", "mid", "root"])
    }

    @Test("a NULL hook on the top presenter falls back to the nearest base that has it")
    func nullHookInheritance() throws {
        let recorder = Recorder([
            "root": PresenterScript(text: "root draws"),
            "mid": PresenterScript(extends: "root", hooks: ["create", "destroy", "hide"]),
            "top": PresenterScript(extends: "mid", hooks: ["create", "destroy"]),
        ])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(TestView(presenter: "top", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        #expect(backend.lines.first == "root draws")
        handle.succeed()
        runtime.shutdown()
        let calls = recorder.calls.filter { !["create", "destroy"].contains($0.hook) }.map {
            "\($0.presenter).\($0.hook)"
        }
        #expect(calls == ["root.show", "mid.hide"])
    }
}
