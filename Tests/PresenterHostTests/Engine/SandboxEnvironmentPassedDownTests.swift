import Foundation
import Testing
@testable import HostEngine
@testable import HostPlugins
@testable import HostSandbox

/// The environment is read once, by the command line, and passed down as a
/// value (issue 32): a process that runs plugin code gets what its sandbox
/// passes of the value it was given, never of the environment of the
/// process that starts it. `scripts/layers` keeps every other module from
/// reading the environment itself (LayeringTests).
@Suite("The sandbox: a process that runs plugin code gets the environment passed down")
struct SandboxEnvironmentPassedDownTests {
    /// A presenter process started with a value for the host's
    /// environment has exactly what its sandbox passes of that value, and
    /// nothing of this process's (whose locale, TERM or LD_LIBRARY_PATH the
    /// sandbox would pass too).
    @Test func thePresenterProcessGetsTheValueNotThisProcesssEnvironment() throws {
        var configuration = PresenterProcessConfiguration(executable: TestPaths.binary.path)
        configuration.hostEnvironment = [
            "LANG": "xx_YY.UTF-8", "INTRUDER_PASSED_TOKEN": "from-the-value", "GITHUB_TOKEN": "never",
        ]
        let launch = PresenterProcessLaunch(configuration)
        let pid = try #require(launch.pid)
        // It waits for its configuration: its environment is the one it was
        // started with, once it has exec'd (the launch only forks) and handed
        // over to presenter-host-plugins.
        #expect(
            waitUntil {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))?.hasSuffix(
                    "presenter-host-plugins") == true
            })
        let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
        let entries = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(
            entries.filter { !$0.hasPrefix("PRESENTER_HOST_NAMESPACES=") }
                == ["INTRUDER_PASSED_TOKEN=from-the-value", "LANG=xx_YY.UTF-8", "SWIFT_BACKTRACE=enable=no"],
            "\(entries)")
        #expect(entries.contains { $0.hasPrefix("PRESENTER_HOST_NAMESPACES=") }, "\(entries)")
    }

    /// `--trace` is a variable of the value the command line passes down,
    /// not a write to its own environment: `run`'s command gets it (as
    /// every process the host starts), and the user's other variables as
    /// they are; without `--trace`, the command has none.
    @Test func traceReachesTheCommandThroughTheValuePassedDown() throws {
        let command = ["sh", "-c", "printf '%s|%s' \"${PRESENTER_HOST_DEBUG-unset}\" \"$MINE\""]
        let traced = try ProcessRunner.host(
            ["--trace", "run", "--"] + command, environment: ["CI": "true", "MINE": "kept as it is"])
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(traced.stdout == "1|kept as it is")
        let plain = try ProcessRunner.host(["run", "--"] + command, environment: ["CI": "true", "MINE": "x"])
        #expect(plain.stdout == "unset|x", "\(plain.stderr)")
    }

    /// The scan helper's sandbox reads the environment it was started
    /// with: a test switch in the value given to the scanner turns a layer
    /// off there, though this process has no such variable.
    @Test func theScanHelperEntersItsSandboxByTheValueItWasGiven() throws {
        #expect(ProcessInfo.processInfo.environment[PluginConfinement.offVariable] == nil)
        let off = PluginScanner(
            executable: TestPaths.binary.path, timeout: 10, environment: [PluginConfinement.offVariable: "landlock"])
        let report = try #require(off.probe())
        #expect(report.entry(.landlock).state == .off, "\(report.lines)")
        let plain = PluginScanner(executable: TestPaths.binary.path, timeout: 10, environment: [:])
        let plainReport = try #require(plain.probe())
        #expect(plainReport.entry(.landlock).state != .off, "\(plainReport.lines)")
    }
}
