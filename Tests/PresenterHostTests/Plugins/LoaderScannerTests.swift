import Foundation
import Glibc
import Testing
@testable import HostSystem
@testable import HostPlugins

/// The out-of-process scan: files that kill or hang the process loading them
/// are found by the helper (the built presenter-host) and never loaded here.
/// Without it, any of these tests would take the test process down.
@Suite struct LoaderScannerTests {
    /// The short per-file timeout of the tests of a hanging file (``TestTime``).
    private static let hangTimeout = TestTime.scaled(1)
    /// The helper the command line would use, with a short per-file timeout.
    private let scanner = PluginScanner(executable: TestPaths.binary.path, timeout: hangTimeout)
    /// The same with a timeout a loaded machine never reaches, for files
    /// that end their loader some other way: a crash must not lose a race
    /// with the timeout.
    private let patientScanner = PluginScanner(executable: TestPaths.binary.path, timeout: 20)

    /// Each hostile file, with the good ones around it, and the reason.
    @Test(arguments: [
        (Fixture.garbageEntryPoint, PluginLoadFailure.crashed(signal: SIGSEGV)),
        (.garbageString, .crashed(signal: SIGSEGV)),
        (.constructorAbort, .crashed(signal: SIGABRT)),
        (.constructorExit, .exited(status: Sanitizer.statusOfExitInsideDlopen(3))),
        (.constructorHang, .timedOut(seconds: hangTimeout)),
        (.bitFlipCrash, .crashed(signal: SIGSEGV)),
        (.bitFlipAssertion, .exited(status: 127)),  // ld.so: "Inconsistency detected", then exit(127)
    ])
    func aFileThatKillsItsLoaderIsReportedAndTheOthersLoad(fixture: Fixture, failure: PluginLoadFailure) throws {
        // The hostile file sorts first: the scan must go on after it.
        let directory = try FixtureBuilder.directory([.twoPresenters, fixture, .good])
        var hangs = false
        if case .timedOut = failure { hangs = true }
        let registry = RegistryPipeline(scanner: hangs ? scanner : patientScanner).load([
            SearchPathEntry(path: directory.path, origin: .flag)
        ])
        #expect(Set(registry.plugins.map(\.id)) == ["fixture.good", "fixture.base", "fixture.derived"])
        #expect(
            registry.errors == [
                PluginLoadError(
                    path: directory.appendingPathComponent(fixture.fileName).path,
                    failure: .loading(failure))
            ])
    }

    @Test func everyHostileFileInOneDirectoryIsBlamedInTurn() throws {
        // By name, libc++.so comes between the bit flips and the constructors:
        // the blame must land on the right files across helper restarts.
        let directory = try FixtureBuilder.directory(Fixture.hostile + [.cxx, .good, .noisy])
        let registry = RegistryPipeline(scanner: scanner).load([SearchPathEntry(path: directory.path, origin: .flag)])
        #expect(Set(registry.plugins.map(\.id)) == ["fixture.cxx", "fixture.good", "fixture.noisy"])
        #expect(
            registry.errors.map { URL(fileURLWithPath: $0.path).lastPathComponent }
                == Fixture.hostile.map(\.fileName).sorted())
    }

    @Test func theReasonsSayWhatHappenedAndWhatToDo() {
        #expect(
            PluginLoadFailure.crashed(signal: SIGSEGV).description
                == "crashed while loading (SIGSEGV): the file is corrupt or not built for this ABI; remove or rebuild it"
        )
        #expect(
            PluginLoadFailure.timedOut(seconds: 5).description
                == "did not finish loading within 5 s: a constructor or the entry point hangs; remove or rebuild it")
        #expect(
            PluginLoadFailure.exited(status: 3).description.hasPrefix("ended the process while loading (exit status 3)")
        )
        #expect(SignalName.of(77) == "signal 77")
    }

    @Test func refusalsComeFromTheHelpersReport() throws {
        let directory = try FixtureBuilder.directory([.text, .missingName, .good])
        let registry = RegistryPipeline(scanner: scanner).load([SearchPathEntry(path: directory.path, origin: .flag)])
        #expect(registry.plugins.map(\.id) == ["fixture.good"])
        #expect(
            registry.errors.map(\.failure) == [
                .loading(.descriptor(index: nil, id: "fixture.no-name", .missingField("name"))),
                .loading(.notELF(looksLikeText: true)),
            ])
    }

    @Test func withoutAUsableHelperFilesAreRefusedNotLoadedInProcess() throws {
        let directory = try FixtureBuilder.directory([.good, .text])
        let missing = PluginScanner(executable: "/nonexistent/presenter-host", timeout: 1)
        #expect(missing.scan([directory.appendingPathComponent("libgood.so").path]) == [:])
        // /bin/true starts but never speaks the protocol: the host runs no
        // third-party plugin code itself, so the file is refused...
        var mute = PluginScanner(executable: "/bin/true", timeout: 1)
        let entries = [SearchPathEntry(path: directory.path, origin: .flag)]
        let registry = RegistryPipeline(scanner: mute).load(entries)
        // (what the host can tell without running the file's code, it says)
        #expect(registry.plugins.map(\.id) == [])
        #expect(
            Set(registry.errors.map(\.failure)) == [.loading(.unscanned), .loading(.notELF(looksLikeText: true))])
        // ...unless the command runs its plugins here anyway (--in-process).
        mute.trustsUnscanned = true
        let trusting = RegistryPipeline(scanner: mute).load(entries)
        #expect(trusting.plugins.map(\.id) == ["fixture.good"])
        #expect(trusting.errors.map(\.failure) == [.loading(.notELF(looksLikeText: true))])
    }

    /// Swift's backtracer would take a crashing plugin's helper a third of
    /// a second or more to end (longer on a busy machine: past the timeout,
    /// the crash is reported as a hang). A stand-in helper shows what the
    /// real one is given.
    @Test func theHelperRunsWithoutSwiftsBacktracer() throws {
        let folder = TestPaths.temporaryDirectory("helper")
        let seen = folder.appendingPathComponent("seen").path
        let helper = folder.appendingPathComponent("helper")
        try writeExecutable(Array("#!/bin/sh\nprintf %s \"$SWIFT_BACKTRACE\" > '\(seen)'\n".utf8), to: helper)
        #expect(PluginScanner(executable: helper.path, timeout: 1).scan(["/nonexistent/libx.so"]) == [:])
        #expect(try String(contentsOfFile: seen, encoding: .utf8) == "enable=no")
    }

    @Test func theTimeoutComesFromTheEnvironment() {
        #expect(PluginScanner(environment: [:]).timeout == PluginScanner.defaultTimeout)
        #expect(PluginScanner(environment: ["PRESENTER_SCAN_TIMEOUT_MS": "250"]).timeout == 0.25)
        for bad in ["0", "-5", "soon", ""] {
            #expect(
                PluginScanner(environment: ["PRESENTER_SCAN_TIMEOUT_MS": bad]).timeout == PluginScanner.defaultTimeout)
        }
        #expect(PluginScanner(environment: [:]).executable == "/proc/self/exe")
    }

    @Test(arguments: [
        "presenter-host-scan 3", "sandbox landlock partial ABI 5: files, no TCP", "begin 0", "done 12",
        "result 3 P\t0\tx y",
    ])
    func protocolLinesRoundTrip(text: String) throws {
        let line = try #require(ScanProtocol.Line(Substring(text)))
        #expect(line.text == text)
    }

    @Test(arguments: [
        "", "begin", "begin -1", "begin x", "done 1 2", "hello 1", "{\"not\": json", "result 1", "result x P",
        "sandbox", "sandbox seccomp", "sandbox nothing on x", "sandbox seccomp sometimes x",
    ])
    func anythingElseIsNotAProtocolLine(text: String) {
        #expect(ScanProtocol.Line(Substring(text)) == nil)
    }

    /// Lines in the wrong place, and records that are not a file's results,
    /// make the rest of a helper's report untrusted.
    @Test(arguments: [
        ("presenter-host-scan 3\npresenter-host-scan 2", "a second header"),
        ("begin 0", "a begin before the header"),
        ("sandbox seccomp on x", "a sandbox line before the header"),
        ("presenter-host-scan 3\nbegin 0\nsandbox seccomp on x", "a sandbox line after a file began"),
        ("presenter-host-scan 3\nbegin 1", "a file out of order"),
        ("presenter-host-scan 3\nbegin 0\nresult 0 X\t{\"empty\":{}}\ndone 0\nbegin 1", "a file past the last"),
        ("presenter-host-scan 3\nbegin 0\nresult 1 X\t{\"empty\":{}}", "a result for another file"),
        ("presenter-host-scan 3\nbegin 0\ndone 0", "a file done without records"),
        ("presenter-host-scan 3\nbegin 0\nresult 0 P\t0\tx\ndone 0", "a presenter record cut short"),
    ])
    func theReaderStopsAtTheFirstLineOutOfTurn(lines: String, what: String) {
        var reader = ScanReader(paths: ["/a.so"])
        let steps = lines.split(separator: "\n").map { reader.read($0) }
        #expect(steps.last == .broken, "\(what)")
        #expect(steps.dropLast().allSatisfy { $0 != .broken }, "\(what)")
    }

    /// The helper as the host starts it: its report is exactly the protocol,
    /// whatever plugins print, and plugin output never reaches it.
    @Test func theHelperReportsOnlyTheProtocol() throws {
        let directory = try FixtureBuilder.directory([.noisy, .text])
        // stdin is the lifeline, kept open: the helper exits when its stdin ends.
        let process = try TestProcess(
            TestPaths.binary, ["--scan-plugins", directory.path + "/libnoisy.so", directory.path + "/libtext.so"],
            stderr: .inherit)
        let report = process.communicate().stdout
        let status = process.wait()
        process.closeInput()
        let lines = String(decoding: report, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // The header, then the sandbox it entered (a line a layer), before any plugin code.
        #expect(
            lines.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                == ["presenter-host-scan 3"] + ConfinementReport.Layer.allCases.map { "sandbox \($0.rawValue)" } + [
                    "begin 0", "result 0", "done 0", "begin 1", "result 1", "done 1", "",
                ])
        // What each file holds, as record lines, read as the host reads them.
        var reader = ScanReader(paths: ["/x", "/y"])
        var loaded: [Int: PluginLibrary.Outcome] = [:]
        for line in lines.dropLast() {
            switch reader.read(line) {
            case .more: continue
            case .loaded(let index, let contents): loaded[index] = contents
            case .broken: Issue.record("the reader refused \(line.debugDescription)")
            }
        }
        #expect(try loaded[0]?.get().map { try $0.get().id } == ["fixture.noisy"])
        #expect(try loaded[0]?.get().map { try $0.get().file } == ["/x"])
        #expect(loaded[1] == .failure(.notELF(looksLikeText: true)))
        #expect(status == 0)
    }

    @Test func theHelperExitsWhenTheHostGoesAway() throws {
        let directory = try FixtureBuilder.directory([.constructorHang])
        let process = try TestProcess(
            TestPaths.binary, ["--scan-plugins", directory.path + "/" + Fixture.constructorHang.fileName],
            stderr: .inherit)
        // Wait until it is inside the hanging constructor, then cut the lifeline (its stdin).
        var report: [UInt8] = []
        while !String(decoding: report, as: UTF8.self).contains("begin 0\n") {
            let chunk = process.readAvailable()
            try #require(!chunk.isEmpty, "the helper ended before loading")
            report += chunk
        }
        process.closeInput()
        let started = Date()
        process.wait()
        #expect(Date().timeIntervalSince(started) < 3)
    }
}
