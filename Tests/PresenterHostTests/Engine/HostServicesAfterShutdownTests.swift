import Foundation
import PresenterHost
import PresenterHostTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A plugin that keeps its context and calls host services with it from a
/// thread of its own, after the runtime shut down and freed the instance
/// behind it: the services look the pointer up before they read anything
/// behind it, so the calls are ignored and nothing freed is read.
@Suite("Host services called after shutdown")
struct HostServicesAfterShutdownTests {
    @Test func aPluginThreadCallingAfterShutdownReadsNoFreedMemory() throws {
        // Its own process: a read of freed memory would kill it, and the
        // allocator fills freed memory at once (MALLOC_PERTURB_), so such a
        // read goes visibly wrong.
        guard ChildTest.isChild else {
            let done = FileManager.default.temporaryDirectory.appendingPathComponent("thread-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: done) }
            return try ChildTest.run(
                Self.self,
                environment: [
                    "MALLOC_PERTURB_": "165", "FIXTURE_MISBEHAVE": "thread:show", "FIXTURE_THREAD_DONE": done.path,
                ])
        }
        let done = try #require(ProcessInfo.processInfo.environment["FIXTURE_THREAD_DONE"])
        let plugins = try FixtureBuilder.directory([.misbehaving])

        weak var gone: PresenterRuntime?
        do {
            let registry = RegistryPipeline().load([SearchPathEntry(path: plugins.path, origin: .flag)])
            let runtime = PresenterRuntime(
                registry: registry, backend: TestBackend(), clock: ManualClock(), isolation: .inProcess)
            gone = runtime
            let screenlet = try runtime.attach(
                TestView(presenter: "fixture.misbehaving", messages: ["a": [.working: "Working"]]))
            // show starts the thread (jobs run in order, so before the
            // shutdown's), then the shutdown destroys and frees the instance.
            _ = screenlet.perform(action: "a", interactorType: "Test")
            runtime.shutdown()
        }
        #expect(gone == nil, "the runtime (and with it the engine and its instances) is freed")
        // The thread goes on calling with the freed context for about a second.
        #expect(waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: done) })
    }
}
