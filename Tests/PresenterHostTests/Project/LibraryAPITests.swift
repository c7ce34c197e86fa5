import Foundation
import HostBookmarks
import HostEngine
import HostPlugins
import HostRuntime
import HostSystem
import HostText
import Testing

/// The library's API is what Sources/PresenterHost re-exports, and no more.
/// A client outside this package, compiled against the built modules as a
/// package depending on the `PresenterHost` product is, sees the README's
/// example and nothing of the package's own: the processes, signals and
/// sandbox of HostSystem, the presenter process's engine, the Add Bookmark
/// app. A name that leaks (an `@_exported import` of a whole module again, a
/// `public` that should be `package`) fails here. Compiling is the check a
/// user's build makes, and needs no symbol graph or API digester.
@Suite struct LibraryAPITests {
    /// The package's own, each a declaration a library user must not reach:
    /// neither through `import PresenterHost` nor by importing its module.
    /// Named by type, so that a rename cannot make a check pass for a name
    /// that no longer exists.
    private static let hidden: [(module: String, name: String)] = {
        let types: [(String, Any.Type)] = [
            ("HostSystem", ChildProcess.self), ("HostSystem", SignalTrap.self), ("HostSystem", OutputPump.self),
            ("HostSystem", ProcessTree.self), ("HostSystem", CapturedOutput.self), ("HostSystem", OutputLines.self),
            ("HostEngine", PresenterProcess.self), ("HostEngine", PresenterProcessLaunch.self),
            ("HostEngine", PresenterLoader.self), ("HostPlugins", LoadedPresenter.self),
            ("HostRuntime", TerminalInput.self), ("HostRuntime", KeyDecoder.self),
            ("HostRuntime", TerminalBackend.self),
            ("HostRuntime", PlainBackend.self), ("HostRuntime", FullScreenBackend.self),
            ("HostBookmarks", BookmarkStore.self), ("HostBookmarks", Bookmark.self),
            ("HostBookmarks", WebTitleFetch.self),
            ("HostBookmarks", WebTitle.self),
        ]
        return types.map { ($0.0, "\($0.1)") }
    }()

    /// Public in their modules, which the package's other modules share, but
    /// not the library's: `import PresenterHost` must not bring them.
    private static let notReexported: [String] = [DisplayWidth.self, PresenterPlugin.self]
        .map { "\($0)" }

    @Test func theReadmeExampleCompilesWithTheOneImport() throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try #require(
            readme.components(separatedBy: "## Using the library").dropFirst().first?
                .components(separatedBy: "```swift\n").dropFirst().first?
                .components(separatedBy: "```").first)
        #expect(example.contains("import PresenterHost\n"))
        // What the prose after it names: the sandboxed choice and its scanner.
        let sandboxed = """
            let isolation = PresenterRuntime.Isolation.presenterProcess(
                PresenterProcessConfiguration(executable: "/usr/local/bin/presenter-host"))
            let pipeline = RegistryPipeline(scanner: PluginScanner(executable: "/usr/local/bin/presenter-host"))
            """
        let result = try Self.typecheck(example + sandboxed)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Neither the registry nor the runtime runs plugin code in the
    /// caller's process by default: the caller says so (`scanner: nil`,
    /// `isolation: .inProcess`) or gives the sandboxed helpers.
    @Test func theCallerSaysWhereThePluginsRun() throws {
        let client = """
            import PresenterHost
            let registry = RegistryPipeline().load([])
            _ = PresenterRuntime(registry: registry, backend: BackendFactory.make())
            """
        let result = try Self.typecheck(client)
        #expect(result.status != 0)
        #expect(result.stderr.contains("missing argument for parameter 'scanner'"), "\(result.stderr)")
        #expect(result.stderr.contains("missing argument for parameter 'isolation'"), "\(result.stderr)")
    }

    @Test func importingPresenterHostShowsNoneOfThePackagesOwn() throws {
        let names = Self.hidden.map(\.name) + Self.notReexported
        let client = "import PresenterHost\n" + names.map { "_ = \($0).self\n" }.joined()
        let result = try Self.typecheck(client)
        #expect(result.status != 0)
        for name in names {
            #expect(result.stderr.contains("cannot find '\(name)' in scope"), "\(name) is visible:\n\(result.stderr)")
        }
    }

    @Test func importingTheModulesThemselvesShowsNoneOfThePackagesOwn() throws {
        let modules = Set(Self.hidden.map(\.module)).sorted()
        let client =
            modules.map { "import \($0)\n" }.joined()
            + Self.hidden.map { "_ = \($0.module).\($0.name).self\n" }.joined()
        let result = try Self.typecheck(client)
        #expect(result.status != 0)
        for (module, name) in Self.hidden {
            #expect(
                result.stderr.contains("module '\(module)' has no member named '\(name)'"),
                "\(module).\(name) is public:\n\(result.stderr)")
        }
    }

    /// Type-checks `source` as a client outside this package (no
    /// `-package-name`) against the modules `swift build` made.
    private static func typecheck(_ source: String) throws -> ProcessResult {
        let directory = TestPaths.temporaryDirectory("api")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let products = TestPaths.products.path, sources = TestPaths.packageRoot.appendingPathComponent("Sources").path
        let clang = [
            "-fmodule-map-file=\(sources)/CSeccomp/module.modulemap",
            "-fmodule-map-file=\(products)/SystemShims.build/module.modulemap", "-I", "\(sources)/SystemShims/include",
            "-fmodule-map-file=\(products)/PresenterABI.build/module.modulemap", "-I",
            "\(sources)/PresenterABI/include",
        ]
        return try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swiftc", "-typecheck", "-I", "\(products)/Modules", "-module-cache-path", directory.path + "/cache"]
                + clang.flatMap { ["-Xcc", $0] } + [file.path])
    }
}
