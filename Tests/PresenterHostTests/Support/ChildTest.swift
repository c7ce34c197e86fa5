import Foundation
import Testing

/// Runs a test that changes process-wide state (a signal disposition, a
/// signal sent to the process itself) in a test process of its own, so
/// that the tests running in parallel in this one never see it:
///
/// ```swift
/// @Test func trapsSIGUSR2() throws {
///     guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
///     ... // the test itself, in the child
/// }
/// ```
///
/// The child is this test executable again, running that one test
/// (`--filter`) with `PRESENTER_TEST_CHILD` set; the parent fails with its
/// output unless it ran exactly one test and that test passed.
enum ChildTest {
    static let variable = "PRESENTER_TEST_CHILD"

    /// Whether this process is the child running one such test.
    static var isChild: Bool { ProcessInfo.processInfo.environment[variable] != nil }

    /// Runs the calling test (`suite`'s `function`) in a child test process,
    /// with `environment` added to its own, and records an issue unless it
    /// passed there.
    static func run(
        _ suite: Any.Type, environment: [String: String] = [:], function: String = #function,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let name = function.split(separator: "(").first.map(String.init) ?? function
        // Swift Testing's ids: Module.Suite/function(labels:). A regex.
        let filter = "\\.\(String(describing: suite))/\(name)\\("
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let result = try ProcessRunner.run(
            executable,
            ["--testing-library", "swift-testing", "--filter", filter],
            environment: environment.merging([variable: name]) { $1 })
        let output = result.stdout + result.stderr
        let ranOne =
            output.contains("Test run with 1 test ") && !output.contains("Test run with 1 test in 1 suite failed")
        #expect(
            result.status == 0 && ranOne, "the child test process (--filter \(filter)) did not pass:\n\(output)",
            sourceLocation: sourceLocation)
    }
}
