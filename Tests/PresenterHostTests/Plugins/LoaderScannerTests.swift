import Foundation
import Glibc
import Testing
@testable import HostSandbox
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
        // presenter-host-plugins, beside this build's products: the test
        // bundle is in the products folder too.
        #expect(PluginScanner(environment: [:]).executable == TestPaths.pluginsBinary.resolvingSymlinksInPath().path)
    }

    @Test(arguments: [
        "presenter-host-scan 4", "sandbox landlock partial ABI 5: files, no TCP", "begin", "done", "result P\t0\tx y",
    ])
    func protocolLinesRoundTrip(text: String) throws {
        let line = try #require(ScanProtocol.Line(Array(text.utf8)[...]))
        #expect(line.bytes == Array(text.utf8))
    }

    @Test(arguments: [
        "", "begin 0", "done 1", "hello 1", "{\"not\": json", "result", "result ", "presenter-host-scan +4",
        "presenter-host-scan 4 ", "sandbox", "sandbox seccomp", "sandbox nothing on x", "sandbox seccomp sometimes x",
    ])
    func anythingElseIsNotAProtocolLine(text: String) {
        #expect(ScanProtocol.Line(Array(text.utf8)[...]) == nil)
    }

    /// Lines in the wrong place before the file begins loading (the helper
    /// alone writes there) make the helper's report untrusted.
    @Test(arguments: [
        ("presenter-host-scan 4\npresenter-host-scan 3", "a second header"),
        ("begin", "a begin before the header"),
        ("sandbox seccomp on x", "a sandbox line before the header"),
        ("presenter-host-scan 3", "another version"),
        ("presenter-host-scan 4\ndone", "done before begin"),
        ("presenter-host-scan 4\nresult X\t{}", "a result before begin"),
    ])
    func theReaderStopsAtTheFirstLineOutOfTurn(lines: String, what: String) {
        var reader = ScanReader(path: "/a.so")
        let steps = lines.split(separator: "\n").map { reader.read(Array($0.utf8)[...]) }
        #expect(steps.last == .broken, "\(what)")
        #expect(steps.dropLast().allSatisfy { $0 == .more }, "\(what)")
    }

    /// After `begin`, plugin code may have written: what breaks the rules
    /// refuses the file, with what is wrong.
    @Test(arguments: [
        ("sandbox seccomp on x", nil, PluginLoadFailure.ReportProblem.notTheProtocol),
        ("begin", nil, .notTheProtocol),
        ("done", nil, .notTheProtocol),
        ("result X\t{\"empty\":{}}\nresult X\t{\"empty\":{}}\ndone", 0, .malformed),
        ("result P\t0\tx\ndone", 0, .malformed),
        ("result P\t1\tx.p\tX\t1.0\t\u{1}\t\u{1}\t\u{1}\t\u{1}\t0\t1.0\t\ndone", 0, .malformed),
        ("result X\t{\"crashed\":{\"signal\":11}}\ndone", 0, .hostFinding),
        ("result X\t{\"timedOut\":{\"seconds\":1}}\ndone", 0, .hostFinding),
        ("result X\t{\"dlopen\":{\"_0\":\"\\u001b[2J\"}}\ndone", 0, .failureText),
        ("result X\t{\"dlopen\":{\"_0\":\"\u{202E}x\"}}\ndone", 0, .failureText),
        ("result X\t{\"descriptor\":{\"_0\":{\"missingField\":{\"_0\":\"name\"}}}}\ndone", 0, .malformed),
    ])
    func aReportOutOfTheRulesRefusesItsFile(lines: String, record: Int?, problem: PluginLoadFailure.ReportProblem) {
        var reader = ScanReader(path: "/a.so")
        let steps = ("presenter-host-scan 4\nbegin\n" + lines).split(separator: "\n").map {
            reader.read(Array($0.utf8)[...])
        }
        #expect(steps.last == .loaded(.failure(.untrustedReport(record: record, problem))), "\(lines)")
        #expect(steps.dropLast().allSatisfy { $0 == .more }, "\(lines)")
    }

    /// A report's presenter passes every rule of a descriptor read in place,
    /// field by field; the refusal names the field.
    @Test(arguments: [
        (2, "$(id>/tmp/x)", PluginLoadFailure.DescriptorProblem.invalidId(field: "id", value: "'$(id>/tmp/x)'")),
        (2, String(repeating: "x", count: 65), .tooLong(field: "id", limit: 64)),
        (2, "", .emptyField("id")),
        (3, "Bad \u{1B}]0;title\u{07}", .controlCharacter(field: "name")),
        (4, "\u{9B}2J", .controlCharacter(field: "version")),
        (5, "rtl \u{202E}", .controlCharacter(field: "description")),
        (6, "\u{2066}x", .controlCharacter(field: "author")),
        (7, String(repeating: "x", count: 129), .tooLong(field: "license", limit: 128)),
        (8, "Not An Id", .invalidId(field: "extends", value: "'Not An Id'")),
        (3, "\u{1}", .controlCharacter(field: "name")),
        (10, "2.0", .abiMajor(plugin: ABIVersion(major: 2, minor: 0))),
        (
            10, "1.\(ABIVersion.host.minor + 1)",
            .abiNewerMinor(plugin: ABIVersion(major: 1, minor: ABIVersion.host.minor + 1))
        ),
    ])
    func everyFieldOfAPresenterRecordPassesTheDescriptorsRules(
        field: Int, value: String, problem: PluginLoadFailure.DescriptorProblem
    ) {
        var fields = ["P", "0", "x.p", "X", "1.0", "\u{1}", "\u{1}", "\u{1}", "\u{1}", "1", "1.0", "show"]
        fields[field] = value
        let record = Array(fields.joined(separator: "\t").utf8)[...]
        #expect(
            throws: LoadRecords.Invalid(record: 0, problem: .field(problem)),
            "\(fields)"
        ) { try LoadRecords.outcome([record], file: "/a.so", cached: false) }
    }

    @Test func aRecordOfInvalidUTF8IsRefusedForItsField() {
        let record =
            Array("P\t0\tx.p\t".utf8) + [0xFF, 0xFE] + Array("\t1.0\t\u{1}\t\u{1}\t\u{1}\t\u{1}\t1\t1.0\t".utf8)
        #expect(throws: LoadRecords.Invalid(record: 0, problem: .field(.invalidUTF8(field: "name")))) {
            try LoadRecords.outcome([record[...]], file: "/a.so", cached: false)
        }
    }

    /// Hooks are the ABI's, each once, in descriptor order; capabilities
    /// are any bits (the host ignores those it does not know).
    @Test func hooksAndCapabilitiesAreWhatADescriptorCanHave() throws {
        func record(hooks: String, capabilities: String = "1") -> ArraySlice<UInt8> {
            Array("P\t0\tx.p\tX\t1.0\t\u{1}\t\u{1}\t\u{1}\t\u{1}\t\(capabilities)\t1.0\t\(hooks)".utf8)[...]
        }
        let all = DescriptorRules.hookNames.joined(separator: ",")
        let read = try LoadRecords.outcome(
            [record(hooks: all, capabilities: "18446744073709551615")], file: "/a", cached: false)
        #expect(try read.get().first?.get().hookNames == DescriptorRules.hookNames)
        for bad in ["exec", "show,show", "render,show", "show,", ",show", "Show"] {
            #expect(throws: LoadRecords.Invalid(record: 0, problem: .hooks), "\(bad)") {
                try LoadRecords.outcome([record(hooks: bad)], file: "/a", cached: false)
            }
        }
        for bad in ["18446744073709551616", "-1", "0x1", "", "1 "] {
            #expect(throws: LoadRecords.Invalid(record: 0, problem: .malformed), "\(bad)") {
                try LoadRecords.outcome([record(hooks: "show", capabilities: bad)], file: "/a", cached: false)
            }
        }
    }

    /// What the host writes passes what it reads by: a record with every
    /// string at its limit, and a refusal whose texts (a loader's message)
    /// are long and hold control characters, which are escaped and cut.
    @Test func whatTheHostWritesItReads() throws {
        let limits = DescriptorRules.Limit.self
        func text(_ bytes: Int) -> String { String(repeating: "é", count: bytes / 2) }
        func plugin(_ index: Int) -> PresenterPlugin {
            PresenterPlugin(
                id: String(repeating: "x", count: limits.id), name: text(limits.name), version: text(limits.version),
                description: text(limits.description), author: text(limits.author), license: text(limits.license),
                extends: String(repeating: "y", count: limits.id), capabilities: .init(rawValue: .max),
                abiVersion: .host, file: "/a", index: index, hookNames: DescriptorRules.hookNames,
                source: .scan)  // as a helper reports it
        }
        let message = String(repeating: "\u{1B}[2J/\"\\", count: 2000)
        let outcomes: [PluginLibrary.Outcome] = [
            .success((0..<PluginLibrary.maxPresenters).map { .success(plugin($0)) }),
            .failure(.dlopen(message)),
            .failure(.file(.insecure(.foreignOwner(path: message, isDirectory: false, owner: message)))),
            .failure(.otherSwiftToolchain(plugin: message, runtime: message, swift: message)),
        ]
        for outcome in outcomes {
            let lines = LoadRecords.lines(outcome)
            #expect(lines.allSatisfy { $0.utf8.count <= LoadRecords.maxRecordBytes }, "\(lines.map(\.utf8.count))")
            let read = try LoadRecords.outcome(lines.map { Array($0.utf8)[...] }, file: "/a", cached: false)
            if case .failure(let failure) = read {
                #expect(failure.description.count < 4 * LoadRecords.maxFailureTextBytes)
                #expect(failure.description.contains("\\x1B[2J/\"\\") && !failure.description.contains("\u{1B}"))
            } else {
                #expect(read == outcome)
            }
        }
    }

    /// The helper as the host starts it: its report is exactly the protocol,
    /// whatever plugins print, and plugin output never reaches it.
    @Test(arguments: [(Fixture.noisy, "fixture.noisy" as String?), (.text, nil)])
    func theHelperReportsOnlyTheProtocol(fixture: Fixture, id: String?) throws {
        let directory = try FixtureBuilder.directory([fixture])
        // stdin is the lifeline, kept open: the helper exits when its stdin ends.
        let process = try TestProcess(
            TestPaths.binary, ["--scan-plugins", String(getpid()), directory.path + "/" + fixture.fileName],
            stderr: .inherit)
        let report = process.communicate().stdout
        let status = process.wait()
        process.closeInput()
        let lines = report.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The header, then the sandbox it entered (a line a layer), before any plugin code.
        #expect(
            lines.map {
                fuzzText($0).split(separator: " ").prefix($0.starts(with: Array("result".utf8)) ? 1 : 2)
                    .joined(separator: " ")
            }
                == ["presenter-host-scan 4"] + ConfinementReport.Layer.allCases.map { "sandbox \($0.rawValue)" } + [
                    "begin", "result", "done", "",
                ])
        // What the file holds, as record lines, read as the host reads them.
        var reader = ScanReader(path: "/x")
        var loaded: PluginLibrary.Outcome?
        for line in lines.dropLast() {
            switch reader.read(line) {
            case .more: continue
            case .loaded(let contents): loaded = contents
            case .broken: Issue.record("the reader refused \(fuzzText(line).debugDescription)")
            }
        }
        if let id {
            #expect(try loaded?.get().map { try $0.get().id } == [id])
            #expect(try loaded?.get().map { try $0.get().file } == ["/x"])
        } else {
            #expect(loaded == .failure(.notELF(looksLikeText: true)))
        }
        #expect(status == 0)
    }

    /// A helper loads one file: given two, it loads neither.
    @Test func theHelperLoadsOneFile() throws {
        let directory = try FixtureBuilder.directory([.good, .noisy])
        let process = try TestProcess(
            TestPaths.binary,
            ["--scan-plugins", String(getpid()), directory.path + "/libgood.so", directory.path + "/libnoisy.so"],
            stderr: .inherit)
        #expect(process.communicate().stdout == [])
        #expect(process.wait() == 64)
    }

    @Test func theHelperExitsWhenTheHostGoesAway() throws {
        let directory = try FixtureBuilder.directory([.constructorHang])
        let process = try TestProcess(
            TestPaths.binary,
            ["--scan-plugins", String(getpid()), directory.path + "/" + Fixture.constructorHang.fileName],
            stderr: .inherit)
        // Wait until it is inside the hanging constructor, then cut the lifeline (its stdin).
        var report: [UInt8] = []
        while !String(decoding: report, as: UTF8.self).contains("begin\n") {
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
