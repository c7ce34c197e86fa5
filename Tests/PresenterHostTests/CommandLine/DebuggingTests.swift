import Foundation
import Testing

/// The debugging recipes of docs/writing-a-presenter-in-c.md, run as
/// written: gdb on `run --in-process` stops in the plugin's crashing hook
/// (presenter-host hands the command over to presenter-host-plugins, and
/// gdb follows), and valgrind runs a presenter in-process on a stripped
/// copy of presenter-host-plugins. Skipped with a message where the tool
/// is missing. In a terminal (stderr): plain lines would run no presenter
/// to debug.
@Suite struct DebuggingTests {
    @Test(.enabled(if: Toolchain.find("gdb") != nil, "gdb is not installed (apt-get install gdb)"))
    func gdbStopsInThePluginsCrashingHook() throws {
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let result = try ProcessRunner.runInTerminal(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "gdb", "-q", "-batch", "-ex", "run", "-ex", "bt", "--args", TestPaths.binary.path, "--plugin-dir",
                plugins.path,
                "run", "--in-process", "--presenter", "fixture.misbehaving", "--", "true",
            ], environment: ["FIXTURE_MISBEHAVE": "crash:show"])
        #expect(result.stdout.contains("received signal SIGSEGV"), "\(result.stdout)\(result.stderr)")
        // The library is loaded through the descriptor the host checked: gdb names it /proc/PID/fd/N.
        #expect(
            result.stdout.contains(#/#1 +0x[0-9a-f]+ in m_show \(\) from /proc/[0-9]+/fd/[0-9]+/#), "\(result.stdout)")
    }

    @Test(
        .enabled(if: Toolchain.find("valgrind") != nil, "valgrind is not installed (apt-get install valgrind)"),
        .disabled(if: Sanitizer.current == .thread, "valgrind cannot run a ThreadSanitizer binary"))
    func valgrindRunsAPresenterInProcessOnAStrippedCopy() throws {
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let folder = TestPaths.temporaryDirectory("valgrind")
        let stripped = folder.appendingPathComponent("presenter-host-plugins")
        try Toolchain.compile(["strip", "-o", stripped.path, TestPaths.pluginsBinary.path])
        // The command waits until the presenter has drawn (valgrind's start
        // is slow; a command that ended first would leave nothing drawn).
        let go = folder.appendingPathComponent("go").path, raw = folder.appendingPathComponent("raw").path
        let run = try TerminalDriver.run(
            [], watch: ["Working"], rawFile: raw,
            shell:
                "exec valgrind -q '\(stripped.path)' --plugin-dir '\(plugins.path)' run --in-process --presenter fixture.misbehaving --working Working -- sh -c 'while [ ! -e \(go) ]; do sleep 0.05; done'",
            steps: [.waitText("Working", timeout: 60), .touch(go), .waitExit(60)])
        let stderr = String(decoding: try Data(contentsOf: URL(fileURLWithPath: raw)), as: UTF8.self)
        #expect(run.exit.code == 0, "\(run.exit) \(stderr)")
        #expect(run.watched["Working"] == true, "\(stderr)")
        // libdispatch's manager thread sometimes trips memcheck under load (the
        // Swift runtime's own, as the guide says); nothing may point at the plugin.
        #expect(!stderr.contains("libmisbehaving.so"), "\(stderr)")
    }
}
