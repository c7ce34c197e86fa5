import HostSandbox
import HostSystem

/// Finds the plugin files that would crash or hang the host, by loading them
/// first in a helper process (as GStreamer's `gst-plugin-scanner` does).
///
/// Some broken files cannot be refused by checking them: a bit-flipped
/// dynamic section sends `dlopen` into SIGSEGV or an ld.so assertion, a
/// constructor may call `abort()` or `exit()` or never return, and an entry
/// point may return a pointer to nowhere. A helper (`executable
/// --scan-plugins HOSTPID [--allow-insecure-plugins] PATH`, see
/// `ScanHelper`) loads one file with the host's own loader and reports
/// what it holds (`ScanProtocol`); a few run at once. When one dies or
/// stops answering within its file's fixed deadline, its file is blamed.
/// The host takes each helper's report as its file's word about itself
/// (plugin code may have written it), checked by the rules a descriptor
/// read in place passes (`LoadRecords`), and loads no file itself (an
/// engine loads the files of the presenters it runs).
public struct PluginScanner: Sendable {
    /// How long one file may take to load, in seconds, unless the environment says otherwise.
    public static let defaultTimeout = 5.0
    /// The environment variable that sets the per-file timeout in
    /// milliseconds (for tests and very slow machines).
    public static let timeoutVariable = "PRESENTER_SCAN_TIMEOUT_MS"
    /// The longest per-file timeout the environment may set: a hostile or
    /// broken file holds a scan for no more than this, whatever a variable
    /// a command inherited says.
    public static let longestTimeout = 60.0

    /// The helper: a `presenter-host` binary (by default this very process's).
    public let executable: String
    /// Seconds one file may take to load before the helper is killed and the file blamed.
    public let timeout: Double
    /// Whether the helper loads nothing unless every layer of its sandbox
    /// is in force (`--sandbox=require`): each file is then refused with
    /// ``PluginLoadFailure/sandboxIncomplete(_:)``.
    public var requiresSandbox = false
    /// Whether a file no helper could load is loaded in this process
    /// (a command that runs its plugins here anyway, `--in-process`), not
    /// refused as ``PluginLoadFailure/unscanned``.
    public var trustsUnscanned = false
    /// The host's environment, of which the helpers get what their sandbox
    /// passes (the locale, TERM, NO_COLOR: `PluginConfinement.passes`): the
    /// value the command line read and passed down, or, for a library
    /// caller that gave none, this process's.
    package var environment: [String: String]

    /// A scanner that runs `executable` as its helper; nil:
    /// presenter-host-plugins, found beside this program or in
    /// `../libexec/presenter-host/` from it (``PluginExecutable``).
    public init(executable: String? = nil, timeout: Double = PluginScanner.defaultTimeout) {
        self.init(
            executable: executable ?? PluginExecutable.path, timeout: timeout, environment: ProcessEnvironment.current)
    }

    /// A scanner that runs presenter-host-plugins (``PluginExecutable``), with the timeout
    /// from `PRESENTER_SCAN_TIMEOUT_MS` when it is a positive whole number
    /// (at most ``longestTimeout``), its helpers started with `environment`
    /// (what their sandbox passes of it).
    public init(environment: [String: String]) {
        let milliseconds = environment[Self.timeoutVariable].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        self.init(
            executable: PluginExecutable.path,
            timeout: milliseconds.map { min(Double($0) / 1000, Self.longestTimeout) } ?? Self.defaultTimeout,
            environment: environment)
    }

    /// A scanner that runs `executable`, its helpers started with
    /// `environment` (the host's, passed down; what their sandbox passes
    /// of it).
    package init(executable: String, timeout: Double, environment: [String: String]) {
        self.executable = executable
        self.timeout = timeout
        self.environment = environment
    }

    /// The sandbox a process that runs plugin code enters on this machine,
    /// as a helper given no file reports it (`--sandbox-info`); nil when
    /// no helper could be started or it did not say.
    package func probe() -> ConfinementReport? {
        guard
            let helper = ScanProcess(
                executable: executable, path: nil, policy: .strict, requiresSandbox: false, environment: environment)
        else { return nil }
        var reader = ScanReader(path: nil)
        let deadline = ScanProcess.now() + max(timeout, Self.defaultTimeout)
        reading: while true {
            switch helper.next() {
            case .line(let line):
                guard reader.read(line[...]) == .more else { break reading }
            case .waiting:
                guard ScanProcess.now() < deadline else { break reading }
                ScanProcess.waitForAny([helper], before: deadline)
            case .end:
                break reading
            }
        }
        helper.finish(waitingUpTo: 0)
        let report = ConfinementReport(entries: reader.sandbox)
        return report.entries.count == ConfinementReport.Layer.allCases.count ? report : nil
    }

    /// How many helpers run at once: each loads one file, so that what one
    /// reports can only be about that file, and a few at once keep a cold
    /// start of many files short (docs/ARCHITECTURE.md gives the figures).
    package static let concurrentHelpers = 4

    /// What loading each file of `paths` (real paths) gave, by index: its
    /// results as its helper reported them (or why that report was
    /// refused), or why it crashed, ended or hung the helper. Files not
    /// named could not be scanned (no helper could be started, or one did
    /// not speak the protocol): the caller refuses them (or, trusting
    /// them, loads them in-process).
    /// `enough`, asked after each file's outcome with every outcome so far,
    /// ends the scan early when it says so: the helpers still running are
    /// killed, and their files (and those not begun) are left out.
    package func scan(
        _ paths: [String], policy: PluginPolicy = .strict,
        until enough: (([Int: PluginLibrary.Outcome]) -> Bool)? = nil
    ) -> [Int: PluginLibrary.Outcome] {
        var results: [Int: PluginLibrary.Outcome] = [:]
        var running: [FileScan] = []
        var next = 0
        var usable = true
        while true {
            while usable, running.count < Self.concurrentHelpers, next < paths.count {
                guard let scan = FileScan(index: next, path: paths[next], scanner: self, policy: policy) else {
                    usable = false
                    break
                }
                running.append(scan)
                next += 1
            }
            guard !running.isEmpty else { return results }
            let before = running.count
            var done = false
            running.removeAll { scan in
                switch scan.advance() {
                case nil: return false
                case .loaded(let outcome):
                    results[scan.index] = outcome
                    done = done || enough?(results) == true
                case .unusable: usable = false
                }
                return true
            }
            // The helpers still running end with their FileScans (killed).
            if done { return results }
            if running.count == before, let deadline = running.map(\.deadline).min() {
                ScanProcess.waitForAny(
                    running.map(\.helper), closed: Set(running.filter(\.closed).map { ObjectIdentifier($0.helper) }),
                    before: deadline)
            }
        }
    }
}

/// One file being scanned: its helper, what it said so far, and until when
/// it may take.
private final class FileScan {
    /// What came of it.
    enum Verdict {
        /// The file's outcome: what its report said, or how it ended its helper.
        case loaded(PluginLibrary.Outcome)
        /// The helper never spoke the protocol (or another version), or
        /// ended before loading the file: no helper is to be trusted with
        /// the files left.
        case unusable
    }

    /// The file's index among the scanner's paths.
    let index: Int
    let helper: ScanProcess
    private var reader: ScanReader
    /// The scanner's time for one file.
    private let timeout: Double
    /// Its helper closed the report channel while its file was loading:
    /// it is waited for (through its pidfd) until it ends or its deadline.
    private(set) var closed = false
    /// When the helper is given up: first when it must have begun (it gets
    /// the scanner's timeout to start, but at least the default), then, fixed
    /// once the file begins loading, `timeout` after that: no line extends it.
    private(set) var deadline: Double

    init?(index: Int, path: String, scanner: PluginScanner, policy: PluginPolicy) {
        guard
            let helper = ScanProcess(
                executable: scanner.executable, path: path, policy: policy, requiresSandbox: scanner.requiresSandbox,
                environment: scanner.environment)
        else { return nil }
        self.index = index
        self.helper = helper
        reader = ScanReader(path: path)
        timeout = scanner.timeout
        deadline = ScanProcess.now() + max(scanner.timeout, PluginScanner.defaultTimeout)
    }

    /// Reads what the helper has sent; nil while the file is still loading
    /// and its deadline not passed. Every line already sent is read before
    /// a deadline is looked at: a file that was done in time is not blamed
    /// for a wait elsewhere.
    func advance() -> Verdict? {
        while true {
            switch helper.next() {
            case .line(let line):
                let begun = reader.begun
                switch reader.read(line[...]) {
                case .more:
                    if !begun && reader.begun { deadline = ScanProcess.now() + timeout }
                case .loaded(let outcome):
                    helper.finish(waitingUpTo: 0)
                    return .loaded(outcome)
                case .broken:
                    helper.finish(waitingUpTo: 0)
                    return .unusable
                }
            case .waiting:
                guard ScanProcess.now() >= deadline else { return nil }
                helper.finish(waitingUpTo: 0)
                return reader.begun ? .loaded(.failure(.timedOut(seconds: timeout))) : .unusable
            case .end:
                guard reader.begun else {
                    helper.finish(waitingUpTo: 0)
                    return .unusable
                }
                // It closed the channel: it ended, or its file's code closed
                // it. Waited for without holding the other files' helpers:
                // until it ends, or its deadline.
                closed = true
                guard helper.hasEnded || ScanProcess.now() >= deadline else { return nil }
                let (ending, killed) = helper.finish(waitingUpTo: 0)
                if killed { return .loaded(.failure(.timedOut(seconds: timeout))) }
                switch ending {
                case .stopped(let violation): return .loaded(.failure(.stopped(violation)))
                case .signaled(let signal): return .loaded(.failure(.crashed(signal: signal)))
                case .exited(let status): return .loaded(.failure(.exited(status: status)))
                }
            }
        }
    }
}
