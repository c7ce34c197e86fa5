import Foundation
import Glibc
import Testing
@testable import HostSystem
@testable import HostText
@testable import HostPlugins

/// The search path and the directory walk.
@Suite struct DiscoveryTests {
    private var cwd: String { FileManager.default.currentDirectoryPath }

    @Test func theSearchPathFollowsTheDocumentedOrder() {
        let (entries, warnings) = SearchPath.resolve(
            pluginDirs: ["mine", "/abs/flag/"],
            environment: [
                "PRESENTER_PLUGIN_PATH": "/env/one:relative/two::/env/three/", "XDG_DATA_HOME": "/xdg",
                "HOME": "/home/someone",
            ],
            executablePath: "/opt/ph/bin/presenter-host")
        #expect(
            entries == [
                SearchPathEntry(path: cwd + "/mine", origin: .flag),
                SearchPathEntry(path: "/abs/flag", origin: .flag),
                SearchPathEntry(path: "/env/one", origin: .env),
                SearchPathEntry(path: "/env/three", origin: .env),
                SearchPathEntry(path: "/xdg/presenter-host/plugins", origin: .user),
                SearchPathEntry(path: "/opt/ph/lib/presenter-host/plugins", origin: .system),
                SearchPathEntry(path: "/opt/ph/bin", origin: .bundled),
            ])
        // None of these directories exists: the ones the user named are each warned about.
        #expect(
            warnings == [
                "presenter-host: warning: ignoring relative entry 'relative/two' in PRESENTER_PLUGIN_PATH; use an absolute path",
                "presenter-host: warning: ignoring an empty entry in PRESENTER_PLUGIN_PATH; separate absolute directories with single colons",
                "presenter-host: warning: --plugin-dir \(cwd)/mine: no such directory; check the path",
                "presenter-host: warning: --plugin-dir /abs/flag: no such directory; check the path",
                "presenter-host: warning: PRESENTER_PLUGIN_PATH entry /env/one: no such directory; check the path",
                "presenter-host: warning: PRESENTER_PLUGIN_PATH entry /env/three: no such directory; check the path",
            ])
    }

    /// The Debian package's layout: /usr/bin/presenter-host links to
    /// /usr/lib/presenter-host/presenter-host, whose plugins/ is the system
    /// folder and, for --bundled-only, the bundled one; the path prints it once.
    @Test func inThePackagesLayoutThePluginsFolderIsTheSystemAndTheBundledOne() {
        let entries = SearchPath.resolve(
            pluginDirs: [], environment: ["XDG_DATA_HOME": "/xdg"],
            executablePath: "/usr/lib/presenter-host/presenter-host"
        ).entries
        #expect(
            entries == [
                SearchPathEntry(path: "/xdg/presenter-host/plugins", origin: .user),
                SearchPathEntry(path: "/usr/lib/presenter-host/plugins", origin: .system),
                SearchPathEntry(path: "/usr/lib/presenter-host/plugins", origin: .bundled),
            ])
        #expect(
            SearchPath.directories(entries) == ["/xdg/presenter-host/plugins", "/usr/lib/presenter-host/plugins"])
        // Another folder named presenter-host is no such layout.
        let elsewhere = SearchPath.resolve(
            pluginDirs: [], environment: [:], executablePath: "/home/me/presenter-host/presenter-host"
        ).entries.filter { $0.origin != .user }
        #expect(elsewhere == [SearchPathEntry(path: "/home/me/presenter-host", origin: .bundled)])
    }

    @Test func anEmptyEnvironmentVariableIsNoEntryAndNoWarning() {
        let (entries, warnings) = SearchPath.resolve(
            pluginDirs: [], environment: ["PRESENTER_PLUGIN_PATH": ""],
            executablePath: "/nonexistent/presenter-host")
        #expect(!entries.contains { $0.origin == .env })
        #expect(warnings.isEmpty)
    }

    @Test func aPluginDirThatIsNotAUsableDirectoryGetsOneClearWarning() throws {
        let plugin = try FixtureBuilder.library(.good).path
        let warnings = SearchPath.resolve(
            pluginDirs: [plugin, "/etc/hostname", "/nonexistent-plugins"],
            environment: ["PRESENTER_PLUGIN_PATH": plugin],
            executablePath: "/nonexistent/bin/presenter-host"
        ).warnings
        #expect(
            warnings == [
                "presenter-host: warning: --plugin-dir \(plugin): is a file, not a directory; give the directory that holds it",
                "presenter-host: warning: --plugin-dir /etc/hostname: is a file, not a directory; give the directory that holds it",
                "presenter-host: warning: --plugin-dir /nonexistent-plugins: no such directory; check the path",
                "presenter-host: warning: PRESENTER_PLUGIN_PATH entry \(plugin): is a file, not a directory; give the directory that holds it",
            ])
    }

    @Test func theStatusOfAnEntryTellsMissingFromNotADirectory() throws {
        let directory = TestPaths.temporaryDirectory("status")
        #expect(SearchPathEntry(path: directory.path, origin: .flag).status() == .directory)
        #expect(SearchPathEntry(path: directory.path + "/none", origin: .flag).status() == .missing)
        #expect(SearchPathEntry(path: "/etc/hostname/below", origin: .flag).status() == .missing)
        #expect(SearchPathEntry(path: "/etc/hostname", origin: .flag).status() == .notDirectory)
        #expect(SearchPathEntry.Status.unreadable("Permission denied").label == "unreadable")
        #expect(SearchPathEntry.Status.notDirectory.label == "not a directory")
        // A default directory that is missing is normal: no warning.
        #expect(SearchPathEntry(path: directory.path + "/none", origin: .user).warning == nil)
    }

    @Test func theUserDirectoryDefaultsToHomeAndIgnoresARelativeXDGDataHome() throws {
        for environment in [["HOME": "/home/someone"], ["HOME": "/home/someone", "XDG_DATA_HOME": "relative"]] {
            let entries = SearchPath.resolve(
                pluginDirs: [], environment: environment, executablePath: "/x/presenter-host"
            ).entries
            #expect(
                entries.filter { $0.origin == .user }.map(\.path) == [
                    "/home/someone/.local/share/presenter-host/plugins"
                ])
        }
        // No HOME, or an empty or relative one: the user database's home.
        let home = UserAccount.homeDirectory()
        try #require(home.hasPrefix("/"))
        for environment in [[:], ["HOME": ""], ["HOME": "relative"]] {
            let homeless = SearchPath.resolve(
                pluginDirs: [], environment: environment, executablePath: "/x/presenter-host"
            )
            .entries
            #expect(
                homeless.filter { $0.origin == .user }.map(\.path) == [home + "/.local/share/presenter-host/plugins"])
        }
    }

    @Test func theSystemDirectoryNeedsAnExecutableInABinDirectory() {
        let entries = SearchPath.resolve(
            pluginDirs: [], environment: [:], executablePath: "/work/.build/debug/presenter-host"
        ).entries.filter { $0.origin != .user }
        #expect(entries == [SearchPathEntry(path: "/work/.build/debug", origin: .bundled)])
    }

    @Test func theCurrentDirectoryIsNeverSearchedImplicitly() {
        let entries = SearchPath.resolve(
            pluginDirs: [], environment: ["HOME": "/home/someone", "PRESENTER_PLUGIN_PATH": ".:"],
            executablePath: nil
        ).entries
        #expect(!entries.contains { $0.path == cwd || $0.path == "." })
    }

    @Test func withoutAnExecutablePathTheBundledDirectoryIsThisProcesssOwn() throws {
        let entries = SearchPath.resolve(pluginDirs: [], environment: [:], executablePath: nil).entries
        let bundled = try #require(entries.last)
        #expect(bundled.origin == .bundled)
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(bundled.path == URL(fileURLWithPath: exe).deletingLastPathComponent().path)
    }

    @Test func candidatesAreSharedObjectsSortedByName() throws {
        let directory = TestPaths.temporaryDirectory("walk")
        for name in ["libb.so", "liba.so", "libc.so.1", ".hidden.so", "notes.txt", "libZ.so"] {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data())
        }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("dir.so"), withIntermediateDirectories: false)
        let names = PluginDirectory.candidates(in: SearchPathEntry(path: directory.path, origin: .flag))
            .map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(names == ["dir.so", "libZ.so", "liba.so", "libb.so"])
    }

    /// Bytewise order, as strcmp's: a name before the longer name it
    /// starts, `.` (0x2E) before letters, and a byte past ASCII (`é` is
    /// 0xC3 0xA9) after them all; and the walk keeps names made of dots
    /// other than `.` and `..` (`...`), which are entries like any other.
    @Test func candidatesAreInBytewiseOrderAndOnlyDotAndDotDotAreLeftOut() throws {
        let directory = TestPaths.temporaryDirectory("order")
        for name in ["libé.so", "liba.so.so", "lib.so", "liba.so", "libz.so", "...", "..so"] {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data())
        }
        let names = PluginDirectory.candidates(in: SearchPathEntry(path: directory.path, origin: .flag))
            .map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(names == ["lib.so", "liba.so", "liba.so.so", "libz.so", "libé.so"])
        let entries = try DirectoryEntries.names(in: directory.path).map { String(decoding: $0, as: UTF8.self) }
        #expect(Set(entries) == ["libé.so", "liba.so.so", "lib.so", "liba.so", "libz.so", "...", "..so"])
    }

    /// A search-path entry spelled with a composed é (C3 A9) that links to
    /// the folder spelled with e and a combining accent (65 CC 81): two
    /// folders to the system, one string to Swift's `==`. The file is named
    /// by the real folder's bytes, as the policy checked it, not by the
    /// link's spelling.
    @Test func aFolderReachedThroughALinkIsNamedByItsRealBytes() throws {
        let root = TestPaths.temporaryDirectory("spelling").path
        let decomposed = root + "/cafe\u{301}", composed = root + "/caf\u{E9}"
        try FileManager.default.createDirectory(atPath: decomposed, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: composed, withDestinationPath: decomposed)
        _ = FileManager.default.createFile(atPath: decomposed + "/liba.so", contents: Data())
        let resolved = try #require(realpath(decomposed, nil))
        defer { free(resolved) }
        let expected = String(cString: resolved) + "/liba.so"
        let files = DiscoveredFile.all(
            on: [SearchPathEntry(path: composed, origin: .flag)], policy: PluginPolicy(allowInsecure: true))
        let file = try #require(files.first).checked.get()
        #expect(Array(file.path.utf8) == Array(expected.utf8))
    }

    @Test func aNameThatIsNotUTF8IsACandidateRefusedByItsName() throws {
        let directory = TestPaths.temporaryDirectory("names")
        try FixtureBuilder.write(
            Data(), toRawPath: Array(directory.path.utf8) + Array("/lib\u{1}".utf8) + [0xC3, 0x28] + Array(".so".utf8))
        try FixtureBuilder.write(Data(), toRawPath: Array(directory.path.utf8) + Array("/libé.so".utf8))
        let candidates = PluginDirectory.candidates(in: SearchPathEntry(path: directory.path, origin: .flag))
        #expect(
            candidates == [
                .init(path: directory.path + "/lib\u{1}\\xC3(.so", problem: .nameNotUTF8),
                .init(path: directory.path + "/libé.so", problem: nil),
            ])
    }

    @Test func printedTextStaysOnOneLine() {
        #expect(PrintableText.escaping("/plugins/lib\nnew\tline.so") == "/plugins/lib\\nnew\\tline.so")
        #expect(PrintableText.escaping("a\u{1B}[31mred\u{7F}\u{85}") == "a\\x1B[31mred\\x7F\\x85")
        #expect(PrintableText.escaping("evil\u{202E}os.txt") == "evil\\u{202E}os.txt")
        #expect(PrintableText.escaping("/ok/進捗 é\\x.so") == "/ok/進捗 é\\x.so")
    }

    @Test func aSymbolicLinkLoopIsNotCalledDangling() throws {
        let directory = try FixtureBuilder.directory([.symlinkLoop, .danglingLink])
        #expect(throws: PluginLoadFailure.file(.symlinkLoop)) {
            try ELFPrecheck.check(directory.path + "/libsymlink-loop.so")
        }
        #expect(throws: PluginLoadFailure.file(.danglingLink(target: "libnothing-here.so"))) {
            try ELFPrecheck.check(directory.path + "/libdangling-link.so")
        }
    }

    /// A big-endian header read in little-endian order has a nonsense
    /// machine: the byte order must be checked, and named, first.
    @Test func theByteOrderIsCheckedBeforeTheMachine() throws {
        let file = try FixtureBuilder.library(.byteOrder).path
        #expect(throws: PluginLoadFailure.wrongByteOrder(plugin: "big-endian", host: "little-endian")) {
            try ELFPrecheck.check(file)
        }
    }

    @Test func executablesAreNotSharedLibrariesEvenWhenPositionIndependent() throws {
        for fixture in [Fixture.executable, .positionIndependentExecutable] {
            #expect(throws: PluginLoadFailure.notSharedObject(kind: "an executable")) {
                try ELFPrecheck.check(FixtureBuilder.library(fixture).path)
            }
        }
        // As `cp /bin/true x.so` would make it.
        #expect(throws: PluginLoadFailure.notSharedObject(kind: "an executable")) { try ELFPrecheck.check("/bin/true") }
        // A real shared library passes.
        try ELFPrecheck.check(FixtureBuilder.library(.good).path)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let path = TestPaths.temporaryDirectory("fifo").appendingPathComponent("libfifo.so").path
        try #require(mkfifo(path, 0o644) == 0)
        #expect(throws: PluginLoadFailure.notRegularFile(kind: "a FIFO")) { try ELFPrecheck.check(path) }
    }

    @Test func anObjectFileIsNotASharedLibrary() throws {
        let directory = TestPaths.temporaryDirectory("object")
        let object = directory.appendingPathComponent("libobject.so")
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "cc", "-c", "-fPIC", "-I", TestPaths.abiInclude.path, "-o", object.path,
                FixtureBuilder.sources.appendingPathComponent("presenter.c").path,
            ])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(throws: PluginLoadFailure.notSharedObject(kind: "an object file (.o)")) {
            try ELFPrecheck.check(object.path)
        }
    }
}
