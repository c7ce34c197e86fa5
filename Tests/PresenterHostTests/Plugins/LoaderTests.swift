import Foundation
import Glibc
import PresenterABI
import Testing
@testable import HostPlugins

/// The loader on real files: fixtures compiled from C, dlopened in this process.
@Suite struct LoaderTests {
    /// Loads `fixtures` from one fresh directory.
    private func load(_ fixtures: [Fixture]) throws -> (registry: PresenterRegistry, directory: URL) {
        let directory = try FixtureBuilder.directory(fixtures)
        return (RegistryPipeline().load([SearchPathEntry(path: directory.path, origin: .flag)]), directory)
    }

    /// Every chain at once is what each chain alone is: a chain of three, a
    /// base missing, a cycle, and an id twice (the first one counts, as
    /// `plugin(id:)` finds it) whose second copy would close a cycle.
    @Test func everyChainAtOnceIsEachChainAlone() {
        func plugin(_ id: String, extends base: String? = nil, name: String = "") -> PresenterPlugin {
            PresenterPlugin(
                id: id, name: name, version: "1", description: nil, author: nil, license: nil, extends: base,
                capabilities: [], abiVersion: .host, file: "/d/lib\(id).so", hookNames: [], source: .loaded)
        }
        let registry = PresenterRegistry(plugins: [
            plugin("top", extends: "middle"), plugin("middle", extends: "base"), plugin("base"),
            plugin("orphan", extends: "gone"), plugin("ping", extends: "pong"), plugin("pong", extends: "ping"),
            plugin("twice", name: "first"), plugin("twice", extends: "top", name: "second"),
        ])
        let chains = registry.chains()
        for id in ["top", "middle", "base", "orphan", "ping", "pong", "twice", "gone"] {
            #expect(chains[id]?.map(\.id) == registry.chain(for: id)?.map(\.id), "\(id)")
            #expect(chains[id]?.map(\.name) == registry.chain(for: id)?.map(\.name), "\(id)")
        }
        #expect(chains["top"]?.map(\.id) == ["top", "middle", "base"])
        #expect(chains["twice"]?.map(\.name) == ["first"])
        #expect(Set(chains.keys) == ["top", "middle", "base", "twice"])
    }

    /// The ELF checks read each field in the file's byte order, of 1 to 8
    /// bytes, and a field past the end of what was read as 0 (the checks
    /// then refuse the file with a reason instead of reading out of bounds).
    @Test func fieldsAreReadInTheFilesByteOrder() {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xFF]
        #expect(ELFPrecheck.integer(bytes, at: 0, size: 2, bigEndian: false) == 0x0201)
        #expect(ELFPrecheck.integer(bytes, at: 0, size: 2, bigEndian: true) == 0x0102)
        #expect(ELFPrecheck.integer(bytes, at: 1, size: 4, bigEndian: false) == 0x0504_0302)
        #expect(ELFPrecheck.integer(bytes, at: 1, size: 4, bigEndian: true) == 0x0203_0405)
        #expect(ELFPrecheck.integer(bytes, at: 1, size: 8, bigEndian: false) == 0xFF08_0706_0504_0302)
        #expect(ELFPrecheck.integer(bytes, at: 0, size: 8, bigEndian: true) == 0x0102_0304_0506_0708)
        #expect(ELFPrecheck.integer(bytes, at: 8, size: 1, bigEndian: true) == 0xFF)
        #expect(ELFPrecheck.integer(bytes, at: 2, size: 8, bigEndian: false) == 0)
        #expect(ELFPrecheck.integer(bytes, at: 9, size: 1, bigEndian: false) == 0)
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
        #expect(plugin.hookNames == ["show", "render"])
        // Loaded (as an engine does, by file and index), its hooks are
        // there, and the descriptor itself is kept for create, which receives it.
        let loaded = try PluginLibrary.load(plugin.file, policy: .strict)[plugin.index].get()
        #expect(loaded.plugin.id == plugin.id && loaded.hooks.presentNames == ["show", "render"])
        #expect(loaded.descriptor?.pointer.pointee.struct_size == UInt32(MemoryLayout<presenter_descriptor>.size))
    }

    @Test func oneLibraryHoldsTwoPresentersAndTheChainLinksThem() throws {
        let (registry, _) = try load([.twoPresenters])
        #expect(registry.errors == [])
        #expect(registry.plugins.map(\.id) == ["fixture.base", "fixture.derived"])
        #expect(registry.chain(for: "fixture.derived")?.map(\.id) == ["fixture.derived", "fixture.base"])
        #expect(registry.chain(for: "fixture.base")?.map(\.id) == ["fixture.base"])
        #expect(registry.chain(for: "fixture.none") == nil)
        #expect(registry.plugin(id: "fixture.derived")?.hookNames == ["show"])
    }

    /// Each broken file: one error, for its file, with the expected reason; nothing loaded.
    @Test(arguments: [
        (Fixture.directory, "is a directory, not a shared library"),
        (.danglingLink, "is a dangling symbolic link to 'libnothing-here.so'; fix or remove the link"),
        (.symlinkLoop, "is a symbolic link loop (it leads back to itself); fix or remove the link"),
        (.socket, "is a socket, not a shared library file; remove it from the plugin directory"),
        (.nonUTF8Name, "file name is not valid UTF-8; rename it"),
        (.empty, "is empty, not an ELF shared library"),
        (.text, "is a text file, not an ELF shared library; remove it from the plugin directory"),
        (.randomBytes, "is not an ELF shared library (no ELF magic number)"),
        (.truncated, "truncated: segment "),
        (.cutInProgramHeaders, "truncated: the program headers end at byte "),
        (.programHeadersPastEnd, "truncated: the program headers end at byte 1099511"),
        (
            .otherArchitecture,
            "built for \(FixtureBuilder.architectureNames.plugin), this host is \(FixtureBuilder.architectureNames.host); rebuild it for this host"
        ),
        (.thirtyTwoBit, "built for 32-bit "),
        (.byteOrder, "built for big-endian machines, this host is little-endian; rebuild it for this host"),
        (.executable, "is an executable, not a shared library; link it with -shared"),
        (.positionIndependentExecutable, "is an executable, not a shared library; link it with -shared"),
        (.missingDependency, "libfixturedep.so: cannot open shared object file"),
        (.undefinedSymbol, "undefined symbol: fixture_symbol_nobody_defines"),
        (.noEntryPoint, "not a presenter plugin: no presenter_plugin_descriptor symbol"),
        (.nullEntryPoint, "entry point returns no presenter"),
        (.endlessEntryPoint, "entry point returned more than 256 presenters"),
        (.abiMajor, "built for ABI 2.\(PRESENTER_ABI_MINOR), this host supports 1.x (1.\(PRESENTER_ABI_MINOR))"),
        (
            .newerMinor,
            "presenter 'fixture.newer-minor': built for ABI 1.5, this host supports 1.4; update presenter-host"
        ),
        (.sizeTooSmall, "struct_size is 24 bytes, smaller than the ABI 1.0 descriptor"),
        (.sizeTooLarge, "struct_size is 100000 bytes, more than 65536: the descriptor is corrupt"),
        (.missingId, "id is missing (NULL)"),
        (.uppercaseId, "invalid id 'Fixture.Upper'"),
        (.longId, "id is longer than 64 bytes"),
        (.invalidExtends, "presenter 'fixture.bad-extends': invalid extends 'Not An Id'"),
        (.missingName, "presenter 'fixture.no-name': name is missing (NULL)"),
        (.emptyName, "presenter 'fixture.empty-name': name is empty"),
        (.missingVersion, "version is missing (NULL)"),
        (.invalidUTF8, "name is not valid UTF-8"),
        (.controlCharacter, "name contains a control or bidirectional formatting character"),
        (.bidiCharacter, "presenter 'fixture.bidi': name contains a control or bidirectional formatting character"),
        (.longName, "name is longer than 128 bytes; shorten it"),
        (.longVersion, "version is longer than 64 bytes; shorten it"),
        (.longDescription, "description is longer than 512 bytes; shorten it"),
        (.longAuthor, "author is longer than 256 bytes; shorten it"),
        (.longLicense, "license is longer than 128 bytes; shorten it"),
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
        // Every fixture that is refused with one error of its own, and can be loaded in this process
        // (the chain across files loads as two good files together).
        let broken = Fixture.allCases.filter {
            !Fixture.usable.contains($0) && !Fixture.hostile.contains($0) && !Fixture.describedHostile.contains($0)
                && ![.unreadable, .duplicate, .sameIdTwice, .chainOne, .chainTwo].contains($0)
        }
        let (registry, _) = try load(broken + [.good, .twoPresenters])
        #expect(registry.plugins.map(\.id).sorted() == ["fixture.base", "fixture.derived", "fixture.good"])
        // One line per broken file, naming it.
        #expect(registry.errors.count == broken.count)
        #expect(
            Set(registry.errors.map { URL(fileURLWithPath: $0.path).lastPathComponent }) == Set(broken.map(\.fileName)))
    }

    @Test func theFirstPresenterWithAnIdWinsAndTheLaterIsShadowed() throws {
        let first = try FixtureBuilder.directory([.good])
        let second = try FixtureBuilder.directory([.duplicate])
        let registry = RegistryPipeline().load([
            SearchPathEntry(path: first.path, origin: .flag),
            SearchPathEntry(path: second.path, origin: .env),
        ])
        let winner = first.appendingPathComponent("libgood.so").path
        let loser = second.appendingPathComponent("libduplicate.so").path
        #expect(registry.plugins.map(\.path) == [winner])
        #expect(
            registry.errors == [
                PluginLoadError(path: loser, failure: .resolution(.shadowed(id: "fixture.good", by: winner)))
            ])
        #expect(registry.errors[0].reason.contains(winner))
    }

    @Test func aFileReachedTwiceLoadsOnce() throws {
        // A link in the directory to a file in it, the directory twice, and
        // the directory again through a link to it (lib64 -> lib).
        let directory = try FixtureBuilder.directory([.good])
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("libalias.so").path,
            withDestinationPath: "libgood.so")
        let alias = TestPaths.temporaryDirectory("lib64").appendingPathComponent("lib64")
        try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: directory)
        let entry = SearchPathEntry(path: directory.path, origin: .flag)
        let registry = RegistryPipeline().load([entry, entry, SearchPathEntry(path: alias.path, origin: .env)])
        #expect(registry.plugins.map(\.id) == ["fixture.good"])
        #expect(registry.plugins.map(\.path) == [directory.appendingPathComponent("libalias.so").path])
        #expect(registry.errors == [])
    }

    @Test func anExtensionCycleIsReportedForEachMember() throws {
        let (registry, _) = try load([.cycleA, .cycleB, .good])
        #expect(registry.plugins.map(\.id) == ["fixture.good"])
        #expect(
            Set(registry.errors.map(\.failure)) == [
                .resolution(
                    .extensionCycle(
                        id: "fixture.cycle-a", cycle: ["fixture.cycle-a", "fixture.cycle-b", "fixture.cycle-a"])),
                .resolution(
                    .extensionCycle(
                        id: "fixture.cycle-b", cycle: ["fixture.cycle-b", "fixture.cycle-a", "fixture.cycle-b"])),
            ])
    }

    @Test func aPresenterWhoseBaseIsBrokenIsReportedAgainstThatBase() throws {
        let (registry, directory) = try load([.baseNotFound, .baseBroken])
        #expect(registry.plugins.isEmpty)
        let orphan = directory.appendingPathComponent(Fixture.baseNotFound.fileName).path
        #expect(
            registry.errors.map(\.failure) == [
                .resolution(.baseUnavailable(id: "fixture.orphan-child", base: "fixture.orphan", path: orphan)),
                .resolution(.baseNotFound(id: "fixture.orphan", base: "fixture.no-such-base")),
            ])
        #expect(
            registry.errors[0].reason
                == "presenter 'fixture.orphan-child' extends 'fixture.orphan', which did not load (see the error for \(orphan)); fix that first"
        )
    }

    /// A base refused for its descriptor still has a readable id: its child
    /// is told the base did not load, not that it was not found.
    @Test(arguments: [
        (Fixture.childOfNameless, Fixture.missingName, "fixture.no-name"),
        (.childOfNewer, .newerMinor, "fixture.newer-minor"),
    ])
    func aChildOfABaseRefusedForItsDescriptorPointsAtThatBase(child: Fixture, base: Fixture, baseId: String) throws {
        let (registry, directory) = try load([child, base])
        #expect(registry.plugins.isEmpty)
        let basePath = directory.appendingPathComponent(base.fileName).path
        let childError = try #require(registry.errors.first { $0.path.hasSuffix(child.fileName) })
        #expect(childError.reason.contains("extends '\(baseId)', which did not load (see the error for \(basePath))"))
        #expect(!childError.reason.contains("not found"))
    }

    @Test func aBrokenPresenterDoesNotShadowAGoodOneWithTheSameId() throws {
        // A fake mbhud first in the search path, extending a base that does not exist, and the bundled plugins.
        let fake = try FixtureBuilder.directory([.fakeMBHud])
        let registry = RegistryPipeline().load([
            SearchPathEntry(path: fake.path, origin: .flag),
            SearchPathEntry(path: TestPaths.products.path, origin: .bundled),
        ])
        #expect(registry.plugin(id: "mbhud")?.path == TestPaths.library("MBHud").path)
        #expect(registry.chain(for: "addbookmark")?.map(\.id) == ["addbookmark", "mbhud"])
        #expect(
            registry.errors == [
                PluginLoadError(
                    path: fake.appendingPathComponent(Fixture.fakeMBHud.fileName).path,
                    failure: .resolution(.baseNotFound(id: "mbhud", base: "fixture.no-such-base")))
            ])
    }

    @Test func anIdRepeatedInOneLibraryIsNotCalledShadowed() throws {
        let (registry, directory) = try load([.sameIdTwice])
        #expect(registry.plugins.map(\.name) == ["First"])
        #expect(
            registry.errors.map(\.description) == [
                "\(directory.path)/libsame-id-twice.so: descriptor 1 repeats id 'fixture.twice' of descriptor 0 in the same file; give each presenter its own id"
            ])
    }

    /// Both fixtures export fixture_local_name() and name their presenter
    /// with it. Opened RTLD_GLOBAL, the first would provide the second's.
    @Test func eachLibraryBindsToItsOwnSymbols() throws {
        let (registry, _) = try load([.localOne, .localTwo])
        #expect(registry.errors == [])
        #expect(registry.plugin(id: "fixture.local-one")?.name == "Local One")
        #expect(registry.plugin(id: "fixture.local-two")?.name == "Local Two")
    }

    @Test func aCxxPresenterLoads() throws {
        let (registry, _) = try load([.cxx])
        #expect(registry.errors == [])
        let plugin = try #require(registry.plugin(id: "fixture.cxx"))
        #expect(plugin.name == "C++ Fixture")
        #expect(plugin.capabilities == [.messages])
        #expect(plugin.hookNames == ["create", "destroy", "show", "hide"])
    }

    @Test func missingDirectoriesAreSkippedWithoutErrors() throws {
        let registry = RegistryPipeline().load([
            SearchPathEntry(path: "/nonexistent/presenter-host-test", origin: .flag),
            SearchPathEntry(path: "/nonexistent/presenter-host-user", origin: .user),
        ])
        #expect(registry.plugins.isEmpty)
        #expect(registry.errors.isEmpty)
        #expect(registry.searchPath.count == 2)
        // The user hears about the one they named, and only that one (SearchPath's warnings).
        let warnings = SearchPath.resolve(
            pluginDirs: ["/nonexistent/presenter-host-test"],
            environment: ["XDG_DATA_HOME": "/nonexistent/presenter-host-user"],
            executablePath: "/nonexistent/bin/presenter-host"
        ).warnings
        #expect(
            warnings == [
                "presenter-host: warning: --plugin-dir /nonexistent/presenter-host-test: no such directory; check the path"
            ])
    }

    @Test func theBundledDirectoryOffersOnlyTheBundledNames() throws {
        let directory = try FixtureBuilder.directory([.good, .text])
        try FileManager.default.copyItem(
            at: FixtureBuilder.library(.twoPresenters),
            to: directory.appendingPathComponent("libMBHud.so"))
        let registry = RegistryPipeline().load([SearchPathEntry(path: directory.path, origin: .bundled)])
        #expect(registry.plugins.map(\.id) == ["fixture.base", "fixture.derived"])
        #expect(registry.errors.isEmpty)
    }

    @Test func chainIsNilWhenABaseIsMissingOrLoops() {
        let registry = PresenterRegistry(plugins: [
            plugin("a", extends: "b"), plugin("b", extends: "a"),
            plugin("c", extends: "gone"), plugin("d", extends: nil),
        ])
        #expect(registry.chain(for: "a") == nil)
        #expect(registry.chain(for: "c") == nil)
        #expect(registry.chain(for: "d")?.map(\.id) == ["d"])
    }

    /// `resolve` is the one lookup of a presenter a command was asked for:
    /// its chain, or the line that says why there is none.
    @Test func resolveGivesTheChainOrTheReasonThereIsNone() throws {
        let refused = PluginLoadError(
            path: "/p/libx.so", failure: .resolution(.baseNotFound(id: "x", base: "gone")))
        let registry = PresenterRegistry(
            plugins: [plugin("top", extends: "base"), plugin("base", extends: nil)], errors: [refused])
        #expect(try registry.resolve("top").plugins.map(\.id) == ["top", "base"])
        #expect(try registry.resolve("top").id == "top")
        let refusal = #expect(throws: UnknownPresenter.self) { try registry.resolve("x") }
        #expect(refusal?.description == refused.explaining(presenter: "x"))
        let unknown = #expect(throws: UnknownPresenter.self) { try registry.resolve("nope") }
        #expect(
            unknown?.description
                == "no presenter 'nope' (available: base, top); 1 plugin file failed to load: /p/libx.so (\(refused.reason)); see presenter-host --list"
        )
        let none = #expect(throws: UnknownPresenter.self) { try PresenterRegistry(plugins: []).resolve("nope") }
        #expect(none?.description == "no presenter 'nope' (none were found); see presenter-host --list")
    }

    /// An id no usable presenter has may be in a file refused before its id
    /// was read: the error names the failed files (each once, with its first
    /// reason, its path escaped as `--list` escapes it), three of them, then
    /// how many more.
    @Test func anUnknownIdNamesTheFilesThatFailed() throws {
        let problem = PluginLoadFailure.descriptor(
            index: nil, id: nil, .abiMajor(plugin: ABIVersion(major: 2, minor: 0)))
        let paths = ["/p/a\u{1B}[2J.so", "/p/b.so", "/p/c.so", "/p/d.so", "/p/e.so"]
        var errors = paths.map { PluginLoadError(path: $0, failure: .loading(problem)) }
        errors.insert(PluginLoadError(path: "/p/a\u{1B}[2J.so", failure: .loading(.noPresenter)), at: 1)
        let registry = PresenterRegistry(plugins: [plugin("base", extends: nil)], errors: errors)
        let unknown = #expect(throws: UnknownPresenter.self) { try registry.resolve("fixture.x") }
        let reason = errors[0].reason
        #expect(
            unknown?.description
                == "no presenter 'fixture.x' (available: base); 5 plugin files failed to load: /p/a\\x1B[2J.so (\(reason)), /p/b.so (\(reason)), /p/c.so (\(reason)) and 2 more; see presenter-host --list"
        )
        let one = PresenterRegistry(plugins: [], errors: Array(errors.suffix(1)))
        let single = #expect(throws: UnknownPresenter.self) { try one.resolve("fixture.x") }
        #expect(
            single?.description
                == "no presenter 'fixture.x' (none were found); 1 plugin file failed to load: /p/e.so (\(reason)); see presenter-host --list"
        )
    }

    @Test func theCExamplePresenterCompilesAndLoads() throws {
        let example = TestPaths.packageRoot.appendingPathComponent("Examples/c-presenter/hello_presenter.c")
        let directory = TestPaths.temporaryDirectory("c-example")
        try FixtureBuilder.compile(
            example, to: directory.appendingPathComponent("libhello_presenter.so"),
            flags: ["-Wextra", "-Werror", "-pedantic"])
        let registry = RegistryPipeline().load([SearchPathEntry(path: directory.path, origin: .flag)])
        #expect(registry.errors == [])
        let plugin = try #require(registry.plugin(id: "example.hello"))
        #expect(plugin.extends == nil)
        #expect(plugin.capabilities == [.messages])
        #expect(plugin.hookNames == ["create", "destroy", "show", "hide", "render"])
    }

    @Test func theABIDocumentShowsTheCExampleVerbatim() throws {
        let document = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/ABI.md"), encoding: .utf8)
        let example = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("Examples/c-presenter/hello_presenter.c"),
            encoding: .utf8)
        #expect(document.contains("```c\n" + example + "```\n"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "needs make"))
    func theCExampleMakefileBuildsALoadablePlugin() throws {
        let directory = TestPaths.temporaryDirectory("c-example-make")
        for name in ["hello_presenter.c", "Makefile"] {
            try FileManager.default.copyItem(
                at: TestPaths.packageRoot.appendingPathComponent("Examples/c-presenter/\(name)"),
                to: directory.appendingPathComponent(name))
        }
        let make = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/make"),
            ["-s", "-C", directory.path, "PRESENTER_ABI_INCLUDE=\(TestPaths.abiInclude.path)"])
        try #require(make.status == 0, "\(make.stderr)")
        let registry = RegistryPipeline().load([SearchPathEntry(path: directory.path, origin: .flag)])
        #expect(registry.errors == [])
        #expect(registry.plugins.map(\.id) == ["example.hello"])
    }

    @Test func theSwiftExamplePresenterLoads() throws {
        let directory = TestPaths.temporaryDirectory("swift-example")
        let library = directory.appendingPathComponent("libSwiftExamplePresenter.so")
        try FileManager.default.copyItem(at: TestPaths.library("SwiftExamplePresenter"), to: library)
        let registry = RegistryPipeline().load([SearchPathEntry(path: directory.path, origin: .flag)])
        #expect(registry.errors == [])
        #expect(!registry.plugins.isEmpty)
        #expect(registry.plugins.allSatisfy { $0.path == library.path && $0.abiVersion == .host })
    }
}

/// A presenter with no hooks, from no file: for the registry's own logic.
private func plugin(_ id: String, extends: String?) -> PresenterPlugin {
    PresenterPlugin(
        id: id, name: id, version: "1", description: nil, author: nil, license: nil,
        extends: extends, capabilities: [], abiVersion: .host, file: "/x", hookNames: [], source: .loaded)
}
