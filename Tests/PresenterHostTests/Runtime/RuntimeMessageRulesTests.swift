import PresenterHost
import Testing
import PresenterHostTesting

/// The original's message rules, seen from the presenter.
@Suite("Runtime: message rules")
struct RuntimeMessageRulesTests {
    let messages: [String: ProgressMessages] = [
        "add-bookmark": [
            .working: "Saving bookmark...", .success: "Bookmark saved!",
            .failure: "An error occurred saving the bookmark",
        ],
        "get-title": [.working: NoProgressMessage],
        "silent": [.success: "Done"],
        ScreenletView.defaultAction: [.working: "Working...", .success: "Default done", .failure: "Default failed"],
    ]

    /// Runs `action` to the end (`error` nil for success) and returns the
    /// hook calls other than create/destroy/render.
    func run(
        _ action: String, error: InteractorError? = nil,
        messages: [String: ProgressMessages]? = nil
    ) throws -> [String] {
        let recorder = Recorder(["p": PresenterScript()])
        let runtime = recorder.runtime()
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages ?? self.messages))
        let handle = screenlet.perform(action: action, interactorType: "T")
        if let error { handle.fail(error) } else { handle.succeed() }
        runtime.shutdown()
        return recorder.calls.filter { $0.hook == "show" || $0.hook == "hide" }
            .map { "\($0.hook) \($0.message.map { "\"\($0)\"" } ?? "nil")\($0.detail.map { " \($0)" } ?? "")" }
    }

    @Test("an action uses its own table")
    func ownTable() throws {
        #expect(try run("add-bookmark") == ["show \"Saving bookmark...\"", "hide \"Bookmark saved!\""])
        #expect(
            try run("add-bookmark", error: InteractorError(code: 7, domain: "http", message: "timed out"))
                == ["show \"Saving bookmark...\"", "hide \"An error occurred saving the bookmark\" http:timed out:7"])
    }

    @Test("an action without a table uses the default action's")
    func defaultTable() throws {
        #expect(try run("unknown-action") == ["show \"Working...\"", "hide \"Default done\""])
        #expect(
            try run("unknown-action", error: InteractorError(domain: "x", message: "boom"))
                == ["show \"Working...\"", "hide \"Default failed\" x:boom:0"])
    }

    @Test("the fallback is for the whole table, not per kind: no working message means no show, and no hide")
    func wholeTableFallback() throws {
        // "silent" has a table without a working message; the default's working message is not borrowed.
        #expect(try run("silent") == [])
        #expect(try run("silent", error: InteractorError(domain: "x", message: "boom")) == [])
    }

    @Test("no table at all: no show, no hide")
    func noTable() throws {
        #expect(try run("anything", messages: [:]) == [])
    }

    @Test("NoProgressMessage shows the indicator without text; a missing success message hides with NULL")
    func emptyWorkingMessage() throws {
        #expect(try run("get-title") == ["show \"\"", "hide nil"])
        #expect(
            try run("get-title", error: InteractorError(domain: "http", message: "404")) == [
                "show \"\"", "hide nil http:404:0",
            ])
    }

    @Test("a validation error's own text replaces the failure message")
    func validationError() throws {
        #expect(
            try run("add-bookmark", error: .validation("URL cannot be empty"))
                == ["show \"Saving bookmark...\"", "hide \"URL cannot be empty\" validation::0"])
        // Even where the table has no failure message.
        #expect(
            try run("get-title", error: .validation("Title cannot be empty"))
                == ["show \"\"", "hide \"Title cannot be empty\" validation::0"])
    }

    @Test("events carry the working message and what hide got; an action that is never shown gives none")
    func events() throws {
        let recorder = Recorder(["p": PresenterScript()])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        screenlet.perform(action: "add-bookmark", interactorType: "T").fail(.validation("URL cannot be empty"))
        screenlet.perform(action: "silent", interactorType: "T").succeed()
        runtime.shutdown()
        #expect(
            backend.events == [
                .started(action: "add-bookmark", message: "Saving bookmark..."),
                .finished(
                    action: "add-bookmark", message: "URL cannot be empty", error: .validation("URL cannot be empty")),
            ])
        #expect(backend.isFinished)
    }
}
