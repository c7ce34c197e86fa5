import Foundation
import PresenterABI
import PresenterHost
import Testing
import PresenterHostTesting

@Suite("Runtime harness: host services")
struct RuntimeHarnessTests {
    @Test("option looks up \"<id>.<key>\" first, then \"<key>\"; unset is NULL")
    func optionLookup() throws {
        let recorder = Recorder(["p": PresenterScript(readOptions: ["grace-ms", "min-show-ms", "missing"])])
        let runtime = recorder.runtime(options: [
            "p.grace-ms": "100", "grace-ms": "7", "min-show-ms": "500", "q.missing": "x",
        ])
        _ = try runtime.attach(TestView(presenter: "p"))
        runtime.shutdown()
        #expect(
            recorder.calls.first
                == HookCall(presenter: "p", hook: "create", detail: "grace-ms=100,min-show-ms=500,missing=nil"))
    }

    @Test("a create that fails reports its set_error message; bases already created are destroyed")
    func createFailure() throws {
        let recorder = Recorder([
            "base": PresenterScript(), "top": PresenterScript(extends: "base", failCreate: "grace-ms must be a number"),
        ])
        let runtime = recorder.runtime()
        #expect(
            throws: RuntimeError.createFailed(
                presenterId: "top", status: PRESENTER_ERR_FAILED, message: "grace-ms must be a number")
        ) {
            try runtime.attach(TestView(presenter: "top"))
        }
        runtime.shutdown()
        #expect(
            recorder.calls.map(\.description) == [
                "base.create(nil, #0)", "top.create(nil, #0)", "base.destroy(nil, #0)",
            ])
        #expect(
            RuntimeError.createFailed(presenterId: "top", status: 1, message: "grace-ms must be a number").description
                == "presenter 'top' could not start: grace-ms must be a number")
    }

    @Test("an unknown presenter id is a typed error")
    func unknownPresenter() {
        let recorder = Recorder(["p": PresenterScript()])
        let runtime = recorder.runtime()
        #expect(throws: RuntimeError.unknownPresenter(id: "nope")) { try runtime.attach(TestView(presenter: "nope")) }
        runtime.shutdown()
    }

    @Test("a failing hook is logged with its message and the host goes on")
    func hookFailureIsLogged() throws {
        let recorder = Recorder(["p": PresenterScript(failShow: "no room for the HUD")])
        let logged = LockedBox<[PresenterLogEntry]>([])
        let runtime = recorder.runtime(log: { entry in logged.mutate { $0.append(entry) } })
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: ["a": [.working: "W"]]))
        screenlet.perform(action: "a", interactorType: "T").succeed()
        runtime.shutdown()
        #expect(
            logged.value == [
                PresenterLogEntry(
                    level: .error, presenterId: "p", message: "show failed (status 1): no room for the HUD")
            ])
        #expect(logged.value.first?.line == "presenter-host: p: error: show failed (status 1): no room for the HUD")
        #expect(recorder.calls.map(\.hook) == ["create", "show", "hide", "destroy"])
    }

    @Test("drawing outside render is refused")
    func drawingOutsideRender() throws {
        let recorder = Recorder(["p": PresenterScript(drawsInShow: true)])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: ["a": [.working: "W"]]))
        _ = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        #expect(recorder.calls.last?.detail == "draw=0")
        #expect(backend.canvas.isBlank)
        runtime.shutdown()
    }

    @Test("element() acts on the view's named elements, NOT_FOUND otherwise")
    func elements() throws {
        let button = ViewElement()
        let spinner = ViewElement(hidesWhenStopped: true)
        #expect(!spinner.isVisible)
        let statuses = try ShowProbe.run(elements: ["get-title-button": button, "activity-indicator": spinner]) {
            host, view in
            [
                host.element(view, "get-title-button", PRESENTER_ELEMENT_HIDE),
                host.element(view, "activity-indicator", PRESENTER_ELEMENT_START_ANIMATING),
                host.element(view, "missing", PRESENTER_ELEMENT_SHOW),
                host.element(view, "activity-indicator", 99),
            ].map { Int($0) }
        }.map { presenter_status($0) }
        #expect(statuses == [PRESENTER_OK, PRESENTER_OK, PRESENTER_ERR_NOT_FOUND, PRESENTER_ERR_INVALID])
        #expect(button.isHidden && !button.isVisible)
        #expect(spinner.isAnimating && spinner.isVisible)
    }

    @Test("text_width counts what draw_text draws: control and layout characters count nothing")
    func textWidthSkipsWhatIsNotDrawn() throws {
        let widths = try ShowProbe.run { host, view in
            ["abc", "日本", "a\u{1B}[31mb", "a\u{2028}b\u{202E}c"].map { text in
                text.withCString { Int(host.text_width(view, $0)) }
            }
        }
        #expect(widths == [3, 4, 6, 3])
    }
}
