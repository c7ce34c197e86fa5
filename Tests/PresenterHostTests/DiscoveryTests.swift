import Foundation
import Glibc
import Testing
@testable import PresenterHost

/// The search path and the directory walk.
@Suite struct DiscoveryTests {
    private var cwd: String { FileManager.default.currentDirectoryPath }

    @Test func theSearchPathFollowsTheDocumentedOrder() {
        let (entries, warnings) = SearchPath.resolve(
            pluginDirs: ["mine", "/abs/flag/"],
            environment: ["PRESENTER_PLUGIN_PATH": "/env/one:relative/two::/env/three/", "XDG_DATA_HOME": "/xdg",
                          "HOME": "/home/someone"],
            executablePath: "/opt/ph/bin/presenter-host")
        #expect(entries == [
            SearchPathEntry(path: cwd + "/mine", origin: .flag),
            SearchPathEntry(path: "/abs/flag", origin: .flag),
            SearchPathEntry(path: "/env/one", origin: .env),
            SearchPathEntry(path: "/env/three", origin: .env),
            SearchPathEntry(path: "/xdg/presenter-host/plugins", origin: .user),
            SearchPathEntry(path: "/opt/ph/lib/presenter-host/plugins", origin: .system),
            SearchPathEntry(path: "/opt/ph/bin", origin: .bundled),
        ])
        #expect(warnings == ["presenter-host: warning: ignoring relative entry 'relative/two' in PRESENTER_PLUGIN_PATH; use an absolute path"])
    }

    @Test func theUserDirectoryDefaultsToHomeAndIgnoresARelativeXDGDataHome() {
        for environment in [["HOME": "/home/someone"], ["HOME": "/home/someone", "XDG_DATA_HOME": "relative"]] {
            let entries = SearchPath.resolve(pluginDirs: [], environment: environment, executablePath: "/x/presenter-host").entries
            #expect(entries.filter { $0.origin == .user }.map(\.path) == ["/home/someone/.local/share/presenter-host/plugins"])
        }
        let homeless = SearchPath.resolve(pluginDirs: [], environment: [:], executablePath: "/x/presenter-host").entries
        #expect(!homeless.contains { $0.origin == .user })
    }

    @Test func theSystemDirectoryNeedsAnExecutableInABinDirectory() {
        let entries = SearchPath.resolve(pluginDirs: [], environment: [:], executablePath: "/work/.build/debug/presenter-host").entries
        #expect(entries == [SearchPathEntry(path: "/work/.build/debug", origin: .bundled)])
    }

    @Test func theCurrentDirectoryIsNeverSearchedImplicitly() {
        let entries = SearchPath.resolve(pluginDirs: [], environment: ["HOME": "/home/someone", "PRESENTER_PLUGIN_PATH": ".:"],
                                         executablePath: nil).entries
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
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dir.so"), withIntermediateDirectories: false)
        let names = PluginDirectory.candidates(in: SearchPathEntry(path: directory.path, origin: .flag))
            .map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == ["dir.so", "libZ.so", "liba.so", "libb.so"])
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let path = TestPaths.temporaryDirectory("fifo").appendingPathComponent("libfifo.so").path
        try #require(mkfifo(path, 0o644) == 0)
        #expect(throws: PluginLoadFailure.notRegularFile(kind: "a FIFO")) { try ELFPrecheck.check(path) }
    }

    @Test func anObjectFileIsNotASharedLibrary() throws {
        let directory = TestPaths.temporaryDirectory("object")
        let object = directory.appendingPathComponent("libobject.so")
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["cc", "-c", "-fPIC", "-I", TestPaths.abiInclude.path, "-o", object.path,
                                            FixtureBuilder.sources.appendingPathComponent("presenter.c").path])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(throws: PluginLoadFailure.notSharedObject(kind: "an object file (.o)")) { try ELFPrecheck.check(object.path) }
    }
}
