import HostPlugins
import PresenterHostTesting
import Testing
@testable import HostRuntime
@testable import HostCommandLine

@Suite("run: the view's messages")
struct RunViewTests {
    private func options(_ arguments: [String]) throws -> RunOptions {
        guard case .run(let options) = try PresenterHostCommand.parse(["run"] + arguments) else {
            throw CommandError.usage("help")
        }
        return options
    }

    @Test func noMessageFlagsShowTheCommandLineOnly() throws {
        let view = RunView(options: try options(["--", "make", "-C", "my dir"]), file: nil)
        #expect(view.progressMessages == ["run": [.working: "make -C 'my dir'"]])
    }

    @Test func flagsFillTheActionsTable() throws {
        let view = RunView(
            options: try options([
                "--presenter", "netactivity", "--action", "build",
                "--success", "Built", "--failure", "", "--", "make",
            ]), file: nil)
        #expect(view.progressMessages == ["build": [.working: "make", .success: "Built", .failure: ""]])
    }

    @Test func aFileIsUsedAsWritten() throws {
        let file = MessagesFile(actions: ["default": .init(working: "W", failure: "F"), "x": .init(success: "S")])
        let view = RunView(options: try options(["--messages", "m.json", "--", "true"]), file: file)
        #expect(view.progressMessages == ["default": [.working: "W", .failure: "F"], "x": [.success: "S"]])
    }

    /// The view keeps its screenlet to ask for frames (`--output tail`), and
    /// the screenlet keeps the view: the view's reference must not keep the
    /// runtime alive (LeakSanitizer found the cycle in every `run`).
    @Test func theViewDoesNotKeepItsRuntimeAlive() throws {
        weak var gone: PresenterRuntime?
        do {
            let recorder = Recorder(["p": PresenterScript()])
            let runtime = recorder.runtime()
            gone = runtime
            let view = RunView(
                options: try options(["--presenter", "p", "--output", "tail=2", "--", "true"]), file: nil)
            view.attached(to: try runtime.attach(view, presenter: try recorder.registry.resolve("p")))
            runtime.shutdown()
        }
        #expect(gone == nil, "the runtime outlived its shutdown and every reference to it")
    }

    /// A line redrawn a thousand times between two frames (a tqdm at 10,000
    /// updates a second) costs no frame of its own: the first change asks
    /// for one, the later ones wait for the next the frame cap allows,
    /// which shows the latest state.
    @Test func aLiveLineRedrawnOftenCostsAFrameAFrameInterval() throws {
        let recorder = Recorder(["p": PresenterScript()])
        let backend = TestBackend()
        let runtime = recorder.runtime(backend: backend)
        defer { runtime.shutdown() }
        let view = RunView(options: try options(["--presenter", "p", "--output", "tail=2", "--", "true"]), file: nil)
        view.attached(to: try runtime.attach(view, presenter: try recorder.registry.resolve("p")))
        runtime.sync {}
        let before = backend.frameCount
        for step in 1...1000 { view.show([], live: Array("\(step)%".utf8)) }
        runtime.sync {}
        #expect(backend.frameCount - before == 1, "\(backend.frameCount - before) frames for 1,000 states")
        runtime.advance(by: 0.05)
        #expect(backend.frameCount - before == 2)
        #expect(backend.lines.contains("1000%"), "\(backend.lines)")
        // A newline ends it: at once (no time passes), the row shows the
        // line's last state as a whole line.
        view.show(["1000% done"], live: [])
        runtime.sync {}
        #expect(backend.lines.contains("1000% done") && !backend.lines.contains("1000%"), "\(backend.lines)")
    }
}
