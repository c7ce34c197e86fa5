import Foundation
import PresenterHost
import Testing
import PresenterHostTesting

// The README's "Using the library" example, run for real: the same view and
// the same calls, with a TestBackend and a manual clock instead of stderr.

/// The README's view: the Add Bookmark screen's messages, the default presenter.
// Safe: no mutable state of its own; ScreenletView's contract (set up before attaching) covers the rest.
private final class AddBookmarkView: ScreenletView, @unchecked Sendable {
    init() {
        super.init(progressMessages: [
            "add-bookmark": [
                .working: "Saving bookmark...", .success: "Bookmark saved!",
                .failure: "An error occurred saving the bookmark",
            ],
            "get-title": [.working: NoProgressMessage],
        ])
    }
    override func createProgressPresenter() -> String { "mbhud" }
}

@Suite("The README's library example")
struct LibraryExampleTests {
    @Test("a validation failure shows its own text; a success shows the success message, then nothing")
    func readmeExample() throws {
        let registry = RegistryPipeline().load([SearchPathEntry(path: TestPaths.products.path, origin: .flag)])
        let backend = TestBackend(cols: 40, rows: 5)
        let runtime = PresenterRuntime(
            registry: registry, backend: backend, clock: ManualClock(), isolation: .inProcess)
        defer { runtime.shutdown() }
        let screenlet = try runtime.attach(AddBookmarkView())

        let save = screenlet.perform(action: "add-bookmark", interactorType: "AddBookmarkInteractor")
        #expect(runtime.sync { backend.lines }.contains { $0.contains("Saving bookmark...") })
        // Finishing on another thread is fine: the presenter hears of it on its own.
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            save.fail(.validation("URL cannot be empty")); done.signal()
        }
        done.wait()
        runtime.advance(by: 0.6)
        #expect(runtime.sync { backend.lines }.contains { $0.contains("URL cannot be empty") })
        runtime.advance(by: 3.5)

        screenlet.perform(action: "add-bookmark", interactorType: "AddBookmarkInteractor").succeed()
        runtime.advance(by: 0.6)
        #expect(runtime.sync { backend.lines }.contains { $0.contains("✔ Bookmark saved!") })
        runtime.advance(by: 2)
        #expect(runtime.waitUntilSettled(timeout: 5))
        #expect(runtime.sync { backend.canvas.isBlank })
    }

    @Test("the README shows this example")
    func readmeHasIt() throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for line in [
            "final class AddBookmarkView: ScreenletView {",
            "let registry = RegistryPipeline(scanner: nil).load(searchPath)",
            "let runtime = PresenterRuntime(registry: registry, backend: BackendFactory.make(), isolation: .inProcess)",
            "let screenlet = try runtime.attach(AddBookmarkView())",
            "save.fail(.validation(\"URL cannot be empty\"))",
        ] {
            #expect(readme.contains(line))
        }
    }
}
