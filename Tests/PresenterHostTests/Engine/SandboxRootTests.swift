import Foundation
import Glibc
import Testing
@testable import HostPlugins

/// Paths outside what loading needs are not even stat-able (issue 30): a
/// process that runs plugin code lives in a root of its own (a mount
/// namespace, a tmpfs with read-only binds of the library folders and its
/// own /proc/PID/fd), so /etc/shadow's size and mode, the user's files,
/// /proc/self/mountinfo and /proc/net are not there at all, where Landlock
/// alone only refuses to read them. Through the real binary, with the
/// intruder fixture; and the presenters that must load still load and draw.
@Suite("The sandbox: a root of its own")
struct SandboxRootTests {
    /// An attempt of intruder.c and what it logs with every layer, after
    /// "attempted ATTACK: " (`home`: the trial's HOME).
    static func withEveryLayer(_ attack: String, home: String) -> String {
        switch attack {
        case "stat-shadow":
            "/etc/shadow: No such file or directory; \(home)/secret: No such file or directory"
        case "mountinfo": "/proc/self/mountinfo: No such file or directory"
        default: "/proc/net/dev: No such file or directory"
        }
    }

    /// The same with the namespaces layer off (PRESENTER_HOST_SANDBOX_OFF),
    /// so in the host's root under Landlock: what the root takes away, as a
    /// pattern of the log line.
    static func withoutNamespaces(_ attack: String, home: String) -> String {
        switch attack {
        case "stat-shadow":
            let shadow =
                FileManager.default.fileExists(atPath: "/etc/shadow") ? "/etc/shadow: [0-9]+ bytes, mode [0-7]+" : ".*"
            return "\(shadow); \(NSRegularExpression.escapedPattern(for: home))/secret: [0-9]+ bytes, mode 600"
        case "mountinfo": return "/proc/self/mountinfo: read [1-9][0-9]* bytes"
        default: return "/proc/net/dev: read [1-9][0-9]* bytes"
        }
    }

    static let everyLayerInForce = SandboxLeastPrivilegeTests.everyLayerInForce

    @Test(
        .enabled(if: everyLayerInForce, "the root needs a mount namespace: see --sandbox-info"),
        arguments: ["stat-shadow", "mountinfo", "proc-net"])
    func aPresenterFindsNothingOutsideItsRoot(_ attack: String) throws {
        let trial = try IntruderTrial()
        // In a terminal, where `run` runs its presenter: it goes on, and
        // its outcome stays.
        let run = try trial.run(
            trial.runArguments, environment: trial.environment(attack, when: .show), inTerminal: true)
        #expect(run.status == 3, "\(run.screen)")
        #expect(run.stdout == IntruderTrial.commandStdout)
        #expect(run.screen == ["✖ Failed: exit status 3"], "\(run.screen)")
        let expected =
            "fixture.intruder: info: attempted \(attack): \(Self.withEveryLayer(attack, home: trial.home.path))"
        #expect(trial.log.contains(expected + "\n"), "\(trial.log)")
        // Without the namespaces layer (the host's root, Landlock still in
        // force) the same attempt sees what the root hides.
        let off = try trial.run(
            trial.runArguments, environment: trial.environment(attack, when: .show, layersOff: "namespaces"),
            inTerminal: true)
        #expect(off.status == 3, "\(off.screen)")
        let pattern =
            "fixture\\.intruder: info: attempted \(attack): \(Self.withoutNamespaces(attack, home: trial.home.path))\n"
        #expect(trial.log.range(of: pattern, options: .regularExpression) != nil, "\(pattern) in \(trial.log)")
    }

    /// In a constructor, in the scan helper under `--list`: the same root.
    @Test(.enabled(if: everyLayerInForce, "the root needs a mount namespace: see --sandbox-info"))
    func aConstructorFindsNothingOutsideItsRoot() throws {
        let trial = try IntruderTrial()
        let run = try trial.run(
            ["--no-cache", "--plugin-dir", trial.plugins.path, "--list", "-v"],
            environment: trial.environment("stat-shadow", when: .load))
        #expect(run.status == 0, "\(run.stderr)")
        let said = "attempted stat-shadow: \(Self.withEveryLayer("stat-shadow", home: trial.home.path))"
        #expect(String(decoding: run.stdout, as: UTF8.self).contains(said), "\(run.stdout)")
    }

    /// `--sandbox-info` says it, on the namespaces line; where the kernel
    /// refuses a mount namespace the line says so, never silently weaker.
    @Test func sandboxInfoSaysWhatTheRootIs() throws {
        let info = try ProcessRunner.host(["--sandbox-info"])
        #expect(info.status == 0, "\(info.stderr)")
        let line = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix("  namespaces  ") })
        if line.contains("in force") {
            #expect(line == "  namespaces  in force  user, PID, network, mount: only the library folders")
        } else {
            #expect(line.contains("mount"), "\(line)")
        }
    }

    /// The presenters that must load still load and draw in their root:
    /// the Swift example (its runtime's folder bound) and the C++ fixture
    /// (libstdc++ found through ld.so.cache), listed by the scan helper
    /// and put through every check of `check`, in presenter processes.
    @Test(.enabled(if: everyLayerInForce, "the root needs a mount namespace: see --sandbox-info"))
    func swiftAndCxxPresentersLoadAndDrawInTheirRoot() throws {
        let directory = TestPaths.temporaryDirectory("root-load")
        let swift = directory.appendingPathComponent("libSwiftExamplePresenter.so")
        try FileManager.default.copyItem(at: TestPaths.library("SwiftExamplePresenter"), to: swift)
        var files = [swift]
        if Toolchain.hasGxx {
            let cxx = directory.appendingPathComponent("libcxx.so")
            try FileManager.default.copyItem(at: try FixtureBuilder.library(.cxx), to: cxx)
            files.append(cxx)
        }
        let list = try ProcessRunner.host(["--no-cache", "--plugin-dir", directory.path, "--list", "--ids"])
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list.stderr)")
        #expect(list.stdout.split(separator: "\n").contains("swift-example"), "\(list.stdout)")
        for file in files {
            let check = try ProcessRunner.host(["check", "--hook-timeout", "10", file.path])
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            // (The C++ fixture WARNs that it has no description: no check of its drawing.)
            #expect(check.stdout.contains(" passed, 0 failed, "), "\(check.stdout)")
            #expect(check.stdout.contains("  PASS  drawing\n") && check.stdout.contains("  PASS  sandbox\n"))
        }
    }
}
