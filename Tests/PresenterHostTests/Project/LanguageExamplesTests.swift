import Foundation
import PresenterABI
import Testing

/// The presenters in C++ and Rust (Examples/cxx-presenter, Examples/rust-presenter),
/// each built with the one command its header comment gives, then loaded for
/// real: listed, run and put through `check` by the `presenter-host` binary,
/// and drawn through the C ABI. A missing compiler skips its test with a message.
@Suite struct LanguageExamplesTests {
    private static let examples = TestPaths.packageRoot.appendingPathComponent("Examples")

    @Test(.enabled(if: Toolchain.hasGxx, "g++ is not installed: the C++ presenter is not built (apt-get install g++)"))
    func theCxxPresenterBuildsWithOneCommandLoadsAndRuns() throws {
        let directory = TestPaths.temporaryDirectory("cxx")
        let library = directory.appendingPathComponent("libbar_presenter.so")
        try Toolchain.compile([
            "g++", "-shared", "-fPIC", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic",
            "-I", TestPaths.abiInclude.path, "-o", library.path,
            Self.examples.appendingPathComponent("cxx-presenter/bar_presenter.cpp").path,
        ])
        try expectListedAndRun(id: "example.cxx-bar", in: directory)

        let presenter = try PluginInstance(LoadedPlugin.load(file: library).descriptor)
        let view = FakeView(cols: 30, rows: 3)
        presenter.show(view, "Uploading", id: 7, progress: 0.5)
        presenter.render(view)
        #expect(view.visibleLines == ["[#####     ] Uploading"])
        presenter.hide(view, nil, id: 7)
        presenter.render(view)
        #expect(view.isBlank)
    }

    @Test(
        .enabled(
            if: Toolchain.hasRustc, "rustc is not installed: the Rust presenter is not built (apt-get install rustc)"))
    func theRustPresenterBuildsWithOneCommandLoadsAndRuns() throws {
        let directory = TestPaths.temporaryDirectory("rust")
        let library = directory.appendingPathComponent("libdots_presenter.so")
        try Toolchain.compile([
            "rustc", "--edition", "2021", "--crate-type", "cdylib", "-O", "-D", "warnings",
            "-o", library.path,
            Self.examples.appendingPathComponent("rust-presenter/dots_presenter.rs").path,
        ])
        try expectListedAndRun(id: "example.rust-dots", in: directory)

        let presenter = try PluginInstance(LoadedPlugin.load(file: library).descriptor)
        let view = FakeView(cols: 30, rows: 3)
        presenter.host.now = 0
        presenter.show(view, "Saving", id: 1)
        presenter.render(view)
        #expect(view.visibleLines == ["Saving."])
        #expect(presenter.host.takeFrameRequests() == [presenter.host.now + 200_000_000])
        presenter.host.now += 200_000_000
        presenter.render(view)
        #expect(view.visibleLines == ["Saving.."])
        presenter.hide(view, nil, id: 1)
        presenter.render(view)
        #expect(view.isBlank)
    }

    /// `--list --json` shows the presenter, and `run` runs its hooks in the
    /// presenter process: its hide logs the failure, which `-v` shows.
    private func expectListedAndRun(id: String, in directory: URL) throws {
        let list = try ProcessRunner.host(["--plugin-dir", directory.path, "--list", "--json"])
        #expect(list.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        let plugins = try #require(document?["plugins"] as? [[String: Any]])
        #expect(plugins.contains { $0["id"] as? String == id }, "\(list.stdout)")
        #expect(list.stderr.isEmpty, "\(list.stderr)")

        // In a terminal, where the presenter runs (plain mode runs none).
        let run = try ProcessRunner.hostInTerminal([
            "--plugin-dir", directory.path, "run", "-v", "--presenter", id,
            "--", "sh", "-c", "exit 3",
        ])
        #expect(run.status == 3)
        let stderr = run.textLines.joined(separator: "\n")
        #expect(stderr.contains("presenter-host: \(id): info: exit status 3"), "\(stderr)")
        #expect(!stderr.contains("going on"), "\(stderr)")

        let library = try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".so") }!
        // A budget of its own: under a loaded parallel test run a hook can
        // take more than half the usual 250 ms, and "budget" would WARN for
        // the machine, not the presenter (the budget check has its own tests).
        let check = try ProcessRunner.host([
            "check", "--hook-timeout", "10", directory.appendingPathComponent(library).path,
        ])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.hasSuffix(" 0 failed, 0 warned\n"), "\(check.stdout)")
    }
}
