import Foundation
import Glibc
import Testing
@testable import HostPlugins
@testable import HostEngine
@testable import HostCommandLine

/// The plugin security policy: files and directories others could have
/// written, foreign owners and links out of the directory are refused with
/// the fix; the file checked is the file loaded; `--allow-insecure-plugins`
/// and `--bundled-only`.
@Suite struct PluginSecurityTests {
    /// A directory holding the good fixture, and that file.
    private func plugin(_ fixture: Fixture = .good) throws -> (directory: URL, file: String) {
        let directory = try FixtureBuilder.directory([fixture])
        return (directory, directory.appendingPathComponent(fixture.fileName).path)
    }

    private func load(_ directory: URL, policy: PluginPolicy = .strict) -> PresenterRegistry {
        RegistryPipeline(policy: policy).load([SearchPathEntry(path: directory.path, origin: .flag)])
    }

    /// The real path of `url` (the temporary directory may be reached through a link).
    private func real(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    @Test(arguments: [
        (mode_t(0o775), "writable by group: chmod g-w"), (0o757, "writable by others: chmod o-w"),
        (0o777, "writable by group and others: chmod go-w"),
    ])
    func aFileOthersCanWriteIsRefusedWithTheFix(mode: mode_t, reason: String) throws {
        let (directory, file) = try plugin()
        #expect(chmod(file, mode) == 0)
        let registry = load(directory)
        #expect(registry.plugins.isEmpty)
        #expect(registry.errors.map(\.reason) == ["\(reason) \(real(file))"])
        #expect(registry.errors.map(\.path) == [file])
    }

    /// Discovery refuses the file with its own failure; when loading opens
    /// a file that changed after discovery, the same check fails as
    /// loading's, with the same reason.
    @Test func eachStageReportsItsOwnFailure() throws {
        let (directory, file) = try plugin()
        #expect(chmod(file, 0o646) == 0)
        let failures = load(directory).errors.map(\.failure)
        guard failures.count == 1, case .discovery(.insecure(let violation)) = failures[0] else {
            Issue.record("not one discovery refusal: \(failures)")
            return
        }
        #expect(throws: PluginLoadFailure.file(.insecure(violation))) {
            try PluginFile.open(real(file), policy: .strict)
        }
    }

    @Test(arguments: [
        (mode_t(0o775), "its directory is writable by group: chmod g-w"),
        (0o757, "its directory is writable by others: chmod o-w"),
    ])
    func aDirectoryOthersCanWriteRefusesItsFiles(mode: mode_t, reason: String) throws {
        let (directory, _) = try plugin()
        #expect(chmod(directory.path, mode) == 0)
        let registry = load(directory)
        #expect(registry.plugins.isEmpty)
        #expect(registry.errors.map(\.reason) == ["\(reason) \(real(directory.path))"])
    }

    @Test(.enabled(if: geteuid() == 0, "chown needs root"))
    func aFileOrDirectoryOwnedBySomeoneElseIsRefused() throws {
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        let (directory, file) = try plugin()
        #expect(chown(file, nobody, gid_t(bitPattern: -1)) == 0)
        #expect(
            load(directory).errors.map(\.reason)
                == [
                    "owned by nobody (uid \(nobody)), not by root or you: chown root \(real(file)) (as root), or remove it"
                ])
        #expect(chown(file, 0, gid_t(bitPattern: -1)) == 0)
        #expect(load(directory).plugins.map(\.id) == ["fixture.good"])
        #expect(chown(directory.path, nobody, gid_t(bitPattern: -1)) == 0)
        #expect(
            load(directory).errors.map(\.reason)
                == [
                    "its directory is owned by nobody (uid \(nobody)), not by root or you: chown root \(real(directory.path)) (as root), or remove it"
                ])
    }

    @Test func allowInsecurePluginsRelaxesOwnerAndModeOnly() throws {
        let (directory, file) = try plugin()
        #expect(chmod(file, 0o777) == 0)
        let outside = try plugin(.localOne)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("liblink.so").path,
            withDestinationPath: outside.file)
        let registry = load(directory, policy: PluginPolicy(allowInsecure: true))
        #expect(registry.plugins.map(\.id) == ["fixture.good"])
        #expect(
            registry.errors.map(\.reason) == [
                "is a symbolic link to '\(real(outside.file))', outside its plugin directory; copy the library into the directory or put its own directory on the search path"
            ])
    }

    @Test func aLinkLeavingItsDirectoryIsRefusedAndOneWithinItIsFollowed() throws {
        let (directory, _) = try plugin()
        let elsewhere = try plugin(.localOne)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("sub"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: try FixtureBuilder.library(.localTwo).path,
            toPath: directory.appendingPathComponent("sub/libtwo.so").path)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("libaway.so").path,
            withDestinationPath: elsewhere.file)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("libup.so").path,
            withDestinationPath: "../" + elsewhere.directory.lastPathComponent + "/liblocal-one.so")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("libwithin.so").path,
            withDestinationPath: "sub/libtwo.so")
        let registry = load(directory)
        #expect(registry.plugins.map(\.id).sorted() == ["fixture.good", "fixture.local-two"])
        #expect(registry.errors.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["libaway.so", "libup.so"])
        #expect(registry.errors.allSatisfy { $0.reason.contains("outside its plugin directory") })
        #expect(
            registry.plugin(id: "fixture.local-two")?.file
                == real(directory.appendingPathComponent("sub/libtwo.so").path))
    }

    @Test func twoLinksToOneFileCountOnceAndShadowNothing() throws {
        let (directory, _) = try plugin()
        for name in ["liba.so", "libz.so"] {
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent(name).path,
                withDestinationPath: "libgood.so")
        }
        let registry = load(directory)
        #expect(registry.plugins.map(\.path) == [directory.appendingPathComponent("liba.so").path])
        #expect(registry.errors == [])
    }

    @Test func theFileCheckedIsTheFileLoadedEvenWhenSwappedBetween() throws {
        let (_, file) = try plugin()
        let realFile = real(file)
        let checked = try PluginFile.open(realFile, policy: .strict)
        // Swapped for another library after the check, before the load.
        let other = file + ".new"
        try FileManager.default.copyItem(atPath: try FixtureBuilder.library(.localOne).path, toPath: other)
        #expect(rename(other, file) == 0)
        let ids = try PluginLibrary.load(checked).map { try $0.get().plugin.id }
        #expect(ids == ["fixture.good"])
        // And a link put in its place is never followed.
        #expect(unlink(file) == 0)
        #expect(symlink(try FixtureBuilder.library(.localTwo).path, file) == 0)
        #expect(throws: PluginLoadFailure.replacedByLink) { try PluginFile.open(realFile, policy: .strict) }
    }

    @Test func thePresenterProcessChecksTheFileItLoadsAgain() throws {
        let (directory, file) = try plugin()
        let chain = try load(directory).resolve("fixture.good")
        #expect(chmod(file, 0o646) == 0)  // after the host checked it
        let process = PresenterProcess(
            configuration: .init(executable: TestPaths.binary.path), options: [:],
            clock: MonotonicClock(), geometry: ViewGeometry(cols: 80, rows: 5, flags: 0),
            output: { _ in })
        defer { process.close() }
        do {
            // The attach is sent without waiting; the next call that waits throws its failure.
            try process.attach(1, chain: chain, elements: [])
            _ = try process.render(1, at: 0)
            Issue.record("a world-writable plugin file was loaded by the presenter process")
        } catch {
            #expect("\(error)".contains("writable by others: chmod o-w \(real(file))"), "\(error)")
        }
    }

    @Test func bundledOnlyLoadsTheBundledPresentersAlone() throws {
        let (directory, _) = try plugin()
        let home = TestPaths.temporaryDirectory("home")
        let environment = ["HOME": home.path, "XDG_DATA_HOME": home.path]
        let everything = try ProcessRunner.host(
            ["--plugin-dir", directory.path, "--list", "--json"], environment: environment)
        #expect(everything.stdout.contains("fixture.good"))
        for (arguments, extra) in [(["--bundled-only"], [:]), ([], [PluginOptions.bundledOnlyVariable: "1"])] {
            let result = try ProcessRunner.host(
                arguments + ["--plugin-dir", directory.path, "--list"],
                environment: environment.merging(extra) { $1 })
            #expect(result.status == 0)
            #expect(!result.stdout.contains("fixture.good"), "\(result.stdout)")
            #expect(result.stdout.contains("mbhud"))
        }
        let run = try ProcessRunner.host(
            [
                "--bundled-only", "--plugin-dir", directory.path, "run", "--presenter",
                "fixture.good", "--", "true",
            ], environment: environment)
        #expect(run.status == 64)
        #expect(run.stderr.contains("no presenter 'fixture.good'"))
    }

    @Test func theCommandLineRefusesAndAllowsInsecureFiles() throws {
        let (directory, file) = try plugin()
        #expect(chmod(file, 0o646) == 0)
        let refused = try ProcessRunner.host(["--plugin-dir", directory.path, "--list"])
        #expect(
            refused.stderr.contains("presenter-host: \(file): writable by others: chmod o-w \(real(file))\n"),
            "\(refused.stderr)")
        #expect(!refused.stdout.contains("fixture.good"))
        let run = try ProcessRunner.host([
            "--plugin-dir", directory.path, "run", "--presenter", "fixture.good", "--", "true",
        ])
        #expect(run.status == 64)
        for arguments in [["--list"], ["run", "--presenter", "fixture.good", "--", "true"]] {
            let arguments = [PluginPolicy.allowInsecureFlag, "--plugin-dir", directory.path] + arguments
            // run in a terminal, where its presenter process loads the file too.
            let allowed =
                arguments.contains("run")
                ? try ProcessRunner.hostInTerminal(arguments)
                : try ProcessRunner.host(arguments, environment: ["CI": "1"])
            #expect(allowed.status == 0, "\(allowed.stderr)")
            #expect(!allowed.stderr.contains("writable"), "\(allowed.stderr)")
        }
    }
}
