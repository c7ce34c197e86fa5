import Foundation
import HostText
import PresenterABI
@testable import HostPlugins
@testable import HostEngine
@testable import HostRuntime
import SystemShims
import Testing
import PresenterHostTesting

/// The runtime with its presenters in a presenter process: the built binary
/// running the misbehaving fixture for the hooks `run` cannot reach
/// (progress, key), and a stand-in process that breaks the protocol in
/// every way the host must catch (Fixtures/sandbox/fake_presenter_process.py).
@Suite("The sandbox: the presenter process under the runtime")
struct SandboxRuntimeTests {
    static let fake = TestPaths.packageRoot.appendingPathComponent(
        "Tests/PresenterHostTests/Fixtures/sandbox/fake_presenter_process.py")

    /// A runtime over the misbehaving fixture in a presenter process, with
    /// one interactive view attached and the failures it reports kept.
    // Safe: every stored property is a `let` of a Sendable type or the runtime's own @unchecked types.
    final class Harness: @unchecked Sendable {
        let runtime: PresenterRuntime
        let backend = TestBackend(cols: 40, rows: 5, flags: [.unicode, .animated, .interactive])
        let screenlet: Screenlet
        let pidFile = TestPaths.temporaryDirectory("sandbox-runtime").appendingPathComponent("pid").path
        private let record = LockedBox(Record())
        var failures: [PresenterFailure] { record.value.failures }
        var log: [PresenterLogEntry] { record.value.log }

        /// What the runtime reported, from its threads.
        private struct Record {
            var failures: [PresenterFailure] = []
            var log: [PresenterLogEntry] = []
        }

        init(
            executable: String = TestPaths.binary.path, environment: [String: String], hookTimeout: Double = 5,
            handlesFailures: Bool = true
        ) throws {
            let plugins = try FixtureBuilder.directory([.misbehaving])
            let registry = RegistryPipeline().load([SearchPathEntry(path: plugins.path, origin: .flag)])
            let configuration = PresenterProcessConfiguration(
                executable: executable, hookTimeout: hookTimeout,
                environment: environment.merging(["FIXTURE_LOG_PID": "1", "FAKE_PIDFILE": pidFile]) { $1 })
            let record = self.record
            runtime = PresenterRuntime(
                registry: registry, backend: backend, clock: ManualClock(), isolation: .presenterProcess(configuration),
                log: { entry in record.mutate { $0.log.append(entry) } },
                onPresenterFailure: handlesFailures
                    ? { failure, backend in
                        record.mutate { $0.failures.append(failure) }
                        return backend
                    } : nil)
            // Safe: no mutable state of its own; ScreenletView's contract (set up before attaching) covers the rest.
            final class View: ScreenletView, @unchecked Sendable {
                override func createProgressPresenter() -> String { "fixture.misbehaving" }
            }
            screenlet = try runtime.attach(
                View(
                    progressMessages: ["a": [.working: "Working", .success: "Done"]],
                    elements: ["get-title-button": ViewElement()]))
        }

        /// Ends the work and lets the frames already asked for (at most 100 ms ahead) come.
        func settle(_ action: InteractorHandle) -> Bool {
            action.succeed()
            runtime.advance(by: 0.2)
            return runtime.waitUntilSettled(timeout: 5)
        }

        /// The presenter process (or the stand-in) has ended. The fixture
        /// logs its pid (its process may write no file); the stand-in,
        /// which confines nothing, writes it to `pidFile`.
        func processHasEnded() throws -> Bool {
            let logged = log.lazy.compactMap { $0.message.hasPrefix("pid ") ? String($0.message.dropFirst(4)) : nil }
            let text =
                try logged.first
                ?? String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let pid = try #require(pid_t(text))
            let pidfd = ph_pidfd_open(pid)
            guard pidfd >= 0 else { return errno == ESRCH }
            defer { close(pidfd) }
            var waiter = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            return poll(&waiter, 1, 2000) == 1
        }
    }

    @Test(arguments: [Hook.progress, .key])
    func aCrashInAHookRunCannotReachTakesThePresenterOffAndTheViewGoesOn(hook: Hook) throws {
        let harness = try Harness(environment: ["FIXTURE_MISBEHAVE": "crash:\(hook.rawValue)"])
        defer { harness.runtime.shutdown() }
        let action = harness.screenlet.perform(action: "a", interactorType: "T")
        #expect(harness.runtime.sync { harness.backend.lines[2] }.contains("Working"))
        if hook == .progress {
            action.reportProgress(0.5)
        } else {
            // A key is offered to the presenter only while a failure it shows
            // waits for one (the fixture holds one in an interactive view).
            action.fail(InteractorError(code: 1, domain: "test", message: "no"))
            harness.runtime.sync {}
            harness.runtime.key(13)
        }
        harness.runtime.advance(by: 0.1)
        #expect(
            harness.failures == [
                PresenterFailure(
                    presenterId: "fixture.misbehaving", hook: hook,
                    reason: .crashed(signal: SIGSEGV))
            ])
        #expect(harness.runtime.sync { harness.backend.canvas.isBlank })
        #expect(try harness.processHasEnded())
        // Nothing more is asked of the presenter; the work goes on.
        #expect(harness.settle(action))
        #expect(harness.failures.count == 1)
    }

    @Test func aFailureWithoutAHandlerIsLoggedAndTheViewGoesOnWithoutItsPresenter() throws {
        let harness = try Harness(environment: ["FIXTURE_MISBEHAVE": "exit:show"], handlesFailures: false)
        defer { harness.runtime.shutdown() }
        #expect(harness.settle(harness.screenlet.perform(action: "a", interactorType: "T")))
        #expect(
            harness.log.contains(
                PresenterLogEntry(
                    level: .error, presenterId: "fixture.misbehaving",
                    message: "presenter 'fixture.misbehaving' ended its process in show (exit status 3)")))
        #expect(try harness.processHasEnded())
    }

    @Test func aFailedCreateIsReportedByTheNextCallNotByAttach() throws {
        // attach does not wait for the process to start; the create's result comes with the next reply.
        let harness = try Harness(environment: ["FIXTURE_MISBEHAVE": "fail:create"])
        defer { harness.runtime.shutdown() }
        #expect(harness.failures.isEmpty)
        #expect(harness.settle(harness.screenlet.perform(action: "a", interactorType: "T")))
        #expect(
            harness.failures == [
                PresenterFailure(
                    presenterId: "fixture.misbehaving", hook: .create,
                    reason: .createFailed(
                        status: PRESENTER_ERR_FAILED,
                        message: "refusing on purpose"))
            ])
        #expect(try harness.processHasEnded())
    }

    @Test func aHookThatFailsWithAStatusIsLoggedAndThePresenterStays() throws {
        let harness = try Harness(environment: ["FIXTURE_MISBEHAVE": "fail:show"])
        defer { harness.runtime.shutdown() }
        let action = harness.screenlet.perform(action: "a", interactorType: "T")
        #expect(harness.runtime.sync { harness.backend.lines[2] }.contains("Working"))
        #expect(harness.settle(action))
        #expect(harness.failures.isEmpty)
        #expect(
            harness.log.contains(
                PresenterLogEntry(
                    level: .error, presenterId: "fixture.misbehaving",
                    message: "show failed (status 1): refusing on purpose")))
        #expect(
            harness.log.contains(
                PresenterLogEntry(
                    level: .info, presenterId: "fixture.misbehaving",
                    message: "showing Working")))
    }

    @Test func aHookPastItsBudgetEndsThePresenter() throws {
        let harness = try Harness(environment: ["FIXTURE_MISBEHAVE": "hang:key"], hookTimeout: 0.25)
        defer { harness.runtime.shutdown() }
        // A failure the presenter holds until a key: the key goes to it.
        harness.screenlet.perform(action: "a", interactorType: "T").fail(
            InteractorError(code: 1, domain: "test", message: "no"))
        harness.runtime.sync {}
        harness.runtime.key(13)
        harness.runtime.sync {}
        #expect(
            harness.failures == [
                PresenterFailure(
                    presenterId: "fixture.misbehaving", hook: .key,
                    reason: .hung(milliseconds: 250))
            ])
        #expect(try harness.processHasEnded())
    }

    /// A way the stand-in breaks the protocol, and what the host says.
    struct Violation: CustomTestStringConvertible, Sendable {
        let scenario: String
        let hook: Hook?
        let reason: PresenterFailure.Reason
        var testDescription: String { scenario }
    }

    static let violations: [Violation] = [
        Violation(
            scenario: "garbage-on-render", hook: .render,
            reason: .protocolViolation(.malformedMessage("an unknown message"))),
        Violation(
            scenario: "oversized-on-render", hook: .render,
            reason: .protocolViolation(.malformedMessage("a message of 2097152 bytes, more than the 1048576 allowed"))),
        Violation(
            scenario: "too-many-on-render", hook: .render,
            reason: .protocolViolation(.tooManyDrawOperations(count: 5000, limit: 4096))),
        Violation(
            scenario: "element-on-render", hook: .render,
            reason: .protocolViolation(.elementOutsideHook(view: 999))),
        Violation(
            scenario: "unknown-view-on-show", hook: .show,
            reason: .protocolViolation(.frameForUnknownView(999))),
        Violation(
            scenario: "trailing-bytes-on-show", hook: .show,
            reason: .protocolViolation(.malformedMessage("5 bytes after the end of a message"))),
        Violation(
            scenario: "bad-hello", hook: .start,
            reason: .protocolViolation(.otherProtocolVersion(99, host: PresenterMessage.version))),
        Violation(scenario: "no-hello", hook: .start, reason: .protocolViolation(.noHelloFirst)),
        Violation(
            scenario: "close-channel", hook: .load, reason: .protocolViolation(.closedConnection)),
        // Its words reach the user's terminal: never an escape sequence.
        Violation(
            scenario: "evil-create-failed", hook: .create,
            reason: .protocolViolation(.unknownPresenter)),
        // A load is answered with the handles the host numbered, or refused for what it asked.
        Violation(
            scenario: "wrong-handles-on-load", hook: .load,
            reason: .protocolViolation(.wrongAnswer(to: .load, expected: .handles))),
        Violation(
            scenario: "unasked-refusal-on-load", hook: .load,
            reason: .protocolViolation(.wrongAnswer(to: .load, expected: .handles))),
        // The loader's words with escapes in them are not the loader's: the refusal is no message.
        Violation(
            scenario: "evil-refused", hook: .load,
            reason: .protocolViolation(
                .malformedMessage(
                    "a refusal that is not the loader's (a refusal holding a control or bidirectional formatting character)"
                ))),
    ]

    @Test(arguments: violations)
    func aProtocolViolationIsTreatedAsACrash(_ violation: Violation) throws {
        let harness = try Harness(executable: Self.fake.path, environment: ["FAKE_SCENARIO": violation.scenario])
        defer { harness.runtime.shutdown() }
        _ = harness.screenlet.perform(action: "a", interactorType: "T")
        harness.runtime.sync {}
        #expect(
            harness.failures == [
                PresenterFailure(
                    presenterId: "fixture.misbehaving", hook: violation.hook,
                    reason: violation.reason)
            ])
        #expect(try harness.processHasEnded())
        #expect(harness.runtime.sync { harness.backend.canvas.isBlank })
    }

    @Test func aReplyOutOfOrderIsTreatedAsACrash() throws {
        for scenario in ["wrong-sequence-on-show", "duplicate-reply-on-show"] {
            let harness = try Harness(executable: Self.fake.path, environment: ["FAKE_SCENARIO": scenario])
            defer { harness.runtime.shutdown() }
            _ = harness.screenlet.perform(action: "a", interactorType: "T")
            harness.runtime.sync {}
            harness.runtime.advance(by: 1)
            let failure = try #require(harness.failures.first)
            guard case .protocolViolation(let detail) = failure.reason else {
                Issue.record("\(scenario): \(failure)")
                continue
            }
            // Read with the next request, or before it is sent: out of turn either way.
            switch detail {
            case .replyOutOfTurn, .spokeUnasked: break
            default: Issue.record("\(scenario): \(detail)")
            }
            #expect(try harness.processHasEnded())
        }
    }

    @Test func aDrawingPastWhatTheHostPaintsIsCutWhereItArrivesAndSaidOnce() throws {
        // Its own engine would have cut the drawing already; a process that
        // sends more anyway is cut by the host, at each render (two here), and goes on.
        let harness = try Harness(executable: Self.fake.path, environment: ["FAKE_SCENARIO": "paints-without-end"])
        defer { harness.runtime.shutdown() }
        _ = harness.screenlet.perform(action: "a", interactorType: "T")
        harness.runtime.sync {}
        _ = harness.screenlet.perform(action: "a", interactorType: "T")
        #expect(harness.runtime.sync { harness.backend.lines.first } == "╭──────────────────────────────────────╮")
        // The view is 40 × 5: 1,024 cells a render, five of its 200-cell boxes.
        let note =
            "dropped: a render drew more than the host paints in one on the 40x5 view (1024 cells): the host "
            + "dropped the last 4091 of its 4096 drawings, and drops the rest of every such render"
        #expect(harness.log.filter { $0.message.hasPrefix("dropped: ") }.map(\.message) == [note])
        #expect(harness.failures.isEmpty)
    }

    @Test func aPresenterThatCannotBeStartedIsAFailureToo() throws {
        let harness = try Harness(executable: "/nonexistent/presenter-host", environment: [:])
        defer { harness.runtime.shutdown() }
        _ = harness.screenlet.perform(action: "a", interactorType: "T")
        harness.runtime.sync {}
        #expect(
            harness.failures.map(\.description) == [
                "presenter 'fixture.misbehaving' could not be started: cannot run /nonexistent/presenter-host: No such file or directory"
            ])
    }
}
