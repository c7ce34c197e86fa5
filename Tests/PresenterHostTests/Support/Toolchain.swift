import Foundation

/// The compilers plugin authors use, as the tests find them: a test that
/// needs a missing one is skipped with a message naming it (scripts/test
/// installs them where it can).
enum Toolchain {
    /// The full path of `program` in PATH, or nil.
    static func find(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static var hasGxx: Bool { find("g++") != nil }
    static var hasRustc: Bool { find("rustc") != nil }

    /// Runs one compiler command; throws its stderr when it fails.
    static func compile(_ arguments: [String]) throws {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        guard result.status == 0 else {
            throw FixtureError(description: "\(arguments.joined(separator: " ")) failed:\n\(result.stderr)")
        }
    }
}
