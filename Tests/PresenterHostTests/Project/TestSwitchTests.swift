import Foundation
import Testing

/// Test switches are not in the product (issue 30): an environment variable
/// that turns the sandbox's layers off exists only in a test build, by a
/// compile-time condition (PRESENTER_HOST_TEST_SWITCHES, which Package.swift
/// defines for the debug configuration alone), so a shipped binary (the
/// release build of scripts/release-build, the .deb, the bench) never reads
/// it, and an inherited variable cannot run third-party code with a layer
/// off. No test builds a release binary (minutes), so the condition is
/// checked where it is written, and its effect in the debug build the
/// tests run.
@Suite struct TestSwitchTests {
    /// The variables that exist for tests only.
    static let switches = ["PRESENTER_HOST_SANDBOX_OFF"]
    static let condition = "PRESENTER_HOST_TEST_SWITCHES"

    @Test func theConditionIsDefinedForTheDebugConfigurationOnly() throws {
        let manifest = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let defines = manifest.components(separatedBy: ".define(\"\(Self.condition)\"").dropFirst()
        #expect(!defines.isEmpty, "Package.swift does not define \(Self.condition)")
        for define in defines {
            #expect(define.hasPrefix(", .when(configuration: .debug))"), "\(define.prefix(60))")
        }
    }

    /// Every string literal naming a switch in Sources/ sits inside
    /// `#if PRESENTER_HOST_TEST_SWITCHES` (not its `#else`).
    @Test func everySwitchIsNamedOnlyUnderTheCondition() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var found = 0
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            // The open #if blocks: whether each is the condition's, in its true branch.
            var blocks: [Bool] = []
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("#if ") {
                    blocks.append(code == "#if \(Self.condition)")
                } else if code.hasPrefix("#else") || code.hasPrefix("#elseif") {
                    if !blocks.isEmpty { blocks[blocks.count - 1] = false }
                } else if code.hasPrefix("#endif") {
                    _ = blocks.popLast()
                }
                for name in Self.switches where line.contains("\"\(name)\"") {
                    found += 1
                    #expect(
                        blocks.contains(true),
                        "Sources/\(file):\(number + 1) names \(name) outside #if \(Self.condition)")
                }
            }
        }
        #expect(found > 0, "no switch is named in Sources/: the test looks at nothing")
    }

    /// The debug build the tests run has the switch: a layer turned off is said so.
    @Test func aTestBuildHonoursTheSwitch() throws {
        let info = try ProcessRunner.host(["--sandbox-info"], environment: ["PRESENTER_HOST_SANDBOX_OFF": "limits"])
        #expect(info.stdout.contains("\n  limits      OFF       PRESENTER_HOST_SANDBOX_OFF\n"), "\(info.stdout)")
    }
}
