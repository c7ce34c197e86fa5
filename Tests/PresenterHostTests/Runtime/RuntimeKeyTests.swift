import PresenterABI
import PresenterHost
import Testing
import PresenterHostTesting

/// Who gets a key (`PresenterRuntime.key`): the view, and its presenter
/// first only while a failure it shows waits for one, for one key, never
/// Esc, in an interactive view. A presenter cannot keep the user in a
/// screen, nor read what is typed into it.
@Suite("Runtime: keys are the view's")
struct RuntimeKeyTests {
    let failure = InteractorError(code: 1, domain: "test", message: "no")

    /// A presenter that draws "HUD" while an interactor is shown, and after
    /// a failure until it uses a key.
    static func holding(usesKeys: Bool = true) -> PresenterScript {
        PresenterScript(text: "HUD", consumesKeys: usesKeys, holdsFailures: true)
    }

    /// The codes the presenters' key hooks got, in order.
    static func presenterKeys(_ recorder: Recorder) -> [String] {
        recorder.calls.filter { $0.hook == "key" }.map { $0.detail ?? "" }
    }

    /// A runtime over one "p" presenter with `script`, its view attached.
    struct Setup {
        let recorder: Recorder
        let backend: TestBackend
        let runtime: PresenterRuntime
        let view: TestView
        let screenlet: Screenlet

        init(_ script: PresenterScript, flags: ViewFlags = [.unicode, .animated, .interactive]) throws {
            recorder = Recorder(["p": script])
            backend = TestBackend(flags: flags)
            runtime = recorder.runtime(backend: backend)
            view = TestView(
                presenter: "p", messages: [ScreenletView.defaultAction: [.working: "W", .success: "S", .failure: "F"]])
            screenlet = try runtime.attach(view)
        }

        func perform() -> InteractorHandle {
            let handle = screenlet.perform(action: "a", interactorType: "T")
            runtime.sync {}
            return handle
        }

        /// The first row of the screen once the keys and jobs before are handled.
        var firstRow: String { runtime.sync { backend.lines[0] } }
    }

    @Test("with nothing shown, while work runs and after a success, every key is the view's")
    func keysAreTheViews() throws {
        let setup = try Setup(Self.holding())
        setup.runtime.key(97)
        let handle = setup.perform()
        #expect(setup.firstRow == "HUD")
        setup.runtime.key(98)
        handle.succeed()
        setup.runtime.sync {}
        setup.runtime.key(99)
        setup.runtime.shutdown()
        #expect(setup.view.keys == [97, 98, 99])
        #expect(Self.presenterKeys(setup.recorder) == [])
    }

    @Test("a failure the presenter shows gets the next key but Esc, and only that one")
    func oneKeyForAFailure() throws {
        let setup = try Setup(Self.holding())
        setup.perform().fail(failure)
        #expect(setup.firstRow == "HUD", "the failure waits for a key")
        setup.runtime.key(PRESENTER_KEY_ESCAPE)
        #expect(setup.firstRow == "HUD", "Esc went to the presenter")
        setup.runtime.key(13)
        #expect(setup.firstRow == "", "the key that dismissed the failure")
        setup.runtime.key(120)
        setup.runtime.shutdown()
        #expect(setup.view.keys == [PRESENTER_KEY_ESCAPE, 120], "the used key did something else too")
        #expect(Self.presenterKeys(setup.recorder) == ["13"])
    }

    @Test("a key the presenter does not use goes to the view, and it was the presenter's only one")
    func aDeclinedKey() throws {
        let setup = try Setup(Self.holding(usesKeys: false))
        setup.perform().fail(failure)
        #expect(setup.firstRow == "HUD")
        setup.runtime.key(13)
        setup.runtime.key(14)
        setup.runtime.sync {}
        setup.runtime.shutdown()
        #expect(setup.view.keys == [13, 14])
        #expect(Self.presenterKeys(setup.recorder) == ["13"])
    }

    @Test("a failure while other work runs, one drawn over by new work, or one that draws nothing gets no key")
    func failuresThatTakeNoKey() throws {
        // Another interactor still shown: its work goes on, and so does typing.
        let running = try Setup(Self.holding())
        let (first, second) = (running.perform(), running.perform())
        first.fail(failure)
        running.runtime.key(1)
        // The last one fails, then new work starts: the failure is no longer what shows.
        second.fail(failure)
        let fresh = running.perform()
        running.runtime.key(2)
        fresh.succeed()
        running.runtime.sync {}
        running.runtime.key(3)
        running.perform().fail(failure)
        running.runtime.sync {}
        running.runtime.key(4)
        running.runtime.shutdown()
        #expect(running.view.keys == [1, 2, 3])
        #expect(Self.presenterKeys(running.recorder) == ["4"])

        // A presenter whose render draws nothing after the failure shows nothing that takes a key.
        let blank = try Setup(PresenterScript(consumesKeys: true, holdsFailures: true))
        blank.perform().fail(failure)
        blank.runtime.sync {}
        blank.runtime.key(5)
        blank.runtime.shutdown()
        #expect(blank.view.keys == [5])
        #expect(Self.presenterKeys(blank.recorder) == [])
    }

    @Test("in a view without keys (not interactive) the presenter gets none")
    func notInteractive() throws {
        let setup = try Setup(Self.holding(), flags: [.unicode, .animated])
        setup.perform().fail(failure)
        #expect(setup.firstRow == "HUD")
        setup.runtime.key(13)
        setup.runtime.shutdown()
        #expect(setup.view.keys == [13])
        #expect(Self.presenterKeys(setup.recorder) == [])
    }
}
