import Foundation
import Glibc
import Testing
@testable import HostPlugins
@testable import HostRuntime

/// The registry cache, through the real binary: a warm start runs no plugin
/// code (a fixture's loading leaves a mark), a changed file is scanned
/// again, `--rescan` and `--no-cache`, a cache that cannot be trusted or
/// read is ignored and rebuilt without a word, and hosts starting at once.
@Suite struct RegistryCacheTests {
    /// A plugin directory with the marking fixture (and `more`), a cache
    /// home and a mark file of its own.
    private struct Setup {
        let plugins: URL
        let cacheHome: URL
        let mark: String
        let home = TestPaths.temporaryDirectory("home")

        init(_ more: [Fixture] = []) throws {
            plugins = try FixtureBuilder.directory([.marking] + more)
            cacheHome = TestPaths.temporaryDirectory("cache-home")
            mark = TestPaths.temporaryDirectory("mark").appendingPathComponent("loaded").path
        }

        var cacheFile: String { cacheHome.path + "/presenter-host/registry.cache" }

        /// How many times any process loaded the marking fixture so far.
        var marks: Int { ((try? String(contentsOfFile: mark, encoding: .utf8)) ?? "").split(separator: "\n").count }

        /// In plain mode, or `inTerminal` (stderr), where `run` runs its
        /// presenter (plain mode runs none).
        func host(
            _ arguments: [String], before: [String] = [], cacheHome: String? = nil, inTerminal: Bool = false
        ) throws -> ProcessResult {
            let environment = [
                "HOME": home.path, "XDG_DATA_HOME": home.path, "XDG_CACHE_HOME": cacheHome ?? self.cacheHome.path,
            ].merging(MarkingFixture.environment(mark: mark)) { $1 }
            let arguments = before + ["--plugin-dir", plugins.path] + arguments
            if inTerminal { return try ProcessRunner.hostInTerminal(arguments, environment: environment) }
            return try ProcessRunner.host(arguments, environment: environment.merging(["CI": "1"]) { $1 })
        }
    }

    @Test func aWarmListAndAWarmRunRunNoPluginCode() throws {
        let setup = try Setup()
        let cold = try setup.host(["--list", "-v"])
        #expect(cold.status == 0)
        #expect(setup.marks == 1)  // the scan helper loaded it; the host reads its report
        #expect(cold.stdout.contains("Loaded from: the file (scanned now)"))
        let marks = setup.marks

        let warm = try setup.host(["--list", "-v"])
        #expect(warm.status == 0)
        #expect(warm.stderr == "")
        #expect(setup.marks == marks, "a warm --list loaded the plugin")
        // The same listing, but where each presenter came from: the
        // bundled ones describe themselves, the fixture was scanned.
        #expect(cold.stdout.contains("Loaded from: the file's description"))
        let source = #/Loaded from: [^\n]*/#
        #expect(warm.stdout.replacing(source, with: "") == cold.stdout.replacing(source, with: ""))
        #expect(!warm.stdout.contains("scanned now") && !warm.stdout.contains("description\n"))

        let json = try setup.host(["--list", "--json"])
        #expect(json.stdout.contains("\"cached\" : true"))

        let run = try setup.host(["run", "--presenter", "mbhud", "--working", "w", "--", "true"], inTerminal: true)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(setup.marks == marks, "a warm run loaded a presenter it does not use")

        // The presenter a warm run uses is loaded by the presenter process, and by nothing else.
        let own = try setup.host(
            ["run", "--presenter", "fixture.marking", "--working", "w", "--success", "s", "--", "true"],
            inTerminal: true)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(setup.marks == marks + 1)
        let inProcess = try setup.host(
            ["run", "--in-process", "--presenter", "fixture.marking", "--working", "w", "--", "true"],
            inTerminal: true)
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        #expect(setup.marks == marks + 2)
    }

    /// `run --in-process` loads its presenter's file in its engine, at
    /// attach: an `--events` file that cannot be opened is refused before
    /// any plugin code runs in the host (a warm cache: nothing scans it).
    @Test func anInProcessRunRefusesABadEventsFileBeforeThePluginLoads() throws {
        let setup = try Setup()
        #expect(try setup.host(["--list"]).status == 0)
        let marks = setup.marks
        let events = TestPaths.temporaryDirectory("events").appendingPathComponent("missing/events.log").path
        let run = try setup.host(
            [
                "run", "--in-process", "--presenter", "fixture.marking", "--events", events, "--working", "w", "--",
                "true",
            ], inTerminal: true)
        #expect(run.status != 0)
        #expect(run.stderr.contains("--events") && run.stderr.contains(events), "\(run.stderr)")
        #expect(setup.marks == marks, "the plugin loaded before --events was refused")
        // The same run with an events file it can open loads the plugin, once.
        let good = TestPaths.temporaryDirectory("events").appendingPathComponent("events.log").path
        let ran = try setup.host(
            [
                "run", "--in-process", "--presenter", "fixture.marking", "--events", good, "--working", "w", "--",
                "true",
            ], inTerminal: true)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(setup.marks == marks + 1)
    }

    @Test func aChangedFileIsScannedAgainAndABrokenOneStaysBrokenUntilItChanges() throws {
        let setup = try Setup([.constructorAbort])
        let cold = try setup.host(["--list"])
        let broken = cold.stderr.split(separator: "\n").filter { $0.contains("libconstructor-abort.so") }
        #expect(broken.count == 1 && broken[0].contains("crashed while loading"), "\(cold.stderr)")
        let marks = setup.marks

        let warm = try setup.host(["--list"])
        #expect(warm.stderr == cold.stderr)
        #expect(setup.marks == marks)

        // Touched: a new mtime and ctime, so it is scanned again.
        let file = setup.plugins.appendingPathComponent(Fixture.marking.fileName).path
        #expect(utimes(file, nil) == 0)
        _ = try setup.host(["--list"])
        #expect(setup.marks > marks)

        // Fixed: the crashing file replaced by a good one is no longer reported.
        let abort = setup.plugins.appendingPathComponent(Fixture.constructorAbort.fileName).path
        #expect(unlink(abort) == 0)
        try FileManager.default.copyItem(atPath: try FixtureBuilder.library(.localOne).path, toPath: abort)
        let fixed = try setup.host(["--list"])
        #expect(fixed.stderr == "")
        #expect(fixed.stdout.contains("fixture.local-one"))
    }

    /// A warm start whose every file the cache knew as it is leaves the
    /// cache file alone (the pipeline skips writing it); a file gone from
    /// the folder is one entry fewer, so the cache is written again without
    /// it, and the next warm start leaves that one alone.
    @Test func theCacheIsWrittenAgainOnlyWhenWhatItHoldsChanged() throws {
        let setup = try Setup([.localOne])
        _ = try setup.host(["--list"])
        func identity() throws -> [UInt64] {
            var info = stat()
            try #require(stat(setup.cacheFile, &info) == 0)
            return [UInt64(info.st_ino), UInt64(info.st_mtim.tv_sec), UInt64(info.st_mtim.tv_nsec)]
        }
        let cold = try identity()
        let warm = try setup.host(["--list"])
        #expect(warm.status == 0 && warm.stderr == "", "\(warm.stderr)")
        #expect(try identity() == cold, "a warm start rewrote a cache that knew every file")

        let gone = setup.plugins.appendingPathComponent(Fixture.localOne.fileName).path
        #expect(unlink(gone) == 0)
        let after = try setup.host(["--list"])
        #expect(!after.stdout.contains("fixture.local-one"))
        let rewritten = try identity()
        #expect(rewritten != cold, "the cache still holds a file that is gone")
        #expect(!(try String(contentsOfFile: setup.cacheFile, encoding: .utf8)).contains(gone))
        _ = try setup.host(["--list"])
        #expect(try identity() == rewritten)
    }

    @Test func rescanRebuildsAndNoCacheNeitherReadsNorWrites() throws {
        let setup = try Setup()
        _ = try setup.host(["--list"], before: ["--no-cache"])
        #expect(!FileManager.default.fileExists(atPath: setup.cacheFile))
        _ = try setup.host(["--list"])
        let marks = setup.marks
        #expect(FileManager.default.fileExists(atPath: setup.cacheFile))
        let before = try Data(contentsOf: URL(fileURLWithPath: setup.cacheFile))

        let noCache = try setup.host(["--list", "-v"], before: ["--no-cache"])
        #expect(setup.marks > marks)
        #expect(noCache.stdout.contains("scanned now"))
        let rescan = try setup.host(["--list", "-v"], before: ["--rescan"])
        #expect(rescan.stdout.contains("scanned now"))
        #expect(!rescan.stdout.contains("the registry cache"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.cacheFile)) == before)
        let afterRescan = setup.marks
        _ = try setup.host(["--list"])
        #expect(setup.marks == afterRescan)
    }

    /// A cache entry whose record breaks a descriptor's rules (a hand-edited
    /// cache, or one from a host that took forged records) is dropped and
    /// its file scanned again, under a good checksum: what it held is shown
    /// nowhere, the other entries are kept, and the cache is written anew.
    @Test(arguments: [
        ("fixture.marking\t", "$(id>/tmp/x)\t"), ("\tMarking\t", "\t\u{1B}]0;owned\u{07}\t"),
        ("\tMarking\t", "\tMar\u{202E}king\t"), ("\t\(ABIVersion.host)\t", "\t9.0\t"),
        ("\t\(ABIVersion.host)\t", "\t\(ABIVersion.host)\tshow\t"),
    ])
    func aTamperedEntryIsDroppedAndItsFileScannedAgain(original: String, tampered: String) throws {
        let setup = try Setup([.localOne])
        _ = try setup.host(["--list"])
        let marks = setup.marks
        let text = try String(contentsOfFile: setup.cacheFile, encoding: .utf8)
        let body = text[text.index(after: try #require(text.firstIndex(of: "\n")))...]
        let line = try #require(body.split(separator: "\n").first { $0.hasPrefix("P\t0\tfixture.marking\t") })
        let edited = Array(
            body.replacingOccurrences(of: line, with: line.replacingOccurrences(of: original, with: tampered)).utf8)
        #expect(edited != Array(body.utf8))
        try Data(RegistryCacheFormat.header(for: edited[...]) + edited).write(to: URL(fileURLWithPath: setup.cacheFile))

        let list = try setup.host(["--list", "--ids"])
        #expect(list.status == 0 && list.stderr == "", "\(list.stderr)")
        #expect(list.stdout.split(separator: "\n").contains("fixture.marking"))
        #expect(list.stdout.split(separator: "\n").contains("fixture.local-one"))
        #expect(!list.stdout.contains("$(") && !list.stdout.contains("\u{1B}"), "\(list.stdout)")
        #expect(setup.marks == marks + 1, "the dropped entry's file was not scanned again (or the kept one was)")
        let rewritten = try String(contentsOfFile: setup.cacheFile, encoding: .utf8)
        #expect(rewritten == text, "the cache was not written anew as it was before the edit")
    }

    /// Ways a cache file can be unusable, each made from a good one.
    enum Damage: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case empty, truncated, corrupt, garbage, otherVersion = "other version", groupWritable = "group-writable"
        case directory, foreignOwner = "foreign owner", link
        var testDescription: String { rawValue }
    }

    @Test(arguments: Damage.allCases)
    func anUnusableCacheIsIgnoredAndRebuiltWithoutAWord(damage: Damage) throws {
        if damage == .foreignOwner && geteuid() != 0 { return }  // chown needs root
        let setup = try Setup([.text])
        let reference = try setup.host(["--list"], before: ["--no-cache"])
        _ = try setup.host(["--list"])
        let path = setup.cacheFile
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case .empty: bytes = []
        case .truncated: bytes = Array(bytes.prefix(bytes.count / 2))
        case .corrupt: bytes[bytes.count - 20] ^= 0x01
        case .garbage: bytes = Array(repeating: 0xA5, count: 5000)
        case .otherVersion:
            bytes = Array(
                String(decoding: bytes, as: UTF8.self)
                    .replacingOccurrences(of: "registry cache 1 ", with: "registry cache 99 ").utf8)
        default: break
        }
        if [.empty, .truncated, .corrupt, .garbage, .otherVersion].contains(damage) {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        switch damage {
        case .groupWritable: #expect(chmod(path, 0o660) == 0)
        case .directory:
            #expect(unlink(path) == 0)
            #expect(mkdir(path, 0o700) == 0)
        case .foreignOwner:
            #expect(chown(path, try #require(getpwnam("nobody")).pointee.pw_uid, gid_t(bitPattern: -1)) == 0)
        case .link:
            let elsewhere = path + ".elsewhere"
            #expect(rename(path, elsewhere) == 0)
            #expect(symlink(elsewhere, path) == 0)
        default: break
        }
        let marks = setup.marks
        let result = try setup.host(["--list"])
        #expect(result.status == 0)
        #expect(result.stdout == reference.stdout)
        #expect(result.stderr == reference.stderr, "not a word about the cache")
        #expect(setup.marks > marks, "the unusable cache was used")
        let verbose = try setup.host(["--list", "-v"], before: damage == .directory ? [] : ["--no-cache"])
        if damage == .directory {
            // A directory in the way is never replaced; -v says so each time.
            #expect(
                verbose.stderr.contains(
                    "presenter-host: registry cache \(path) ignored (not a regular file); rebuilding it\n"))
        } else {
            // Rebuilt: the next start is warm.
            let afterRebuild = setup.marks
            _ = try setup.host(["--list"])
            #expect(setup.marks == afterRebuild, "the cache was not rebuilt")
        }
    }

    @Test func verboseSaysInOneLineWhyACacheWasIgnored() throws {
        let setup = try Setup()
        _ = try setup.host(["--list"])
        try Data("presenter-host registry cache 1 0000000000000000\nK\tx\n".utf8).write(
            to: URL(fileURLWithPath: setup.cacheFile))
        let result = try setup.host(["--list", "-v"])
        #expect(
            result.stderr
                == "presenter-host: registry cache \(setup.cacheFile) ignored (corrupt (checksum)); rebuilding it\n")
    }

    @Test func anUnwritableCacheHomeStillWorks() throws {
        let setup = try Setup()
        for home in ["/dev/null/cache", "/proc/presenter-host-cache"] {
            let result = try setup.host(["--list"], cacheHome: home)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout.contains("fixture.marking"))
        }
    }

    @Test func anotherSearchPathIsAnotherCache() throws {
        let setup = try Setup()
        _ = try setup.host(["--list"])
        let marks = setup.marks
        let other = try FixtureBuilder.directory([.good])
        let result = try setup.host(["--list", "-v"], before: ["--plugin-dir", other.path])
        #expect(setup.marks > marks)
        #expect(!result.stdout.contains("the registry cache"))
    }

    @Test func aCachedFileThatBecomesWritableByOthersIsRefusedNotLoaded() throws {
        let setup = try Setup()
        _ = try setup.host(["--list"])
        let marks = setup.marks
        let file = setup.plugins.appendingPathComponent(Fixture.marking.fileName).path
        #expect(chmod(file, 0o757) == 0)
        let list = try setup.host(["--list"])
        #expect(list.stderr.contains("libmarking.so: writable by others: chmod o-w"), "\(list.stderr)")
        let run = try setup.host(["run", "--presenter", "fixture.marking", "--", "true"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("1 plugin file failed to load"), "\(run.stderr)")
        #expect(setup.marks == marks)
    }

    @Test func manyHostsStartingAtOnceOnAColdCacheAgree() throws {
        let setup = try Setup([.good, .twoPresenters, .text])
        let reference = try setup.host(["--list"], before: ["--no-cache"])
        let environment = [
            "HOME": setup.home.path, "XDG_DATA_HOME": setup.home.path, "XDG_CACHE_HOME": setup.cacheHome.path,
        ].merging(MarkingFixture.environment(mark: setup.mark)) { $1 }
        let processes = try (0..<8).map { _ in
            try TestProcess(TestPaths.binary, ["--plugin-dir", setup.plugins.path, "--list"], environment: environment)
        }
        for process in processes {
            let (stdout, stderr) = process.communicate()
            #expect(process.wait() == 0)
            #expect(String(decoding: stdout, as: UTF8.self) == reference.stdout)
            #expect(String(decoding: stderr, as: UTF8.self) == reference.stderr)
        }
        let marks = setup.marks
        let warm = try setup.host(["--list", "-v"])
        #expect(setup.marks == marks)
        #expect(!warm.stdout.contains("scanned now"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.cacheHome.path + "/presenter-host")
        #expect(leftovers == ["registry.cache"])
    }
}
