import Foundation
import HostEngine
import HostPlugins
import PresenterABI
import PresenterHost
import PresenterHostTesting

/// A presenter whose show hook calls host services and reports what they
/// returned: the real runtime and host services, with no plugin file, for a
/// service's answer inside a hook.
enum ShowProbe {
    typealias Body = @Sendable (presenter_host, OpaquePointer?) -> [Int]

    // Safe: set and read under `lock`'s turn: `run` holds it from setting `body` to reading `results`.
    nonisolated(unsafe) private static var body: Body = { _, _ in [] }
    // Safe: written by the show hook and read in `runtime.sync`, both on the runtime's thread, under `lock`'s turn.
    nonisolated(unsafe) private static var results: [Int] = []
    private static let lock = NSLock()

    /// Runs `body` inside the show hook of a one-action view with
    /// `elements`, and returns what it returned.
    static func run(elements: [String: ViewElement] = [:], _ body: @escaping Body) throws -> [Int] {
        try lock.withLock {
            Self.body = body
            Self.results = []
            let hooks = LoadedPresenter.Hooks(
                create: { _, host, _, instance in
                    instance!.pointee = UnsafeMutableRawPointer(mutating: host!)
                    return PRESENTER_OK
                },
                show: { state, view, _, _ in
                    ShowProbe.results = ShowProbe.body(
                        state!.assumingMemoryBound(to: presenter_host.self).pointee, view)
                    return PRESENTER_OK
                })
            let probe = LoadedPresenter(
                PresenterPlugin(
                    id: "probe", name: "probe", version: "1", description: nil, author: nil, license: nil,
                    extends: nil, capabilities: [], abiVersion: .host, file: "<test>", hookNames: hooks.presentNames,
                    source: .loaded),
                hooks: hooks)
            let runtime = PresenterRuntime(
                registry: PresenterRegistry(plugins: [probe.plugin]), backend: TestBackend(), clock: ManualClock(),
                isolation: .inProcess, tracing: EngineNote.tracingEnabled(), loader: .built([probe]))
            // Safe: no mutable state of its own; ScreenletView's contract (set up before attaching) covers the rest.
            final class ProbeView: ScreenletView, @unchecked Sendable {
                override func createProgressPresenter() -> String { "probe" }
            }
            let view = ProbeView(progressMessages: ["a": [.working: ""]], elements: elements)
            let screenlet = try runtime.attach(view)
            screenlet.perform(action: "a", interactorType: "T").succeed()
            let results = runtime.sync { Self.results }
            runtime.shutdown()
            return results
        }
    }
}
