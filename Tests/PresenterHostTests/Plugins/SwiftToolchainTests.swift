import Foundation
import Glibc
import Testing
@testable import HostSystem
@testable import HostPlugins

/// A Swift plugin must be built by the toolchain of the Swift runtime the
/// host runs on (`SwiftToolchain`): real plugins, their `.comment` as the
/// toolchain wrote it, rewritten as another toolchain would have (objcopy),
/// and removed as `strip -R .comment` does.
@Suite struct SwiftToolchainTests {
    private static let swiftPlugin = TestPaths.library("SwiftExamplePresenter")

    private static func marks(_ path: String) throws -> SwiftToolchain.Marks? {
        let fd = try FileDescriptor.open(path, O_RDONLY)
        return fd.closeAfter { fd in SwiftToolchain.marks(fd, fileSize: UInt64((try? fd.status())?.st_size ?? 0)) }
    }

    /// What readelf shows on this build: the Swift plugin needs
    /// libswiftCore.so and its `.comment` names the clang of the runtime's
    /// toolchain; a C plugin needs no Swift runtime.
    @Test func aSwiftPluginOfThisToolchainNamesTheRuntimesCompiler() throws {
        let runtime = try #require(SwiftToolchain.runtimeCompilers)
        #expect(runtime.allSatisfy { $0.contains("clang version") && $0.contains("llvm-project") }, "\(runtime)")
        let swift = try #require(try Self.marks(Self.swiftPlugin.path))
        #expect(swift.needsSwiftRuntime)
        #expect(swift.compilers.contains(runtime[0]), "\(swift.compilers)")
        let c = try #require(try Self.marks(FixtureBuilder.library(.good).path))
        #expect(!c.needsSwiftRuntime)
        #expect(SwiftToolchain.runtimeVersion.split(separator: ".").count == 2)
    }

    /// The fuzzer's seed of a Swift library, made by hand: the marks are read
    /// from the section headers, `.dynamic` and `.comment`.
    @Test func theMarksAreReadFromTheSectionHeaders() throws {
        let seed = try #require(ELFFuzz.seeds().first { $0.name == "swift-library" })
        let file = TestPaths.temporaryDirectory("toolchain").appendingPathComponent("libseed.so")
        try Data(seed.bytes).write(to: file)
        #expect(
            try Self.marks(file.path)
                == SwiftToolchain.Marks(
                    needsSwiftRuntime: true,
                    compilers: ["clang version 21.0.0 (https://github.com/swiftlang/llvm-project.git 0123456789abcdef)"]
                ))
        // Without section headers (sstrip), nothing can be told.
        var bytes = seed.bytes
        bytes.replaceSubrange(40..<48, with: [UInt8](repeating: 0, count: 8))
        try Data(bytes).write(to: file)
        #expect(try Self.marks(file.path) == nil)
    }

    /// Which `.comment` lines name a compiler: bytes searched on printable
    /// ASCII, Characters past it (a combining mark makes another letter),
    /// and a CR LF, one Character, searched as Characters too.
    @Test func aCompilerLineIsOneThatSaysClangVersion() {
        #expect(SwiftToolchain.namesClang("clang version 21.0.0 (https://github.com/swiftlang/llvm-project.git 0a)"))
        #expect(SwiftToolchain.namesClang("Debian clang version 14.0.6"))
        #expect(!SwiftToolchain.namesClang("GCC: (Debian 12.2.0-14) 12.2.0"))
        #expect(!SwiftToolchain.namesClang("clang versio"))
        #expect(!SwiftToolchain.namesClang("Clang version 14"))
        #expect(SwiftToolchain.namesClang("é clang version 14"))
        #expect(!SwiftToolchain.namesClang("clang version\u{301} 14"))
        #expect(SwiftToolchain.namesClang("\r\nclang version 14"))
    }

    /// A section's name is compared as bytes up to its NUL, or to the end
    /// of the table for the last one: `.comment` is that name, not
    /// `.comments` nor `.comment` with a combining mark after it.
    @Test func aSectionNameIsMatchedUpToItsEnd() {
        let wanted = Array(".comment".utf8) + [0]
        let table = Array("\0.text\0.comment\0.comments\0.comment\u{301}\0.comment".utf8)
        let offsets = [1, 7, 16, 26, 37]
        #expect(
            offsets.map { SwiftToolchain.isName(table, at: UInt64($0), equalTo: wanted) }
                == [false, true, false, false, true])
        #expect(!SwiftToolchain.isName(table, at: UInt64(table.count), equalTo: wanted))
        #expect(!SwiftToolchain.isName(Array(".comm".utf8), at: 0, equalTo: wanted))
    }

    @Test func aCompilerLineIsShownShortAndSafe() {
        #expect(
            SwiftToolchain.brief(
                "clang version 21.0.0 (https://github.com/swiftlang/llvm-project.git 11673e6660b2d0a5f9f99b1c7b773f4c2f6df1b0)"
            ) == "clang version 21.0.0 of llvm-project 11673e6660b2")
        #expect(SwiftToolchain.brief("clang version 9\u{1b}[2J") == "clang version 9\\x1B[2J")
        #expect(SwiftToolchain.brief(String(repeating: "x", count: 500)).count == 80)
    }

    /// Through the real binary (the scan helper loads third-party files):
    /// the plugin another toolchain built is one line and is not loaded;
    /// the same plugin with its `.comment` stripped cannot be told apart and
    /// loads; the bundled presenters load; nothing crashes.
    @Test(.enabled(if: Toolchain.find("objcopy") != nil, "objcopy is not installed (apt-get install binutils)"))
    func aSwiftPluginOfAnotherToolchainIsRefusedInOneLine() throws {
        let runtime = try #require(SwiftToolchain.runtimeCompilers?.first)
        let folder = TestPaths.temporaryDirectory("toolchain")
        let other = folder.appendingPathComponent("libother.so"),
            stripped = folder.appendingPathComponent("libstripped.so")
        try FileManager.default.copyItem(at: Self.swiftPlugin, to: other)
        try FileManager.default.copyItem(at: Self.swiftPlugin, to: stripped)
        let comment = folder.appendingPathComponent("comment")
        try Data(
            "GCC: (Debian 12.2.0-14) 12.2.0\0clang version 20.1.0 (https://github.com/swiftlang/llvm-project.git 0123456789abcdef0123456789abcdef01234567)\0"
                .utf8
        ).write(to: comment)
        for (file, arguments) in [
            (other, ["--update-section", ".comment=\(comment.path)"]), (stripped, ["-R", ".comment"]),
        ] {
            let edit = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/objcopy"), arguments + [file.path])
            #expect(edit.status == 0, "\(edit.stderr)")
        }
        try FileManager.default.removeItem(at: comment)

        let list = try ProcessRunner.host(
            ["--plugin-dir", folder.path, "--list", "--no-cache"], environment: ["CI": "true"])
        #expect(list.status == 0)
        #expect(
            list.stderr
                == "presenter-host: \(other.path): is a Swift plugin built with another Swift toolchain than presenter-host's Swift \(SwiftToolchain.runtimeVersion) runtime (it names clang version 20.1.0 of llvm-project 0123456789ab, the runtime \(SwiftToolchain.brief(runtime))); rebuild it with the Swift toolchain presenter-host was built with\n"
        )
        #expect(list.stdout.contains("swift-example") && list.stdout.contains(stripped.path), "\(list.stdout)")
        #expect(list.stdout.contains("mbhud"), "\(list.stdout)")

        // In this process too (the bundled and --in-process loads), before dlopen.
        #expect(
            throws: PluginLoadFailure.otherSwiftToolchain(
                plugin: "clang version 20.1.0 of llvm-project 0123456789ab", runtime: SwiftToolchain.brief(runtime),
                swift: SwiftToolchain.runtimeVersion)
        ) {
            _ = try PluginLibrary.load(other.path, policy: .strict)
        }
    }
}
