import Foundation
import Glibc
import PresenterABI
import Testing
@testable import PresenterHost

/// The loader on real files: fixtures compiled from C, dlopened in this process.
@Suite struct LoaderTests {
    /// Loads `fixtures` from one fresh directory.
    private func load(_ fixtures: [Fixture]) throws -> (registry: PresenterRegistry, directory: URL) {
        let directory = try FixtureBuilder.directory(fixtures)
        return (PresenterRegistry.load([SearchPathEntry(path: directory.path, origin: .flag)]), directory)
    }

    @Test func goodPluginLoadsEveryDescriptorField() throws {
        let (registry, directory) = try load([.good])
        #expect(registry.errors == [])
        let plugin = try #require(registry.plugin(id: "fixture.good"))
        #expect(plugin.name == "Good Fixture")
        #expect(plugin.version == "1.0.0")
        #expect(plugin.description == "A fixture presenter for the loader tests.")
        #expect(plugin.author == "presenter-host tests")
        #expect(plugin.license == "MIT")
        #expect(plugin.extends == nil)
        #expect(plugin.capabilities == [.messages, .determinate])
        #expect(plugin.abiVersion == ABIVersion.host)
        #expect(plugin.path == directory.appendingPathComponent("libgood.so").path)
        #expect(plugin.hooks.presentNames == ["show", "render"])
        // The descriptor itself is kept for create, which receives it.
        #expect(plugin.descriptor?.pointer.pointee.struct_size == UInt32(MemoryLayout<presenter_descriptor>.size))
    }

    @Test func oneLibraryHoldsTwoPresentersAndTheChainLinksThem() throws {
        let (registry, _) = try load([.twoPresenters])
        #expect(registry.errors == [])
        #expect(registry.plugins.map(\.id) == ["fixture.base", "fixture.derived"])
        #expect(registry.chain(for: "fixture.derived")?.map(\.id) == ["fixture.derived", "fixture.base"])
        #expect(registry.chain(for: "fixture.base")?.map(\.id) == ["fixture.base"])
        #expect(registry.chain(for: "fixture.none") == nil)
        #expect(registry.plugin(id: "fixture.derived")?.hooks.presentNames == ["show"])
    }

    /// Each broken file: one error, for its file, with the expected reason; nothing loaded.
    @Test(arguments: [
        (Fixture.directory, "is a directory, not a shared library"),
        (.danglingLink, "is a dangling symbolic link to 'libnothing-here.so'"),
        (.empty, "is empty, not an ELF shared library"),
        (.text, "is a text file, not an ELF shared library"),
        (.randomBytes, "is not an ELF shared library (no ELF magic number)"),
        (.truncated, "truncated: segment "),
        (.otherArchitecture,
         "built for \(FixtureBuilder.architectureNames.plugin), this host is \(FixtureBuilder.architectureNames.host); rebuild it for this host"),
        (.thirtyTwoBit, "built for 32-bit "),
        (.missingDependency, "libfixturedep.so: cannot open shared object file"),
        (.undefinedSymbol, "undefined symbol: fixture_symbol_nobody_defines"),
        (.noEntryPoint, "not a presenter plugin: no presenter_plugin_descriptor symbol"),
        (.nullEntryPoint, "entry point returns no presenter"),
        (.endlessEntryPoint, "entry point returned more than 256 presenters"),
        (.abiMajor, "built for ABI 2.0, this host supports 1.x (1.0)"),
        (.newerMinor, "built for ABI 1.3, this host supports 1.0; update presenter-host"),
        (.sizeTooSmall, "struct_size is 24 bytes, smaller than the ABI 1.0 descriptor"),
        (.missingId, "id is missing (NULL)"),
        (.uppercaseId, "invalid id 'Fixture.Upper'"),
        (.longId, "id is longer than 64 bytes"),
        (.missingName, "name is missing (NULL)"),
        (.emptyName, "name is empty"),
        (.missingVersion, "version is missing (NULL)"),
        (.invalidUTF8, "name is not valid UTF-8"),
        (.controlCharacter, "name contains a control character"),
        (.baseNotFound, "presenter 'fixture.orphan' extends 'fixture.no-such-base', which was not found"),
        (.selfExtension, "presenter 'fixture.self' is in an extension cycle (fixture.self -> fixture.self)"),
    ])
    func brokenFileIsReportedWithItsReason(fixture: Fixture, reason: String) throws {
        let (registry, directory) = try load([fixture])
        #expect(registry.plugins.isEmpty)
        let error = try #require(registry.errors.first)
        #expect(registry.errors.count == 1)
        #expect(error.path == directory.appendingPathComponent(fixture.fileName).path)
        #expect(error.reason.contains(reason), "\(error.reason)")
        #expect(!error.reason.contains("\n"))
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file; ListCommandTests checks this as an unprivileged user"))
    func unreadableFileIsReported() throws {
        let (registry, _) = try load([.unreadable])
        #expect(registry.errors.map(\.reason) == ["cannot be read: Permission denied; check its permissions"])
    }

    @Test func brokenFilesDoNotStopTheOthers() throws {
        let broken = Fixture.allCases.filter { ![.good, .twoPresenters, .noisy, .unreadable, .duplicate].contains($0) }
        let (registry, _) = try load(broken + [.good, .twoPresenters])
        #expect(registry.plugins.map(\.id).sorted() == ["fixture.base", "fixture.derived", "fixture.good"])
        // One line per broken file, naming it.
        #expect(registry.errors.count == broken.count)
        #expect(Set(registry.errors.map { URL(fileURLWithPath: $0.path).lastPathComponent }) == Set(broken.map(\.fileName)))
    }

    @Test func theFirstPresenterWithAnIdWinsAndTheLaterIsShadowed() throws {
        let first = try FixtureBuilder.directory([.good])
        let second = try FixtureBuilder.directory([.duplicate])
        let registry = PresenterRegistry.load([SearchPathEntry(path: first.path, origin: .flag),
                                               SearchPathEntry(path: second.path, origin: .env)])
        let winner = first.appendingPathComponent("libgood.so").path
        let loser = second.appendingPathComponent("libduplicate.so").path
        #expect(registry.plugins.map(\.path) == [winner])
        #expect(registry.errors == [PluginLoadError(path: loser, failure: .shadowed(id: "fixture.good", by: winner))])
        #expect(registry.errors[0].reason.contains(winner))
    }

    @Test func aFileReachedTwiceLoadsOnce() throws {
        let directory = try FixtureBuilder.directory([.good])
        let links = TestPaths.temporaryDirectory("links")
        try FileManager.default.createSymbolicLink(at: links.appendingPathComponent("libalias.so"),
                                                   withDestinationURL: directory.appendingPathComponent("libgood.so"))
        let entry = SearchPathEntry(path: directory.path, origin: .flag)
        let registry = PresenterRegistry.load([entry, entry, SearchPathEntry(path: links.path, origin: .env)])
        #expect(registry.plugins.map(\.id) == ["fixture.good"])
        #expect(registry.errors == [])
    }

    @Test func anExtensionCycleIsReportedForEachMember() throws {
        let (registry, _) = try load([.cycleA, .cycleB, .good])
        #expect(registry.plugins.map(\.id) == ["fixture.good"])
        #expect(Set(registry.errors.map(\.failure)) == [
            .extensionCycle(id: "fixture.cycle-a", cycle: ["fixture.cycle-a", "fixture.cycle-b", "fixture.cycle-a"]),
            .extensionCycle(id: "fixture.cycle-b", cycle: ["fixture.cycle-b", "fixture.cycle-a", "fixture.cycle-b"]),
        ])
    }

    @Test func aPresenterWhoseBaseIsBrokenIsReportedAgainstThatBase() throws {
        let (registry, _) = try load([.baseNotFound, .baseBroken])
        #expect(registry.plugins.isEmpty)
        #expect(Set(registry.errors.map(\.failure)) == [
            .baseNotFound(id: "fixture.orphan", base: "fixture.no-such-base"),
            .baseUnavailable(id: "fixture.orphan-child", base: "fixture.orphan"),
        ])
    }

    @Test func missingDirectoriesAreSkippedSilently() throws {
        let registry = PresenterRegistry.load([SearchPathEntry(path: "/nonexistent/presenter-host-test", origin: .flag)])
        #expect(registry.plugins.isEmpty)
        #expect(registry.errors.isEmpty)
        #expect(registry.searchPath.count == 1)
    }

    @Test func theBundledDirectoryOffersOnlyTheBundledNames() throws {
        let directory = try FixtureBuilder.directory([.good, .text])
        try FileManager.default.copyItem(at: FixtureBuilder.library(.twoPresenters),
                                         to: directory.appendingPathComponent("libMBHud.so"))
        let registry = PresenterRegistry.load([SearchPathEntry(path: directory.path, origin: .bundled)])
        #expect(registry.plugins.map(\.id) == ["fixture.base", "fixture.derived"])
        #expect(registry.errors.isEmpty)
    }

    @Test func chainIsNilWhenABaseIsMissingOrLoops() {
        func plugin(_ id: String, extends: String?) -> PresenterPlugin {
            PresenterPlugin(id: id, name: id, version: "1", description: nil, author: nil, license: nil,
                            extends: extends, capabilities: [], abiVersion: .host, path: "/x", hooks: .init())
        }
        let registry = PresenterRegistry(plugins: [plugin("a", extends: "b"), plugin("b", extends: "a"),
                                                   plugin("c", extends: "gone"), plugin("d", extends: nil)])
        #expect(registry.chain(for: "a") == nil)
        #expect(registry.chain(for: "c") == nil)
        #expect(registry.chain(for: "d")?.map(\.id) == ["d"])
    }

    @Test func theCExamplePresenterCompilesAndLoads() throws {
        let example = TestPaths.packageRoot.appendingPathComponent("Examples/c-presenter/hello_presenter.c")
        let directory = TestPaths.temporaryDirectory("c-example")
        try FixtureBuilder.compile(example, to: directory.appendingPathComponent("libhello_presenter.so"),
                                   flags: ["-Wextra", "-Werror", "-pedantic"])
        let registry = PresenterRegistry.load([SearchPathEntry(path: directory.path, origin: .flag)])
        #expect(registry.errors == [])
        let plugin = try #require(registry.plugin(id: "example.hello"))
        #expect(plugin.extends == nil)
        #expect(plugin.capabilities == [.messages])
        #expect(plugin.hooks.presentNames == ["create", "destroy", "show", "hide", "render"])
    }

    @Test func theABIDocumentShowsTheCExampleVerbatim() throws {
        let document = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/ABI.md"), encoding: .utf8)
        let example = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Examples/c-presenter/hello_presenter.c"),
                                 encoding: .utf8)
        #expect(document.contains("```c\n" + example + "```\n"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "needs make"))
    func theCExampleMakefileBuildsALoadablePlugin() throws {
        let directory = TestPaths.temporaryDirectory("c-example-make")
        for name in ["hello_presenter.c", "Makefile"] {
            try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Examples/c-presenter/\(name)"),
                                             to: directory.appendingPathComponent(name))
        }
        let make = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/make"),
                                         ["-s", "-C", directory.path, "PRESENTER_ABI_INCLUDE=\(TestPaths.abiInclude.path)"])
        try #require(make.status == 0, "\(make.stderr)")
        let registry = PresenterRegistry.load([SearchPathEntry(path: directory.path, origin: .flag)])
        #expect(registry.errors == [])
        #expect(registry.plugins.map(\.id) == ["example.hello"])
    }

    @Test func theSwiftExamplePresenterLoads() throws {
        let directory = TestPaths.temporaryDirectory("swift-example")
        let library = directory.appendingPathComponent("libSwiftExamplePresenter.so")
        try FileManager.default.createSymbolicLink(at: library, withDestinationURL: TestPaths.library("SwiftExamplePresenter"))
        let registry = PresenterRegistry.load([SearchPathEntry(path: directory.path, origin: .flag)])
        #expect(registry.errors == [])
        #expect(!registry.plugins.isEmpty)
        #expect(registry.plugins.allSatisfy { $0.path == library.path && $0.abiVersion == .host })
    }
}
