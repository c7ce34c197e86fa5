import Foundation
import PresenterABI
import PresenterHost
import Testing
import PresenterHostTesting

// A presenter built from @convention(c) hooks, with no .so: each test makes
// its own Recorder, which scripts what each presenter id does and records
// every hook call. The recorder reaches the hooks through the "recorder"
// option, so parallel tests never share state.

/// What a recorded presenter does.
struct PresenterScript {
    var extends: String?
    /// The hooks the descriptor has (others are NULL).
    var hooks: Set<String> = ["create", "destroy", "show", "hide", "progress", "render", "key"]
    /// create fails with this set_error message.
    var failCreate: String?
    /// show fails with this message.
    var failShow: String?
    /// show, hide, progress, render and key also call their base_* service.
    var callBase = false
    /// render draws this text at (0, 0) while some interactor is shown.
    var text: String?
    /// render asks for the next frame this many ns after the frame's time
    /// while some interactor is shown (0: as soon as possible).
    var animateEvery: UInt64?
    /// key returns 1.
    var consumesKeys = false
    /// Options read in create, recorded as "key=value".
    var readOptions: [String] = []
    /// In show: try to draw (must be refused) and record what draw_text returned.
    var drawsInShow = false
}

/// One hook call as seen by a presenter.
struct HookCall: Equatable, CustomStringConvertible {
    var presenter: String
    var hook: String
    var message: String? = nil
    var interactor: UInt64 = 0
    var detail: String? = nil

    var description: String {
        "\(presenter).\(hook)(\(message.map { "\"\($0)\"" } ?? "nil"), #\(interactor)\(detail.map { ", \($0)" } ?? ""))"
    }
}

final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _calls: [HookCall] = []
    private var _threads = Set<UInt>()
    private var _renderTimes: [UInt64] = []
    private var _renderers: [String] = []
    private var inHook = false
    private(set) var overlapped = false
    let scripts: [String: PresenterScript]
    let key = UUID().uuidString

    init(_ scripts: [String: PresenterScript]) {
        self.scripts = scripts
        Recorder.lock.withLock { Recorder.all[key] = self }
    }

    /// Every call but render (see ``renderTimes``), in order.
    var calls: [HookCall] { lock.withLock { _calls } }
    var threads: Set<UInt> { lock.withLock { _threads } }
    /// The frame time of each render call, in order.
    var renderTimes: [UInt64] { lock.withLock { _renderTimes } }
    /// The presenter of each render call, in order.
    var renderers: [String] { lock.withLock { _renderers } }

    func record(_ call: HookCall, renderAt time: UInt64? = nil) {
        lock.withLock {
            _threads.insert(UInt(pthread_self()))
            if let time { _renderTimes.append(time); _renderers.append(call.presenter) } else { _calls.append(call) }
        }
    }

    /// Marks a hook entered/left, noting any overlap (hooks must be serial).
    func enter() {
        lock.withLock {
            if inHook { overlapped = true }; inHook = true
        }
    }
    func leave() { lock.withLock { inHook = false } }

    static let lock = NSLock()
    nonisolated(unsafe) static var all: [String: Recorder] = [:]
    static func find(_ key: String) -> Recorder? { lock.withLock { all[key] } }

    /// The registry of every scripted presenter.
    var registry: PresenterRegistry {
        PresenterRegistry(plugins: scripts.keys.sorted().map { TestPresenters.plugin(id: $0, script: scripts[$0]!) })
    }

    /// A runtime over these presenters, with the recorder option set.
    func runtime(
        backend: RenderBackend = TestBackend(), options: [String: String] = [:],
        clock: HostClock = ManualClock(), maxFramesPerSecond: Int = 20,
        log: ((PresenterLogEntry) -> Void)? = nil
    ) -> PresenterRuntime {
        PresenterRuntime(
            registry: registry, backend: backend, options: options.merging(["recorder": key]) { a, _ in a },
            clock: clock, maxFramesPerSecond: maxFramesPerSecond, log: log)
    }
}

/// The state a recorded presenter's create makes.
final class TestInstance {
    let id: String
    let script: PresenterScript
    let recorder: Recorder
    let host: UnsafePointer<presenter_host>
    let context: OpaquePointer?
    var shown = Set<UInt64>()

    init(
        id: String, script: PresenterScript, recorder: Recorder, host: UnsafePointer<presenter_host>,
        context: OpaquePointer?
    ) {
        self.id = id; self.script = script; self.recorder = recorder; self.host = host; self.context = context
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> TestInstance {
        Unmanaged<TestInstance>.fromOpaque(pointer!).takeUnretainedValue()
    }
}

enum TestPresenters {
    static func plugin(id: String, script: PresenterScript) -> PresenterPlugin {
        let descriptor = UnsafeMutablePointer<presenter_descriptor>.allocate(capacity: 1)
        var value = presenter_descriptor()
        value.struct_size = UInt32(MemoryLayout<presenter_descriptor>.size)
        value.id = UnsafePointer(strdup(id))  // leaked: descriptors are static storage
        descriptor.initialize(to: value)
        let has = script.hooks
        let hooks = PresenterPlugin.Hooks(
            create: has.contains("create") ? create : nil, destroy: has.contains("destroy") ? destroy : nil,
            show: has.contains("show") ? show : nil, hide: has.contains("hide") ? hide : nil,
            progress: has.contains("progress") ? progress : nil, render: has.contains("render") ? render : nil,
            key: has.contains("key") ? key : nil)
        return PresenterPlugin(
            id: id, name: id, version: "1.0", description: nil, author: nil, license: nil,
            extends: script.extends, capabilities: [.messages], abiVersion: .host,
            path: "<test>", hooks: hooks, descriptor: UnsafePointer(descriptor))
    }

    static let create: PresenterPlugin.Hooks.Create = { descriptor, host, context, instance in
        let id = String(cString: descriptor!.pointee.id)
        guard let host, let key = host.pointee.option(context, "recorder"),
            let recorder = Recorder.find(String(cString: key))
        else {
            return PRESENTER_ERR_INVALID
        }
        let script = recorder.scripts[id]!
        let options = script.readOptions.map { name in
            "\(name)=\(host.pointee.option(context, name).map { String(cString: $0) } ?? "nil")"
        }
        recorder.record(
            HookCall(presenter: id, hook: "create", detail: options.isEmpty ? nil : options.joined(separator: ",")))
        if let message = script.failCreate {
            host.pointee.set_error(context, message)
            return PRESENTER_ERR_FAILED
        }
        let state = TestInstance(id: id, script: script, recorder: recorder, host: host, context: context)
        instance!.pointee = Unmanaged.passRetained(state).toOpaque()
        return PRESENTER_OK
    }

    static let destroy: PresenterPlugin.Hooks.Destroy = { pointer in
        let state = TestInstance.from(pointer)
        state.recorder.record(HookCall(presenter: state.id, hook: "destroy"))
        Unmanaged<TestInstance>.fromOpaque(pointer!).release()
    }

    static let show: PresenterPlugin.Hooks.Show = { pointer, view, message, interactor in
        let state = TestInstance.from(pointer)
        state.recorder.enter()
        defer { state.recorder.leave() }
        var detail: String?
        if state.script.drawsInShow {
            let drawn = state.host.pointee.draw_text(view, 0, 0, 10, "x", 0)
            detail = "draw=\(drawn)"
        }
        state.recorder.record(
            HookCall(
                presenter: state.id, hook: "show", message: message.map { String(cString: $0) },
                interactor: interactor!.pointee.id, detail: detail))
        state.shown.insert(interactor!.pointee.id)
        if state.script.callBase {
            let status = state.host.pointee.base_show(state.context, view, message, interactor)
            if status != PRESENTER_OK { return status }
        }
        if let failure = state.script.failShow {
            state.host.pointee.set_error(state.context, failure)
            return PRESENTER_ERR_FAILED
        }
        return PRESENTER_OK
    }

    static let hide: PresenterPlugin.Hooks.Hide = { pointer, view, message, interactor, failure in
        let state = TestInstance.from(pointer)
        state.recorder.enter()
        defer { state.recorder.leave() }
        let detail = failure.map {
            "\(String(cString: $0.pointee.domain)):\(String(cString: $0.pointee.message)):\($0.pointee.code)"
        }
        state.recorder.record(
            HookCall(
                presenter: state.id, hook: "hide", message: message.map { String(cString: $0) },
                interactor: interactor!.pointee.id, detail: detail))
        state.shown.remove(interactor!.pointee.id)
        if state.script.callBase {
            return state.host.pointee.base_hide(state.context, view, message, interactor, failure)
        }
        return PRESENTER_OK
    }

    static let progress: PresenterPlugin.Hooks.Progress = { pointer, view, interactor in
        let state = TestInstance.from(pointer)
        state.recorder.record(
            HookCall(
                presenter: state.id, hook: "progress", interactor: interactor!.pointee.id,
                detail: String(interactor!.pointee.progress)))
        if state.script.callBase { return state.host.pointee.base_progress(state.context, view, interactor) }
        return PRESENTER_OK
    }

    static let render: PresenterPlugin.Hooks.Render = { pointer, view, now in
        let state = TestInstance.from(pointer)
        state.recorder.enter()
        defer { state.recorder.leave() }
        state.recorder.record(HookCall(presenter: state.id, hook: "render"), renderAt: now)
        if !state.shown.isEmpty {
            if let text = state.script.text { _ = state.host.pointee.draw_text(view, 0, 0, UInt32.max, text, 0) }
            if let every = state.script.animateEvery {
                state.host.pointee.request_frame(state.context, every == 0 ? 0 : now + every)
            }
        }
        if state.script.callBase { state.host.pointee.base_render(state.context, view, now) }
    }

    static let key: PresenterPlugin.Hooks.Key = { pointer, view, code in
        let state = TestInstance.from(pointer)
        state.recorder.record(HookCall(presenter: state.id, hook: "key", detail: String(code)))
        if state.script.callBase && state.host.pointee.base_key(state.context, view, code) != 0 { return 1 }
        return state.script.consumesKeys ? 1 : 0
    }
}

/// A view with fixed messages and presenter.
final class TestView: ScreenletView, @unchecked Sendable {
    let presenter: String
    private(set) var keys: [UInt32] = []
    init(presenter: String, messages: [String: ProgressMessages] = [:], elements: [String: ViewElement] = [:]) {
        self.presenter = presenter
        super.init(progressMessages: messages, elements: elements)
    }
    override func createProgressPresenter() -> String { presenter }
    override func handleKey(_ code: UInt32) -> Bool { keys.append(code); return true }
}

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
        let statuses = ElementProbe.run(elements: ["get-title-button": button, "activity-indicator": spinner])
        #expect(statuses == [PRESENTER_OK, PRESENTER_OK, PRESENTER_ERR_NOT_FOUND, PRESENTER_ERR_INVALID])
        #expect(button.isHidden && !button.isVisible)
        #expect(spinner.isAnimating && spinner.isVisible)
    }
}

/// A presenter whose show calls the element service four times.
enum ElementProbe {
    nonisolated(unsafe) static var statuses: [presenter_status] = []
    static func run(elements: [String: ViewElement]) -> [presenter_status] {
        let hooks = PresenterPlugin.Hooks(
            create: { _, host, _, instance in
                instance!.pointee = UnsafeMutableRawPointer(mutating: host!)
                return PRESENTER_OK
            },
            show: { state, view, _, _ in
                let host = state!.assumingMemoryBound(to: presenter_host.self)
                ElementProbe.statuses = [
                    host.pointee.element(view, "get-title-button", PRESENTER_ELEMENT_HIDE),
                    host.pointee.element(view, "activity-indicator", PRESENTER_ELEMENT_START_ANIMATING),
                    host.pointee.element(view, "missing", PRESENTER_ELEMENT_SHOW),
                    host.pointee.element(view, "activity-indicator", 99),
                ]
                return PRESENTER_OK
            })
        let probe = PresenterPlugin(
            id: "probe", name: "probe", version: "1", description: nil, author: nil, license: nil,
            extends: nil, capabilities: [], abiVersion: .host, path: "<test>", hooks: hooks)
        let probeRuntime = PresenterRuntime(
            registry: PresenterRegistry(plugins: [probe]), backend: TestBackend(), clock: ManualClock())
        final class ProbeView: ScreenletView, @unchecked Sendable {
            override func createProgressPresenter() -> String { "probe" }
        }
        let probeView = ProbeView(progressMessages: ["a": [.working: ""]], elements: elements)
        let screenlet = try! probeRuntime.attach(probeView)
        screenlet.perform(action: "a", interactorType: "T").succeed()
        let result = probeRuntime.sync { statuses }
        probeRuntime.shutdown()
        return result
    }
}

/// A value shared between threads in tests.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
