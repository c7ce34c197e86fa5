import Foundation
import Glibc
import Synchronization

/// A file the loader tests put in a plugin directory: good plugins, and one
/// per way a plugin file can be broken.
enum Fixture: String, CaseIterable, Sendable {
    // Good plugins.
    case good, twoPresenters = "two-presenters", noisy, cxx = "c++"
    case localOne = "local-one", localTwo = "local-two"
    // Files that are not a loadable library for this host.
    case unreadable, directory, danglingLink = "dangling-link", symlinkLoop = "symlink-loop", socket
    case nonUTF8Name = "non-utf8-name"
    case empty, text, randomBytes = "random-bytes"
    case truncated, cutInProgramHeaders = "cut-in-program-headers", programHeadersPastEnd = "program-headers-past-end"
    case otherArchitecture = "other-architecture", thirtyTwoBit = "32-bit", byteOrder = "byte-order"
    case executable, positionIndependentExecutable = "pie"
    // Libraries that dlopen refuses, or that are not presenter plugins.
    case missingDependency = "missing-dependency", undefinedSymbol = "undefined-symbol"
    case noEntryPoint = "no-entry-point", nullEntryPoint = "null-entry-point", endlessEntryPoint = "endless-entry-point"
    // Descriptors with one defect each.
    case abiMajor = "abi-major", newerMinor = "newer-minor", sizeTooSmall = "size-too-small", sizeTooLarge =
        "size-too-large"
    case missingId = "missing-id", uppercaseId = "uppercase-id", longId = "long-id", invalidExtends = "invalid-extends"
    case missingName = "missing-name", emptyName = "empty-name", missingVersion = "missing-version"
    case invalidUTF8 = "invalid-utf8", controlCharacter = "control-character", bidiCharacter = "bidi-character"
    case longName = "long-name", longVersion = "long-version", longDescription = "long-description"
    case longAuthor = "long-author", longLicense = "long-license"
    // Problems between presenters.
    case duplicate, sameIdTwice = "same-id-twice", baseNotFound = "base-not-found", baseBroken = "base-broken"
    case cycleA = "cycle-a", cycleB = "cycle-b", selfExtension = "self-extension"
    case childOfNameless = "child-of-nameless", childOfNewer = "child-of-newer", fakeMBHud = "fake-mbhud"
    // Files that kill or hang the process that loads them (see `hostile`).
    case garbageEntryPoint = "garbage-entry-point", garbageString = "garbage-string"
    case constructorAbort = "constructor-abort", constructorExit = "constructor-exit", constructorHang =
        "constructor-hang"
    case bitFlipCrash = "bit-flip-crash", bitFlipAssertion = "bit-flip-assertion"
    // A good plugin that misbehaves at run time as FIXTURE_MISBEHAVE says (see misbehaving.c).
    case misbehaving
    // Plugins that load but break a rule `presenter-host check` finds (see check_defects.c).
    case drawsOutside = "draws-outside", drawsInShow = "draws-in-show", skipsBase = "skips-base"
    case noDescription = "no-description"
    /// A good plugin (`fixture.marking`) whose loading appends a line to `$FIXTURE_MARKFILE`.
    case marking
    // Plugins that describe themselves (ABI 1.3, PRESENTER_DESCRIBE): a good
    // one, one whose constructor aborts (only a host that loads it dies),
    // one whose constructor never returns, and one whose description names
    // another name than its descriptor.
    case described, describedAborting = "described-aborting", describedHanging = "described-hanging"
    case describedDisagreeing = "described-disagreeing"
    /// A described plugin built with GCC's control-flow protection, as
    /// Ubuntu's and Fedora's compilers build by default: it has a GNU
    /// property note in a segment aligned to 8 besides its description.
    case describedHardened = "described-hardened"
    /// A presenter that draws, and makes the one attempt against the sandbox
    /// that INTRUDER_ATTACK names, when INTRUDER_WHEN says (see intruder.c).
    case intruder
    /// `fixture.final-look` (ABI 1.3) and `fixture.final-look-1-2`: what
    /// stays of an outcome, their own or the host's line (see final_look.c).
    case finalLook = "final-look"
    /// `fixture.timing` (ABI 1.4) and `fixture.timing-1-3`: log what the
    /// host tells them of an interactor's time (see timing.c).
    case timing
    /// A chain across two files, its top in the file of its bottom:
    /// `fixture.chain-a` and `fixture.chain-c` (extends chain-b) in one,
    /// `fixture.chain-b` (extends chain-a) in the other; each show logs
    /// its id, then calls its base's (see chain_across_files.c).
    case chainOne = "chain-one", chainTwo = "chain-two"

    /// Files that crash, end or hang whatever process loads them: the test
    /// process must load them only through a `PluginScanner`.
    static let hostile: [Fixture] = [
        .garbageEntryPoint, .garbageString, .constructorAbort, .constructorExit,
        .constructorHang, .bitFlipCrash, .bitFlipAssertion,
    ]

    /// Files whose code kills or hangs what loads it, which a host lists
    /// from their description without loading them: no test loads them in
    /// its process.
    static let describedHostile: [Fixture] = [.describedAborting, .describedHanging]

    /// Good plugins, each loading without an error on its own.
    static let usable: [Fixture] = [
        .good, .twoPresenters, .noisy, .cxx, .localOne, .localTwo, .misbehaving,
        .drawsOutside, .drawsInShow, .noDescription, .marking, .intruder, .described, .describedHardened,
        .finalLook, .timing,
    ]

    /// The name the fixture gets in a plugin directory. The non-UTF-8 one is
    /// `lib<0xFF>.so` on disk; this is how the host shows it.
    var fileName: String { self == .nonUTF8Name ? "lib\\xFF.so" : "lib\(rawValue).so" }

    /// How a compiled fixture is built: its source, extra flags, and what it is.
    fileprivate var compilation: Compilation? {
        func presenter(_ flags: String...) -> Compilation { Compilation(source: "presenter.c", flags: flags) }
        func hostile(_ defect: String) -> Compilation {
            Compilation(source: "hostile.c", flags: ["-DHOSTILE_\(defect)"])
        }
        func local(_ id: String, _ name: String) -> Compilation {
            Compilation(
                source: "local_symbols.c", flags: ["-DFIXTURE_ID=\"\(id)\"", "-DFIXTURE_LOCAL_NAME=\"\(name)\""])
        }
        func long(_ field: String, bytes: Int) -> Compilation {
            presenter(
                "-DFIXTURE_ID=\"fixture.long-\(field.lowercased())\"",
                "-DFIXTURE_\(field)=\"\(String(repeating: "x", count: bytes))\"")
        }
        switch self {
        case .good: return presenter()
        case .twoPresenters: return Compilation(source: "two_presenters.c")
        case .chainOne: return Compilation(source: "chain_across_files.c", flags: ["-DCHAIN_FILE_ONE"])
        case .chainTwo: return Compilation(source: "chain_across_files.c")
        case .noisy: return Compilation(source: "noisy.c")
        case .cxx: return Compilation(source: "cxx_presenter.cpp", language: .cxx)
        case .localOne: return local("fixture.local-one", "Local One")
        case .localTwo: return local("fixture.local-two", "Local Two")
        case .executable: return Compilation(source: "program.c", flags: ["-no-pie"], output: .executable)
        case .positionIndependentExecutable:
            return Compilation(source: "program.c", flags: ["-fPIE", "-pie"], output: .executable)
        case .undefinedSymbol: return Compilation(source: "undefined_symbol.c")
        case .noEntryPoint: return Compilation(source: "no_entry_point.c")
        case .nullEntryPoint: return Compilation(source: "null_entry_point.c")
        case .endlessEntryPoint: return Compilation(source: "endless_entry_point.c")
        case .abiMajor: return presenter("-DFIXTURE_ID=\"fixture.abi-major\"", "-DFIXTURE_ABI_MAJOR=2")
        case .newerMinor: return presenter("-DFIXTURE_ID=\"fixture.newer-minor\"", "-DFIXTURE_ABI_MINOR=5")
        case .sizeTooSmall: return presenter("-DFIXTURE_ID=\"fixture.small\"", "-DFIXTURE_STRUCT_SIZE=24")
        case .sizeTooLarge: return presenter("-DFIXTURE_ID=\"fixture.large\"", "-DFIXTURE_STRUCT_SIZE=100000")
        case .missingId: return presenter("-DFIXTURE_ID=NULL")
        case .uppercaseId: return presenter("-DFIXTURE_ID=\"Fixture.Upper\"")
        case .longId: return presenter("-DFIXTURE_ID=\"\(String(repeating: "x", count: 65))\"")
        case .invalidExtends:
            return presenter("-DFIXTURE_ID=\"fixture.bad-extends\"", "-DFIXTURE_EXTENDS=\"Not An Id\"")
        case .missingName: return presenter("-DFIXTURE_ID=\"fixture.no-name\"", "-DFIXTURE_NAME=NULL")
        case .emptyName: return presenter("-DFIXTURE_ID=\"fixture.empty-name\"", "-DFIXTURE_NAME=\"\"")
        case .missingVersion: return presenter("-DFIXTURE_ID=\"fixture.no-version\"", "-DFIXTURE_VERSION=NULL")
        case .invalidUTF8: return presenter("-DFIXTURE_ID=\"fixture.bad-utf8\"", "-DFIXTURE_NAME=\"Bad \\xff\\xfe\"")
        case .controlCharacter:
            return presenter("-DFIXTURE_ID=\"fixture.escape\"", "-DFIXTURE_NAME=\"Bad \\x1b[31mName\"")
        case .bidiCharacter:
            return presenter("-DFIXTURE_ID=\"fixture.bidi\"", "-DFIXTURE_NAME=\"Bad \\xe2\\x80\\xae eman\"")
        case .longName: return long("NAME", bytes: 129)
        case .longVersion: return long("VERSION", bytes: 65)
        case .longDescription: return long("DESCRIPTION", bytes: 513)
        case .longAuthor: return long("AUTHOR", bytes: 257)
        case .longLicense: return long("LICENSE", bytes: 129)
        case .duplicate: return presenter("-DFIXTURE_NAME=\"Duplicate Of Good\"")
        case .sameIdTwice: return Compilation(source: "same_id_twice.c")
        case .baseNotFound:
            return presenter("-DFIXTURE_ID=\"fixture.orphan\"", "-DFIXTURE_EXTENDS=\"fixture.no-such-base\"")
        case .baseBroken:
            return presenter("-DFIXTURE_ID=\"fixture.orphan-child\"", "-DFIXTURE_EXTENDS=\"fixture.orphan\"")
        case .cycleA: return presenter("-DFIXTURE_ID=\"fixture.cycle-a\"", "-DFIXTURE_EXTENDS=\"fixture.cycle-b\"")
        case .cycleB: return presenter("-DFIXTURE_ID=\"fixture.cycle-b\"", "-DFIXTURE_EXTENDS=\"fixture.cycle-a\"")
        case .selfExtension: return presenter("-DFIXTURE_ID=\"fixture.self\"", "-DFIXTURE_EXTENDS=\"fixture.self\"")
        case .childOfNameless:
            return presenter("-DFIXTURE_ID=\"fixture.child-of-nameless\"", "-DFIXTURE_EXTENDS=\"fixture.no-name\"")
        case .childOfNewer:
            return presenter("-DFIXTURE_ID=\"fixture.child-of-newer\"", "-DFIXTURE_EXTENDS=\"fixture.newer-minor\"")
        case .fakeMBHud:
            return presenter(
                "-DFIXTURE_ID=\"mbhud\"", "-DFIXTURE_NAME=\"Fake HUD\"", "-DFIXTURE_EXTENDS=\"fixture.no-such-base\"")
        case .misbehaving: return Compilation(source: "misbehaving.c", flags: ["-lpthread"])
        case .drawsOutside:
            return Compilation(
                source: "check_defects.c", flags: ["-DDEFECT_OUTSIDE", "-DDEFECT_ID=\"fixture.outside\""])
        case .drawsInShow:
            return Compilation(
                source: "check_defects.c", flags: ["-DDEFECT_DRAW_IN_SHOW", "-DDEFECT_ID=\"fixture.draw-in-show\""])
        case .skipsBase:
            return Compilation(
                source: "check_defects.c", flags: ["-DDEFECT_SKIP_BASE", "-DDEFECT_ID=\"fixture.skip-base\""])
        case .noDescription: return presenter("-DFIXTURE_ID=\"fixture.no-description\"", "-DFIXTURE_DESCRIPTION=NULL")
        case .marking:
            return presenter("-DFIXTURE_ID=\"fixture.marking\"", "-DFIXTURE_NAME=\"Marking\"", "-DFIXTURE_MARK")
        case .intruder: return Compilation(source: "intruder.c")
        case .finalLook: return Compilation(source: "final_look.c")
        case .timing: return Compilation(source: "timing.c")
        case .described: return presenter("-DFIXTURE_ID=\"fixture.described\"", "-DFIXTURE_DESCRIBED")
        case .describedHardened:
            return presenter(
                "-DFIXTURE_ID=\"fixture.described-hardened\"", "-DFIXTURE_DESCRIBED", "-fcf-protection=full")
        case .describedAborting:
            return presenter(
                "-DFIXTURE_ID=\"fixture.described-aborting\"", "-DFIXTURE_DESCRIBED", "-DFIXTURE_CONSTRUCTOR_ABORT")
        case .describedHanging:
            return presenter(
                "-DFIXTURE_ID=\"fixture.described-hanging\"", "-DFIXTURE_DESCRIBED", "-DFIXTURE_CONSTRUCTOR_HANG")
        case .describedDisagreeing:
            return presenter(
                "-DFIXTURE_ID=\"fixture.described-disagreeing\"", "-DFIXTURE_DESCRIBED",
                "-DFIXTURE_DESCRIBED_NAME=\"Another Name\"")
        case .garbageEntryPoint: return hostile("ENTRY_POINTER")
        case .garbageString: return hostile("STRING_POINTER")
        case .constructorAbort: return hostile("CONSTRUCTOR_ABORT")
        case .constructorExit: return hostile("CONSTRUCTOR_EXIT")
        case .constructorHang: return hostile("CONSTRUCTOR_HANG")
        default: return nil
        }
    }
}

/// How one fixture is compiled.
private struct Compilation {
    enum Language { case c, cxx }
    enum Output { case sharedLibrary, executable }
    var source: String
    var flags: [String] = []
    var language: Language = .c
    var output: Output = .sharedLibrary
}

/// A fixture could not be built; the message says which and why.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// Builds the C fixture plugins (once per test run) and lays them out in
/// fresh plugin directories.
enum FixtureBuilder {
    /// Where the fixtures' C sources are.
    static var sources: URL {
        TestPaths.packageRoot.appendingPathComponent("Tests/PresenterHostTests/Fixtures/plugins")
    }

    /// Compiles `source` into a shared library at `output` with the same
    /// command a plugin author uses: `cc -shared -fPIC -std=c11 -I <abi>`.
    static func compile(_ source: URL, to output: URL, flags: [String] = []) throws {
        try compile(source, to: output, Compilation(source: source.lastPathComponent, flags: flags))
    }

    /// Runs `cc -std=c11` or `c++ -std=c++17` with the ABI header on the include path.
    private static func compile(_ source: URL, to output: URL, _ compilation: Compilation) throws {
        let (compiler, standard) = compilation.language == .c ? ("cc", "-std=c11") : ("c++", "-std=c++17")
        let kind = compilation.output == .sharedLibrary ? ["-shared", "-fPIC"] : []
        // Flags go last: a -l before the source would be dropped by --as-needed.
        let arguments =
            kind + [standard, "-Wall", "-I", TestPaths.abiInclude.path, "-o", output.path, source.path]
            + compilation.flags
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [compiler] + arguments)
        guard result.status == 0 else {
            throw FixtureError(description: "\(compiler) \(arguments.joined(separator: " ")) failed:\n\(result.stderr)")
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
    /// mode, a link, a socket, a directory or a non-UTF-8 name does not
    /// survive a copy well).
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
        case .symlinkLoop:
            try files.createSymbolicLink(atPath: target.path, withDestinationPath: fixture.fileName)
        case .socket:
            try makeSocket(at: target.path)
        case .nonUTF8Name:
            // A name no String can hold: made from bytes, holding a good library.
            let name = Array(directory.path.utf8) + Array("/lib".utf8) + [0xFF] + Array(".so".utf8)
            try write(Data(contentsOf: library(.good)), toRawPath: name)
        default:
            try files.copyItem(at: library(fixture), to: target)
        }
    }

    /// Writes `data` to a new file whose path is the bytes `path`.
    static func write(_ data: Data, toRawPath path: [UInt8]) throws {
        let fd = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else {
            throw FixtureError(
                description: "creating a file with a raw name failed: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw FixtureError(description: "writing a file with a raw name failed") }
    }

    /// A Unix socket bound at `path` (then closed: the socket file stays).
    private static func makeSocket(at path: String) throws {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw FixtureError(description: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            throw FixtureError(description: "bind \(path) failed: \(String(cString: strerror(errno)))")
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

    /// Compiles every fixture that has a source, two at a time (2 cores).
    private static func compileAll(into output: URL) throws {
        let jobs = Fixture.allCases.compactMap { fixture in fixture.compilation.map { (fixture, $0) } }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let (fixture, compilation) = jobs[index]
            do {
                try compile(
                    sources.appendingPathComponent(compilation.source),
                    to: output.appendingPathComponent(fixture.fileName), compilation)
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
        try compile(
            sources.appendingPathComponent("missing_dependency.c"),
            to: output.appendingPathComponent(Fixture.missingDependency.fileName),
            flags: ["-L", dependencyDirectory.path, "-lfixturedep"])
        try FileManager.default.removeItem(at: dependencyDirectory)
    }

    /// Files made from bytes: nothing, text, noise, and copies of the good
    /// library cut short, patched to claim another machine, word size or
    /// byte order, or with one bit of their dynamic section flipped.
    private static func deriveFiles(into output: URL) throws {
        let good = try Data(contentsOf: output.appendingPathComponent(Fixture.good.fileName))
        var generator = SeededGenerator(seed: 42)
        let noise = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        var foreign = good
        foreign[18] = otherMachine  // e_machine, a little-endian u16 below 256
        foreign[19] = 0
        var elf32 = good
        elf32[4] = 1  // EI_CLASS = ELFCLASS32
        var bigEndian = good
        bigEndian[5] = 2  // EI_DATA = ELFDATA2MSB
        var headersAway = good
        headersAway.replaceSubrange(32..<40, with: [0, 0, 0, 0, 0, 1, 0, 0])  // e_phoff = 2^40
        let files: [(Fixture, Data)] = [
            (.empty, Data()),
            (.text, Data("This is a text file, not a shared library.\n".utf8)),
            (.randomBytes, noise),
            (.truncated, good.prefix(1200)),
            (.cutInProgramHeaders, good.prefix(64)),
            (.programHeadersPastEnd, headersAway),
            (.otherArchitecture, foreign),
            (.thirtyTwoBit, elf32),
            (.byteOrder, bigEndian),
            // One bit of the dynamic section: the address of the relocations,
            // which dlopen then reads (SIGSEGV), and the size of one (an ld.so assertion).
            (.bitFlipCrash, try flipBit(44, ofDynamicEntry: 7, in: good)),  // DT_RELA
            (.bitFlipAssertion, try flipBit(12, ofDynamicEntry: 9, in: good)),  // DT_RELAENT
        ]
        for (fixture, data) in files {
            try data.write(to: output.appendingPathComponent(fixture.fileName))
        }
    }

    /// `library` with bit `bit` of the value of its dynamic entry `tag`
    /// flipped: a bit flip that passes every header check and still breaks
    /// the loader, found by reading the (little-endian ELF64) program headers.
    private static func flipBit(_ bit: Int, ofDynamicEntry tag: UInt64, in library: Data) throws -> Data {
        let bytes = [UInt8](library)
        func integer(_ offset: Int, _ size: Int) -> UInt64 {
            bytes[offset..<offset + size].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        let headers = Int(integer(32, 8)), count = Int(integer(56, 2))
        // Type 2: PT_DYNAMIC.
        for header in stride(from: headers, to: headers + count * 56, by: 56) where integer(header, 4) == 2 {
            let start = Int(integer(header + 8, 8)), end = start + Int(integer(header + 32, 8))
            for entry in stride(from: start, to: end, by: 16) where integer(entry, 8) == tag {
                var flipped = library
                flipped[entry + 8 + bit / 8] ^= UInt8(1 << (bit % 8))
                return flipped
            }
        }
        throw FixtureError(description: "the good fixture has no dynamic entry \(tag) to flip")
    }

    /// Messages collected from concurrent compile jobs.
    private final class Failures: Sendable {
        private let messages = Mutex<[String]>([])
        func append(_ message: String) { messages.withLock { $0.append(message) } }
        var first: String? { messages.withLock { $0.first } }
    }
}
