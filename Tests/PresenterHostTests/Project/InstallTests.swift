import Foundation
import PresenterABI
import Testing

/// `scripts/install.sh` and `make install/uninstall`, as a user and a
/// packager run them, into temporary prefixes. The products installed are
/// this test run's own (`--from`, `FROM=`): a release build would take
/// minutes here, and the layout, the pkg-config file and the search path
/// are the same for both.
@Suite struct InstallTests {
    private static let installScript = TestPaths.packageRoot.appendingPathComponent("scripts/install.sh")
    private static let installed = [
        "bin/presenter-host", "include/presenter_abi.h", "lib/pkgconfig/presenter-abi.pc",
        "share/man/man1/presenter-host.1", "lib/presenter-host/plugins/libMBHud.so",
        "lib/presenter-host/plugins/libNetActivity.so",
        "lib/presenter-host/plugins/libAddBookmark.so", "lib/presenter-host/plugins/libLine.so",
        "libexec/presenter-host/presenter-host-fetch", "libexec/presenter-host/presenter-host-plugins",
    ]

    /// Installs, builds the C example against the installed header with
    /// nothing but `cc $(pkg-config --cflags presenter-abi)`, drops it into
    /// the user plugin folder, sees it in `--list` and `run` (and the C
    /// template, built and installed by its own Makefile), then uninstalls.
    @Test(.enabled(if: Toolchain.find("pkg-config") != nil, "pkg-config is not installed (apt-get install pkg-config)"))
    func installBuildAPluginWithPkgConfigRunItAndUninstall() throws {
        let prefix = TestPaths.temporaryDirectory("prefix")
        let install = try ProcessRunner.run(
            Self.installScript, ["--prefix", prefix.path, "--from", TestPaths.products.path])
        #expect(install.status == 0, "\(install.stderr)")
        for file in Self.installed {
            #expect(
                FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path),
                "\(file) not installed")
        }

        let pkgConfig = ["PKG_CONFIG_PATH": prefix.appendingPathComponent("lib/pkgconfig").path]
        let cflags = try shell("pkg-config --cflags presenter-abi", environment: pkgConfig)
        #expect(cflags.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "-I\(prefix.path)/include")
        let plugindir = try shell("pkg-config --variable=plugindir presenter-abi", environment: pkgConfig)
        #expect(plugindir.stdout == "\(prefix.path)/lib/presenter-host/plugins\n")
        let version = try shell("pkg-config --modversion presenter-abi", environment: pkgConfig)
        #expect(version.stdout == "1.\(PRESENTER_ABI_MINOR)\n")

        // The example copied away from the repository: only the installed header can be found.
        let work = TestPaths.temporaryDirectory("author")
        try FileManager.default.copyItem(
            at: TestPaths.packageRoot.appendingPathComponent("Examples/c-presenter/hello_presenter.c"),
            to: work.appendingPathComponent("hello_presenter.c"))
        let dataHome = TestPaths.temporaryDirectory("xdg")
        let userPlugins = dataHome.appendingPathComponent("presenter-host/plugins")
        try FileManager.default.createDirectory(at: userPlugins, withIntermediateDirectories: true)
        let build = try shell(
            "cd '\(work.path)' && cc -shared -fPIC $(pkg-config --cflags presenter-abi) "
                + "-o '\(userPlugins.path)/libhello_presenter.so' hello_presenter.c", environment: pkgConfig)
        #expect(build.status == 0, "\(build.stderr)")

        // The template, copied away too, built and installed with its own Makefile.
        let template = work.appendingPathComponent("template-c")
        try FileManager.default.copyItem(
            at: TestPaths.packageRoot.appendingPathComponent("Examples/template-c"), to: template)
        let make = try shell(
            "make -s -C '\(template.path)' install XDG_DATA_HOME='\(dataHome.path)'", environment: pkgConfig)
        #expect(make.status == 0, "\(make.stderr)")
        #expect(FileManager.default.fileExists(atPath: userPlugins.appendingPathComponent("libmy_presenter.so").path))
        // Its `make check` runs the installed presenter-host's conformance checks.
        let searchPath =
            prefix.appendingPathComponent("bin").path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let check = try shell(
            "make -s -C '\(template.path)' check", environment: pkgConfig.merging(["PATH": searchPath]) { $1 })
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // Its Makefile cannot give a budget of its own (as the other check
        // tests do): under a loaded parallel run, or a sanitized build, a hook
        // can take more than half the usual 250 ms, and "budget" may warn of
        // the machine, not the template (the budget check has its own tests).
        let warnings = check.stdout.split(separator: "\n").filter { $0.contains("WARN ") }
        #expect(check.stdout.contains(" 0 failed, "), "\(check.stdout)")
        #expect(warnings.allSatisfy { $0.hasPrefix("  WARN  budget: ") }, "\(check.stdout)")

        let binary = prefix.appendingPathComponent("bin/presenter-host")
        let environment = ["XDG_DATA_HOME": dataHome.path, "CI": "true", "PRESENTER_PLUGIN_PATH": ""]
        let list = try ProcessRunner.run(binary, ["--list"], environment: environment)
        #expect(list.status == 0)
        #expect(
            list.stdout.contains("example.hello") && list.stdout.contains("\(userPlugins.path)/libhello_presenter.so"),
            "\(list.stdout)")
        #expect(list.stdout.contains("\(prefix.path)/lib/presenter-host/plugins/libMBHud.so"), "\(list.stdout)")
        #expect(list.stdout.contains("my.presenter"), "\(list.stdout)")
        #expect(list.stderr.isEmpty, "\(list.stderr)")
        // In a terminal, where the presenter runs (and logs), in
        // libexec's presenter-host-plugins.
        var terminal = environment
        terminal["CI"] = nil
        let run = try ProcessRunner.runInTerminal(
            binary, ["run", "-v", "--presenter", "example.hello", "--", "sh", "-c", "exit 3"],
            environment: terminal)
        #expect(run.status == 3)
        #expect(
            run.textLines.joined(separator: "\n").contains("presenter-host: example.hello: info: exit status 3"),
            "\(run.textLines)")
        // --in-process hands the command to libexec's presenter-host-plugins,
        // whose search path is the host's: it finds the same presenters.
        let inProcess = try ProcessRunner.run(
            binary, ["run", "--in-process", "--presenter", "mbhud", "--", "true"], environment: environment)
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        // The installed add-bookmark finds its HTTP helper in libexec.
        var direct = WebTitleFetchTests.noProxies
        direct["PRESENTER_PLUGIN_PATH"] = ""
        let title = try ProcessRunner.run(
            binary,
            [
                "add-bookmark", "--get-title", "--url",
                TitleServer.shared.url("/page?title=Installed"),
            ], environment: direct)
        #expect(title.status == 0 && title.stdout == "Installed\n", "\(title.stderr)")
        let path = try ProcessRunner.run(binary, ["--print-plugin-path"], environment: environment)
        #expect(path.stdout == "\(userPlugins.path)\n\(prefix.path)/lib/presenter-host/plugins\n\(prefix.path)/bin\n")

        let man = try shell(
            "man -w presenter-host", environment: ["MANPATH": prefix.appendingPathComponent("share/man").path])
        #expect(man.stdout == "\(prefix.path)/share/man/man1/presenter-host.1\n", "\(man.stderr)")

        // A plugin the user put in the system folder is theirs: uninstall keeps it.
        let own = prefix.appendingPathComponent("lib/presenter-host/plugins/libmine.so")
        try Data("mine".utf8).write(to: own)
        let uninstall = try ProcessRunner.run(Self.installScript, ["--prefix", prefix.path, "--uninstall"])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(try regularFiles(under: prefix) == ["lib/presenter-host/plugins/libmine.so"])
    }

    /// A packager's `make install DESTDIR=... PREFIX=/usr`: every file lands
    /// under DESTDIR, the pkg-config file names the real prefix, and
    /// `make uninstall` with the same variables removes exactly those files.
    @Test func makeInstallHonoursDestdirAndUninstallRemovesExactlyThat() throws {
        let stage = TestPaths.temporaryDirectory("destdir")
        let variables = ["DESTDIR=\(stage.path)", "PREFIX=/usr", "FROM=\(TestPaths.products.path)"]
        let install = try shell(
            "make -s -C '\(TestPaths.packageRoot.path)' install " + variables.map { "'\($0)'" }.joined(separator: " "))
        #expect(install.status == 0, "\(install.stderr)")
        #expect(try regularFiles(under: stage) == Set(Self.installed.map { "usr/" + $0 }))
        let pc = try String(
            contentsOf: stage.appendingPathComponent("usr/lib/pkgconfig/presenter-abi.pc"), encoding: .utf8)
        #expect(pc.hasPrefix("prefix=/usr\n"))
        #expect(!pc.contains(stage.path))

        let uninstall = try shell(
            "make -s -C '\(TestPaths.packageRoot.path)' uninstall " + variables.map { "'\($0)'" }.joined(separator: " ")
        )
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(try regularFiles(under: stage) == [])
        #expect(!FileManager.default.fileExists(atPath: stage.appendingPathComponent("usr/lib/presenter-host").path))
    }

    @Test func aRelativePrefixIsRefusedInOneLine() throws {
        let result = try ProcessRunner.run(
            Self.installScript, ["--prefix", "relative/dir", "--from", TestPaths.products.path])
        #expect(result.status == 64)
        #expect(
            result.stderr == "Error: --prefix 'relative/dir' is not an absolute path; give one such as /usr/local\n")
    }

    private func shell(_ command: String, environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: environment)
    }

    /// The regular files under `root`, as paths relative to it.
    private func regularFiles(under root: URL) throws -> Set<String> {
        var files = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.insert(path)
            }
        }
        return files
    }
}
