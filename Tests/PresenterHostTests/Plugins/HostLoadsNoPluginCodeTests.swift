import Foundation
import Testing

/// presenter-host links the Swift runtime statically, so it must never load
/// plugin code (a Swift plugin would bring a second runtime into it): the
/// scan helper, the presenter process and `check`'s sessions run
/// presenter-host-plugins, and `--in-process` hands the whole command over
/// to that executable. Read from the host's own `/proc/self/maps` at its
/// exit, through a preloaded library (maps_at_exit.c) that copies it for a
/// process named presenter-host and for no other.
@Suite("presenter-host loads no plugin code")
struct HostLoadsNoPluginCodeTests {
    /// The preloaded library, built once.
    private static let preload: Result<URL, Error> = Result {
        let output = TestPaths.temporaryDirectory("maps-preload").appendingPathComponent("maps_at_exit.so")
        try FixtureBuilder.compile(FixtureBuilder.sources.appendingPathComponent("maps_at_exit.c"), to: output)
        return output
    }

    /// A fresh folder for the maps, and the environment that preloads the library.
    private func preloading() throws -> (folder: URL, environment: [String: String]) {
        let folder = TestPaths.temporaryDirectory("maps")
        return (folder, ["LD_PRELOAD": try Self.preload.get().path, "MAPS_DIR": folder.path])
    }

    /// The one maps file the host left in `folder`: what it had mapped.
    private func hostMaps(in folder: URL) throws -> String {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".maps") }
        try #require(files.count == 1, "maps files: \(files)")
        return try String(contentsOf: folder.appendingPathComponent(files[0]), encoding: .utf8)
    }

    /// What must not be in the host: the bundled presenters, and the
    /// shared Swift runtime (the host's own is linked in).
    private func expectNoPluginCode(_ maps: String, _ context: String) {
        #expect(maps.contains("/presenter-host\n"), "\(context): not the host's maps:\n\(maps)")
        for library in [
            "libMBHud.so", "libNetActivity.so", "libAddBookmark.so", "libLine.so", "libgood.so", "libswiftCore.so",
        ] {
            #expect(!maps.contains(library), "\(context): \(library) is mapped in presenter-host")
        }
        #expect(!maps.contains("memfd:"), "\(context): a sealed plugin image is mapped in presenter-host")
    }

    /// The bundled presenters are read from their descriptions; a file
    /// without one (presenter.c's) is loaded by a scan helper.
    @Test func listScansInTheHelperNotTheHost() throws {
        let (folder, environment) = try preloading()
        let cache = TestPaths.temporaryDirectory("maps-cache")
        let plugins = try FixtureBuilder.directory([.good])
        let result = try ProcessRunner.host(
            ["--plugin-dir", plugins.path, "--list", "--rescan"],
            environment: environment.merging(["XDG_CACHE_HOME": cache.path]) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("mbhud") && result.stdout.contains("fixture.good"), "\(result.stdout)")
        expectNoPluginCode(try hostMaps(in: folder), "--list --rescan")
    }

    @Test(.enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
    func runDrawsFromThePresenterProcess() throws {
        let (folder, environment) = try preloading()
        let go = folder.appendingPathComponent("go").path
        let run = try TerminalDriver.run(
            ["run", "--working", "Spinning", "--", "sh", "-c", "while [ ! -e '\(go)' ]; do sleep 0.05; done"],
            environment: environment, steps: [.waitText("Spinning"), .touch(go), .waitExit(10)])
        #expect(run.errors == [])
        #expect(run.exit.code == 0, "\(run.exit)")
        expectNoPluginCode(try hostMaps(in: folder), "run in a terminal")
    }

    @Test func checkRunsItsSessionsInPresenterProcesses() throws {
        let (folder, environment) = try preloading()
        let result = try ProcessRunner.host(
            ["check", TestPaths.library("MBHud").path], environment: environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        expectNoPluginCode(try hostMaps(in: folder), "check")
    }

    /// `--in-process` runs the whole command in presenter-host-plugins, in
    /// the host's place (its process id: the command's parent), where the
    /// presenter's library is then mapped.
    @Test(.enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
    func inProcessHandsTheCommandToThePluginExecutable() throws {
        let folder = TestPaths.temporaryDirectory("in-process")
        let report = folder.appendingPathComponent("parent").path
        let go = folder.appendingPathComponent("go").path
        // Once the presenter draws (its library loaded), the command reads its parent.
        let script = """
            while [ ! -e '\(go)' ]; do sleep 0.05; done
            readlink /proc/$PPID/exe > '\(report)'; grep -c libMBHud.so /proc/$PPID/maps >> '\(report)'
            """
        let run = try TerminalDriver.run(
            ["run", "--in-process", "--working", "Spinning", "--", "sh", "-c", script],
            steps: [.waitText("Spinning"), .touch(go), .waitExit(10)])
        #expect(run.exit.code == 0, "\(run.exit)")
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.hasSuffix("/presenter-host-plugins") == true, "\(lines)")
        #expect(lines.count == 2 && lines[1] != "0", "the presenter is not loaded in process: \(lines)")
    }

    /// A copy of presenter-host in presenter-host-plugins' place would be
    /// handed the command over and over: it is refused, in one line.
    @Test func aHostInThePluginExecutablesPlaceIsRefused() throws {
        let bin = TestPaths.temporaryDirectory("impostor")
        try copyExecutable(TestPaths.binary, to: bin.appendingPathComponent("presenter-host-plugins"))
        let host = bin.appendingPathComponent("presenter-host")
        try copyExecutable(TestPaths.binary, to: host)
        let result = try ProcessRunner.run(host, ["run", "--in-process", "--", "true"], environment: ["CI": "true"])
        #expect(result.status == 71, "\(result.stderr)")
        #expect(
            result.stderr
                == "Error: \(bin.path)/presenter-host-plugins is presenter-host itself, not presenter-host-plugins, where presenter-host runs plugin code: reinstall presenter-host\n"
        )
    }
}
