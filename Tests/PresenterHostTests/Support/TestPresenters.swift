import Foundation
import HostEngine
import HostPlugins
import PresenterABI
import PresenterHost

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

extension PresenterLoader {
    /// Hands an in-process engine `presenters`, built in code (they have no
    /// file): each description the engine is asked to run is found among
    /// theirs, as a value.
    static func built(_ presenters: [LoadedPresenter]) -> PresenterLoader {
        PresenterLoader { plugin throws(PresenterFailure) in
            guard let loaded = presenters.first(where: { $0.plugin == plugin }) else {
                throw PresenterFailure(
                    presenterId: plugin.id, hook: nil,
                    reason: .couldNotStart(.presenterMissing(path: plugin.path, id: plugin.id)))
            }
            return loaded
        }
    }
}

enum TestPresenters {
    /// Every descriptor made, never freed: a plugin's descriptor is static
    /// storage, which lives as long as the process. Kept here so that they
    /// are reachable (LeakSanitizer counts them as leaks otherwise).
    private static let descriptors = LockedBox<[UnsafeMutablePointer<presenter_descriptor>]>([])

    /// A presenter built in code, loaded as an engine would have it: its
    /// description is what a registry holds, and ``PresenterLoader/built(_:)``
    /// hands the engine the rest.
    static func plugin(id: String, script: PresenterScript) -> LoadedPresenter {
        let descriptor = UnsafeMutablePointer<presenter_descriptor>.allocate(capacity: 1)
        var value = presenter_descriptor()
        value.struct_size = UInt32(MemoryLayout<presenter_descriptor>.size)
        value.id = UnsafePointer(strdup(id))
        descriptor.initialize(to: value)
        descriptors.mutate { $0.append(descriptor) }
        let has = script.hooks
        let hooks = LoadedPresenter.Hooks(
            create: has.contains("create") ? create : nil, destroy: has.contains("destroy") ? destroy : nil,
            show: has.contains("show") ? show : nil, hide: has.contains("hide") ? hide : nil,
            progress: has.contains("progress") ? progress : nil, render: has.contains("render") ? render : nil,
            key: has.contains("key") ? key : nil)
        let plugin = PresenterPlugin(
            id: id, name: id, version: "1.0", description: nil, author: nil, license: nil,
            extends: script.extends, capabilities: [.messages], abiVersion: .host,
            file: "<test>", hookNames: hooks.presentNames, source: .loaded)
        return LoadedPresenter(plugin, hooks: hooks, descriptor: UnsafePointer(descriptor))
    }

    static let create: LoadedPresenter.Hooks.Create = { descriptor, host, context, instance in
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

    static let destroy: LoadedPresenter.Hooks.Destroy = { pointer in
        let state = TestInstance.from(pointer)
        state.recorder.record(HookCall(presenter: state.id, hook: "destroy"))
        Unmanaged<TestInstance>.fromOpaque(pointer!).release()
    }

    static let show: LoadedPresenter.Hooks.Show = { pointer, view, message, interactor in
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

    static let hide: LoadedPresenter.Hooks.Hide = { pointer, view, message, interactor, failure in
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
        if failure == nil || !state.script.holdsFailures { state.shown.remove(interactor!.pointee.id) }
        if state.script.callBase {
            return state.host.pointee.base_hide(state.context, view, message, interactor, failure)
        }
        return PRESENTER_OK
    }

    static let progress: LoadedPresenter.Hooks.Progress = { pointer, view, interactor in
        let state = TestInstance.from(pointer)
        state.recorder.record(
            HookCall(
                presenter: state.id, hook: "progress", interactor: interactor!.pointee.id,
                detail: String(interactor!.pointee.progress)))
        if state.script.callBase { return state.host.pointee.base_progress(state.context, view, interactor) }
        return PRESENTER_OK
    }

    static let render: LoadedPresenter.Hooks.Render = { pointer, view, now in
        let state = TestInstance.from(pointer)
        state.recorder.enter()
        defer { state.recorder.leave() }
        state.recorder.record(HookCall(presenter: state.id, hook: "render"), renderAt: now)
        if !state.shown.isEmpty {
            if let text = state.script.text { _ = state.host.pointee.draw_text(view, 0, 0, UInt32.max, text, 0) }
            if let cycle = state.script.cycle {
                let texts: [UnsafePointer<CChar>?] = cycle.map { UnsafePointer(strdup($0)) }
                defer { texts.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
                for _ in 0..<state.script.cycleCopies {
                    _ = state.host.pointee.draw_cycle(
                        view, 0, 0, UInt32.max, texts, UInt32(cycle.count), 0, state.script.cycleInterval, 0)
                }
            }
            if let every = state.script.animateEvery {
                state.host.pointee.request_frame(state.context, every == 0 ? 0 : now + every)
            }
        }
        if state.script.callBase { state.host.pointee.base_render(state.context, view, now) }
    }

    static let key: LoadedPresenter.Hooks.Key = { pointer, view, code in
        let state = TestInstance.from(pointer)
        state.recorder.record(HookCall(presenter: state.id, hook: "key", detail: String(code)))
        if state.script.callBase && state.host.pointee.base_key(state.context, view, code) != 0 { return 1 }
        guard state.script.consumesKeys else { return 0 }
        if state.script.holdsFailures { state.shown.removeAll() }
        return 1
    }
}
