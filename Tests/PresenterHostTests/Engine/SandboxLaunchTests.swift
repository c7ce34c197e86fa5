import Foundation
import PresenterABI
@testable import HostSystem
@testable import HostPlugins
@testable import HostEngine
@testable import HostRuntime
import PresenterHostTesting
import SystemShims
import Testing

/// `run` starts its presenter process as soon as its arguments are parsed
/// (``PresenterProcessLaunch``), and its runtime's engine takes that process
/// instead of starting one.
@Suite("The sandbox: a presenter process started ahead")
struct SandboxLaunchTests {
    // Safe: no mutable state of its own; ScreenletView's contract (set up before attaching) covers the rest.
    final class View: ScreenletView, @unchecked Sendable {
        override func createProgressPresenter() -> String { "fixture.misbehaving" }
    }

    @Test func aRuntimeGivenALaunchRunsItsPresenterInTheLaunchedProcess() throws {
        var configuration = PresenterProcessConfiguration(
            executable: TestPaths.binary.path, hookTimeout: 5, environment: ["FIXTURE_LOG_PID": "1"])
        let launch = PresenterProcessLaunch(configuration)
        let launched = try #require(launch.pid)
        configuration.launch = launch
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let registry = RegistryPipeline().load([SearchPathEntry(path: plugins.path, origin: .flag)])
        let backend = TestBackend(cols: 40, rows: 5)
        // The presenter says its pid in the log (its process may write no file).
        let log = LockedBox([PresenterLogEntry]())
        let runtime = PresenterRuntime(
            registry: registry, backend: backend, clock: ManualClock(), isolation: .presenterProcess(configuration),
            log: { entry in log.mutate { $0.append(entry) } })
        defer { runtime.shutdown() }
        let screenlet = try runtime.attach(View(progressMessages: ["a": [.working: "Working"]]))
        let action = screenlet.perform(action: "a", interactorType: "T")
        #expect(runtime.sync { backend.lines[2] }.contains("Working"))
        let created = log.value.compactMap { $0.message.hasPrefix("pid ") ? pid_t($0.message.dropFirst(4)) : nil }
        #expect(created == [launched], "the presenter was created in the launched process")
        #expect(launch.pid == nil, "the engine took it")
        action.succeed()
    }

    @Test func aLaunchNobodyTakesEndsItsProcessAndReapsIt() throws {
        var pid: pid_t = 0
        do {
            let launch = PresenterProcessLaunch(PresenterProcessConfiguration(executable: TestPaths.binary.path))
            pid = try #require(launch.pid)
            #expect(kill(pid, 0) == 0, "it runs (waiting for its configuration)")
        }
        // Killed and reaped when the launch went away: no process, not even
        // a zombie, has that id (unless the system gave it to another meanwhile).
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    /// A launch is taken once, and not by a configuration changed since in
    /// what the process was started with (its sandbox inputs).
    @Test func aLaunchIsTakenOnceAndOnlyForTheStartItWasMadeFor() throws {
        let plain = PresenterProcessConfiguration(executable: TestPaths.binary.path)
        let launch = PresenterProcessLaunch(plain)
        var insecure = plain
        insecure.policy = PluginPolicy(allowInsecure: true)
        #expect(launch.take(for: insecure) == nil, "another policy: another start")
        var slower = plain
        slower.hookTimeout = 2
        guard case .success(let forked)? = launch.take(for: slower) else {
            Issue.record("a budget is not part of the start")
            return
        }
        #expect(launch.take(for: plain) == nil && launch.pid == nil, "taken once")
        forked.close()
        try? forked.beginning.report.close()
        _ = ProcessExit.end(forked.beginning.pid, waitingUpTo: 0, group: true)
    }
}
