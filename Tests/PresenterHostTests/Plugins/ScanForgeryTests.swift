import Foundation
import Glibc
import SystemShims
import Testing
@testable import HostSystem
@testable import HostText

/// What a scan helper says is input: a hostile plugin
/// (Fixtures/plugins/forger.c) whose constructor writes scan-protocol lines
/// on every pipe it may write to, the helper's report channel among them,
/// sits in a plugin folder before a good one (the victim), and the built
/// binary lists them (`--list`, `-v`, `--ids`) and runs the victim. For each
/// forgery: no output holds a control or layout character, the forger is
/// refused (or listed with valid fields only), the victim is listed as it
/// is and runs, the scan ends within its fixed deadline, the host's peak
/// memory stays low, and nothing is left running once the host is killed.
@Suite struct ScanForgeryTests {
    /// What the forger's constructor does (its `FORGER_*` flag).
    enum Forgery: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// A record of its own with control, escape and bidi text in every
        /// field and the id `$(id>/tmp/x)`.
        case own
        /// A valid record of its own, then the next file's (a hijacked id).
        case next
        /// A valid record line every 100 ms, for ever.
        case hold
        /// Lines of 60 KiB, for ever.
        case flood
        /// Its stdin replaced by a pipe of its own, then asleep for ever.
        case linger

        var testDescription: String { rawValue }

        var flag: String { self == .own ? "-DFORGER_SELF" : "-DFORGER_\(rawValue.uppercased())" }

        /// What `--list` says of the forger's file, after its path.
        var refusal: String? {
            switch self {
            case .own: "was refused: its scan report breaks the host's rules (record 0: invalid id '$(id>/tmp/x)'"
            case .next: nil
            case .hold, .linger: "did not finish loading within \(ScanForgeryTests.scanSeconds) s"
            case .flood: "was refused: its scan report breaks the host's rules (a line longer than"
            }
        }
    }

    /// The scanner's time for one file (PRESENTER_SCAN_TIMEOUT_MS), short
    /// so that a held scan ends soon, long enough for a good file under load.
    static let scanSeconds = 2
    /// The most a cold `--list` or `run` may take with a forger in the folder:
    /// the forger's fixed deadline, and room for the helpers' and the
    /// host's starts on a loaded machine (the forger held `run` for ever).
    static let bound = TestTime.scaled(Double(scanSeconds) + 6)
    /// The most memory the host may use (its peak resident set, or that of
    /// a helper it reaped, if larger): a flood grew it past 200 MiB.
    static let peakMemoryLimit = 100 << 20
    /// The id the victim has, and the forger's, as its descriptor says.
    static let victim = "fixture.good"

    /// The forger built with `flags` (once per test run, unless two tests
    /// ask at once: each then builds its own).
    private static func forger(_ flags: String) throws -> URL {
        if let library = built.value[flags] { return library }
        let output = TestPaths.temporaryDirectory("forger").appendingPathComponent("libforger.so")
        try FixtureBuilder.compile(
            FixtureBuilder.sources.appendingPathComponent("forger.c"), to: output, flags: [flags])
        built.mutate { $0[flags] = output }
        return output
    }
    private static let built = LockedBox<[String: URL]>([:])

    /// A plugin folder: the forger first (by name), then the victim.
    private static func folder(_ flags: String) throws -> (folder: URL, forger: String, victim: String) {
        let folder = TestPaths.temporaryDirectory("forgery")
        let forger = folder.appendingPathComponent("libaaa-forger.so").path
        let victim = folder.appendingPathComponent("libvictim.so").path
        try FileManager.default.copyItem(atPath: try Self.forger(flags).path, toPath: forger)
        try FileManager.default.copyItem(atPath: try FixtureBuilder.library(.good).path, toPath: victim)
        return (folder, forger, victim)
    }

    @Test(arguments: Forgery.allCases)
    func aForgedReportReachesNoOutputAndTheVictimIsListedRight(_ forgery: Forgery) throws {
        let (folder, forger, victim) = try Self.folder(forgery.flag)
        let cache = TestPaths.temporaryDirectory("forgery-cache").path
        let environment = ["PRESENTER_SCAN_TIMEOUT_MS": String(Self.scanSeconds * 1000), "XDG_CACHE_HOME": cache]
        // Cold: the scan, bounded in time and memory.
        let list = try MeasuredHostRun(["--list", "--plugin-dir", folder.path], environment: environment)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.seconds < Self.bound, "a cold --list took \(list.seconds) s")
        #expect(list.peakBytes < Self.peakMemoryLimit, "a cold --list peaked at \(list.peakBytes) bytes")
        // Warm: what the cache kept of the scan.
        let verbose = try MeasuredHostRun(["--list", "-v", "--plugin-dir", folder.path], environment: environment)
        let ids = try MeasuredHostRun(["--list", "--ids", "--plugin-dir", folder.path], environment: environment)
        for (name, run) in [("--list", list), ("--list -v", verbose), ("--list --ids", ids)] {
            #expect(run.status == 0, "\(name): \(run.stderr)")
            for (stream, text) in [("stdout", run.stdout), ("stderr", run.stderr)] {
                let controls = text.unicodeScalars.filter { $0 != "\n" && ControlCharacters.escaped.matches($0) }
                #expect(
                    controls.isEmpty, "\(name) \(stream) holds \(controls.map { $0.value }): \(text.debugDescription)")
                #expect(!text.contains("hijacked") && !text.contains("owned"), "\(name) \(stream): \(text)")
            }
            // The victim, as its own descriptor says, at its own path.
            #expect(run.stdout.contains(victim) || name == "--list --ids", "\(name): \(run.stdout)")
        }
        let listed = ids.stdout.split(separator: "\n").map(String.init)
        #expect(listed.contains(Self.victim))
        #expect(
            listed.allSatisfy { $0.utf8.allSatisfy { "abcdefghijklmnopqrstuvwxyz0123456789._-".utf8.contains($0) } })
        let victimRow = list.stdout.split(separator: "\n").first { $0.hasPrefix(Self.victim + " ") }
        #expect(victimRow?.hasSuffix(victim) == true, "\(list.stdout)")
        let forgerLines = list.stderr.split(separator: "\n").filter { $0.contains(forger) }
        if let refusal = forgery.refusal {
            #expect(forgerLines.count == 1 && forgerLines[0].contains(refusal), "\(list.stderr)")
            #expect(!list.stdout.contains(forger), "\(list.stdout)")
        } else {
            // Its own claim, with valid fields only, on its own file.
            #expect(listed.contains("forger.claimed"))
            #expect(forgerLines.isEmpty, "\(list.stderr)")
        }

        // The victim runs, on a cold cache too, within the bound.
        let run = try MeasuredHostRun(
            [
                "run", "--presenter", Self.victim, "--working", "w", "--plugin-dir", folder.path, "--", "sh", "-c",
                "exit 7",
            ],
            environment: environment.merging(["XDG_CACHE_HOME": TestPaths.temporaryDirectory("forgery-cache").path]) {
                $1
            })
        #expect(run.status == 7, "\(run.stderr)")
        #expect(run.seconds < Self.bound, "run took \(run.seconds) s")
        #expect(!run.stderr.contains("presenter '\(Self.victim)'"), "\(run.stderr)")
        #expect(run.peakBytes < Self.peakMemoryLimit, "run peaked at \(run.peakBytes) bytes")
    }

    /// Plugin code that keeps the helper busy (holding the scan, flooding
    /// it, or taking over its lifeline) never outlives a host killed with
    /// SIGKILL while it loads.
    @Test(arguments: [Forgery.hold, .flood, .linger])
    func nothingIsLeftRunningAfterTheHostIsKilled(_ forgery: Forgery) throws {
        let (folder, forger, _) = try Self.folder(forgery.flag)
        // A long scan time: the helper would be there for it.
        let host = try TestProcess(
            TestPaths.binary, ["--list", "--plugin-dir", folder.path],
            environment: ["PRESENTER_SCAN_TIMEOUT_MS": "60000"], stdout: .null, stderr: .null)
        // Once a helper of the forger is in its constructor (or the host is
        // done with it: a flood is refused at its first line), the host is killed.
        let inConstructor = waitUntil(timeout: 20) {
            Self.processes(holding: forger).contains(where: Self.ignoresSIGUSR2) || !Self.isRunning(host.pid)
        }
        #expect(inConstructor, "no helper of \(forger) began its constructor")
        host.send(SIGKILL)
        host.wait()
        let gone = waitUntil(timeout: 5) { Self.processes(holding: folder.path).isEmpty }
        let left = Self.processes(holding: folder.path)
        for pid in left { kill(pid, SIGKILL) }
        #expect(gone, "left running after the host was killed: \(left)")
    }

    /// The helper dies with its parent (its parent-death signal is SIGKILL,
    /// which plugin code cannot clear) and has the presenter process's
    /// memory cap: the forger's probe ends the helper with status 9 when
    /// both hold, 3 otherwise.
    @Test(.disabled(if: Sanitizer.current != nil, "a sanitized build caps no address space"))
    func theHelperDiesWithItsParentAndCannotMapThreeGigabytes() throws {
        let (folder, forger, _) = try Self.folder("-DFORGER_PROBE")
        let list = try ProcessRunner.host(["--list", "--plugin-dir", folder.path])
        let line = list.stderr.split(separator: "\n").first { $0.contains(forger) } ?? ""
        #expect(line.contains("ended the process while loading (exit status 9)"), "\(list.stderr)")
    }

    // MARK: - Processes

    /// The processes whose command line holds `text`: a helper names its file.
    static func processes(holding text: String) -> [pid_t] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        let needle = Array(text.utf8)
        return pids.filter { pid in
            guard pid != getpid(), let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
            else { return false }
            return Array(line).firstRange(of: needle) != nil
        }
    }

    /// Whether `pid` ignores SIGUSR2 (its SigIgn mask in /proc/PID/status):
    /// the forger's constructor has begun.
    static func ignoresSIGUSR2(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn:") }),
            let mask = UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << (UInt64(SIGUSR2) - 1)) != 0
    }

    /// Whether `pid` has not ended (a zombie has).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }
}
