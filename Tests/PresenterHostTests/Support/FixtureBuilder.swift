import Foundation
import Glibc

/// A file the loader tests put in a plugin directory: good plugins, and one
/// per way a plugin file can be broken.
enum Fixture: String, CaseIterable, Sendable {
    // Good plugins.
    case good, twoPresenters = "two-presenters", noisy
    // Files that are not a loadable library for this host.
    case unreadable, directory, danglingLink = "dangling-link", empty, text, randomBytes = "random-bytes"
    case truncated, otherArchitecture = "other-architecture", thirtyTwoBit = "32-bit"
    // Libraries that dlopen refuses, or that are not presenter plugins.
    case missingDependency = "missing-dependency", undefinedSymbol = "undefined-symbol"
    case noEntryPoint = "no-entry-point", nullEntryPoint = "null-entry-point", endlessEntryPoint = "endless-entry-point"
    // Descriptors with one defect each.
    case abiMajor = "abi-major", newerMinor = "newer-minor", sizeTooSmall = "size-too-small"
    case missingId = "missing-id", uppercaseId = "uppercase-id", longId = "long-id"
    case missingName = "missing-name", emptyName = "empty-name", missingVersion = "missing-version"
    case invalidUTF8 = "invalid-utf8", controlCharacter = "control-character"
    // Problems between presenters.
    case duplicate, baseNotFound = "base-not-found", baseBroken = "base-broken"
    case cycleA = "cycle-a", cycleB = "cycle-b", selfExtension = "self-extension"

    /// The name the fixture gets in a plugin directory.
    var fileName: String { "lib\(rawValue).so" }

    /// How a compiled fixture is built: its C source and extra cc flags.
    fileprivate var compilation: (source: String, flags: [String])? {
        func presenter(_ flags: String...) -> (String, [String]) { ("presenter.c", flags) }
        switch self {
        case .good: return presenter()
        case .twoPresenters: return ("two_presenters.c", [])
        case .noisy: return ("noisy.c", [])
        case .undefinedSymbol: return ("undefined_symbol.c", [])
        case .noEntryPoint: return ("no_entry_point.c", [])
        case .nullEntryPoint: return ("null_entry_point.c", [])
        case .endlessEntryPoint: return ("endless_entry_point.c", [])
        case .abiMajor: return presenter("-DFIXTURE_ID=\"fixture.abi-major\"", "-DFIXTURE_ABI_MAJOR=2")
        case .newerMinor: return presenter("-DFIXTURE_ID=\"fixture.newer-minor\"", "-DFIXTURE_ABI_MINOR=3")
        case .sizeTooSmall: return presenter("-DFIXTURE_ID=\"fixture.small\"", "-DFIXTURE_STRUCT_SIZE=24")
        case .missingId: return presenter("-DFIXTURE_ID=NULL")
        case .uppercaseId: return presenter("-DFIXTURE_ID=\"Fixture.Upper\"")
        case .longId: return presenter("-DFIXTURE_ID=\"\(String(repeating: "x", count: 65))\"")
        case .missingName: return presenter("-DFIXTURE_ID=\"fixture.no-name\"", "-DFIXTURE_NAME=NULL")
        case .emptyName: return presenter("-DFIXTURE_ID=\"fixture.empty-name\"", "-DFIXTURE_NAME=\"\"")
        case .missingVersion: return presenter("-DFIXTURE_ID=\"fixture.no-version\"", "-DFIXTURE_VERSION=NULL")
        case .invalidUTF8: return presenter("-DFIXTURE_ID=\"fixture.bad-utf8\"", "-DFIXTURE_NAME=\"Bad \\xff\\xfe\"")
        case .controlCharacter: return presenter("-DFIXTURE_ID=\"fixture.escape\"", "-DFIXTURE_NAME=\"Bad \\x1b[31mName\"")
        case .duplicate: return presenter("-DFIXTURE_NAME=\"Duplicate Of Good\"")
        case .baseNotFound: return presenter("-DFIXTURE_ID=\"fixture.orphan\"", "-DFIXTURE_EXTENDS=\"fixture.no-such-base\"")
        case .baseBroken: return presenter("-DFIXTURE_ID=\"fixture.orphan-child\"", "-DFIXTURE_EXTENDS=\"fixture.orphan\"")
        case .cycleA: return presenter("-DFIXTURE_ID=\"fixture.cycle-a\"", "-DFIXTURE_EXTENDS=\"fixture.cycle-b\"")
        case .cycleB: return presenter("-DFIXTURE_ID=\"fixture.cycle-b\"", "-DFIXTURE_EXTENDS=\"fixture.cycle-a\"")
        case .selfExtension: return presenter("-DFIXTURE_ID=\"fixture.self\"", "-DFIXTURE_EXTENDS=\"fixture.self\"")
        default: return nil
        }
    }
}

/// A fixture could not be built; the message says which and why.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// Builds the C fixture plugins (once per test run) and lays them out in
/// fresh plugin directories.
enum FixtureBuilder {
    /// Where the fixtures' C sources are.
    static var sources: URL { TestPaths.packageRoot.appendingPathComponent("Tests/PresenterHostTests/Fixtures/plugins") }

    /// Compiles `source` into a shared library at `output` with the same
    /// command a plugin author uses: `cc -shared -fPIC -std=c11 -I <abi>`.
    static func compile(_ source: URL, to output: URL, flags: [String] = []) throws {
        // Flags go last: a -l before the source would be dropped by --as-needed.
        let arguments = ["-shared", "-fPIC", "-std=c11", "-Wall", "-I", TestPaths.abiInclude.path,
                         "-o", output.path, source.path] + flags
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["cc"] + arguments)
        guard result.status == 0 else {
            throw FixtureError(description: "cc \(arguments.joined(separator: " ")) failed:\n\(result.stderr)")
        }
    }

    /// The built fixture `fixture` (compiled or derived from a compiled one).
    static func library(_ fixture: Fixture) throws -> URL {
        try built.get().appendingPathComponent(fixture.fileName)
    }

    /// A new directory holding `fixtures`, each under its `fileName`.
    static func directory(_ fixtures: [Fixture]) throws -> URL {
        let directory = TestPaths.temporaryDirectory("plugins")
        for fixture in fixtures { try place(fixture, in: directory) }
        return directory
    }

    /// Puts `fixture` into `directory` (the special files are made here: a
    /// mode, a link or a directory does not survive a copy well).
    static func place(_ fixture: Fixture, in directory: URL) throws {
        let target = directory.appendingPathComponent(fixture.fileName)
        let files = FileManager.default
        switch fixture {
        case .unreadable:
            try files.copyItem(at: library(.good), to: target)
            guard chmod(target.path, 0) == 0 else { throw FixtureError(description: "chmod 000 \(target.path) failed") }
        case .directory:
            try files.createDirectory(at: target, withIntermediateDirectories: false)
        case .danglingLink:
            try files.createSymbolicLink(atPath: target.path, withDestinationPath: "libnothing-here.so")
        default:
            try files.copyItem(at: library(fixture), to: target)
        }
    }

    /// The machine the `otherArchitecture` fixture claims and this host's,
    /// as the loader names them (hosts are x86-64 or AArch64).
    static var architectureNames: (plugin: String, host: String) {
        #if arch(arm64)
        return ("x86-64", "AArch64")
        #else
        return ("AArch64", "x86-64")
        #endif
    }

    /// EM_X86_64 on an AArch64 host, else EM_AARCH64.
    private static var otherMachine: UInt8 {
        #if arch(arm64)
        return 62
        #else
        return 183
        #endif
    }

    // MARK: - Building

    private static let built: Result<URL, FixtureError> = {
        let output = TestPaths.temporaryDirectory("fixtures-built")
        do {
            try compileAll(into: output)
            try buildMissingDependency(into: output)
            try deriveFiles(into: output)
            return .success(output)
        } catch let error as FixtureError {
            return .failure(error)
        } catch {
            return .failure(FixtureError(description: "building fixtures: \(error)"))
        }
    }()

    /// Compiles every fixture that has a C source, two at a time (2 cores).
    private static func compileAll(into output: URL) throws {
        let jobs = Fixture.allCases.compactMap { fixture in fixture.compilation.map { (fixture, $0) } }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let (fixture, compilation) = jobs[index]
            do {
                try compile(sources.appendingPathComponent(compilation.source),
                            to: output.appendingPathComponent(fixture.fileName), flags: compilation.flags)
            } catch {
                failures.append("\(error)")
            }
        }
        if let failure = failures.first { throw FixtureError(description: failure) }
    }

    /// Links a library against libfixturedep.so, then deletes that, so dlopen
    /// reports the dependency as missing.
    private static func buildMissingDependency(into output: URL) throws {
        let dependencyDirectory = output.appendingPathComponent("dependency")
        try FileManager.default.createDirectory(at: dependencyDirectory, withIntermediateDirectories: true)
        let dependency = dependencyDirectory.appendingPathComponent("libfixturedep.so")
        try compile(sources.appendingPathComponent("dependency.c"), to: dependency)
        try compile(sources.appendingPathComponent("missing_dependency.c"),
                    to: output.appendingPathComponent(Fixture.missingDependency.fileName),
                    flags: ["-L", dependencyDirectory.path, "-lfixturedep"])
        try FileManager.default.removeItem(at: dependencyDirectory)
    }

    /// Files made from bytes: nothing, text, noise, and copies of the good
    /// library cut short or patched to claim another machine or word size.
    private static func deriveFiles(into output: URL) throws {
        let good = try Data(contentsOf: output.appendingPathComponent(Fixture.good.fileName))
        var generator = SplitMix(seed: 42)
        let noise = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        var foreign = good
        foreign[18] = otherMachine  // e_machine, a little-endian u16 below 256
        foreign[19] = 0
        var elf32 = good
        elf32[4] = 1       // EI_CLASS = ELFCLASS32
        let files: [(Fixture, Data)] = [
            (.empty, Data()),
            (.text, Data("This is a text file, not a shared library.\n".utf8)),
            (.randomBytes, noise),
            (.truncated, good.prefix(1200)),
            (.otherArchitecture, foreign),
            (.thirtyTwoBit, elf32),
        ]
        for (fixture, data) in files {
            try data.write(to: output.appendingPathComponent(fixture.fileName))
        }
    }

    /// Messages collected from concurrent compile jobs.
    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []
        func append(_ message: String) { lock.lock(); messages.append(message); lock.unlock() }
        var first: String? { lock.lock(); defer { lock.unlock() }; return messages.first }
    }
}

/// A tiny deterministic generator, so the "random bytes" fixture is the same every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
