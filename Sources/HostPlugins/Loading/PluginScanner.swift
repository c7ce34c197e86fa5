/// Finds the plugin files that would crash or hang the host, by loading them
/// first in a helper process (as GStreamer's `gst-plugin-scanner` does).
///
/// Some broken files cannot be refused by checking them: a bit-flipped
/// dynamic section sends `dlopen` into SIGSEGV or an ld.so assertion, a
/// constructor may call `abort()` or `exit()` or never return, and an entry
/// point may return a pointer to nowhere. The helper (`executable
/// --scan-plugins [--allow-insecure-plugins] PATH...`, see `ScanHelper`) loads the files one by one with
/// the host's own loader and reports progress and what each file holds
/// (`ScanProtocol`). When it dies or stops answering, the file it was loading
/// is blamed, and a new helper goes on with the files after it. The host
/// takes the helper's results and loads no file itself (the presenters it
/// gets have no hooks, as those from the registry cache).
public struct PluginScanner: Sendable {
    /// How long one file may take to load, in seconds, unless the environment says otherwise.
    public static let defaultTimeout = 5.0
    /// The environment variable that sets the per-file timeout in
    /// milliseconds (for tests and very slow machines).
    public static let timeoutVariable = "PRESENTER_SCAN_TIMEOUT_MS"

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

    /// A scanner that runs `executable` as its helper.
    public init(executable: String = "/proc/self/exe", timeout: Double = PluginScanner.defaultTimeout) {
        self.executable = executable
        self.timeout = timeout
    }

    /// A scanner that runs this process's own executable, with the timeout
    /// from `PRESENTER_SCAN_TIMEOUT_MS` when it is a positive whole number.
    public init(environment: [String: String]) {
        let milliseconds = environment[Self.timeoutVariable].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        self.init(timeout: milliseconds.map { Double($0) / 1000 } ?? Self.defaultTimeout)
    }

    /// The sandbox a process that runs plugin code enters on this machine,
    /// as a helper given no file reports it (`--sandbox-info`); nil when
    /// no helper could be started or it did not say.
    package func probe() -> ConfinementReport? {
        guard let helper = ScanProcess(executable: executable, paths: [], policy: .strict, requiresSandbox: false)
        else { return nil }
        var reader = ScanReader(paths: [])
        let deadline = ScanProcess.now() + max(timeout, Self.defaultTimeout)
        while case .line(let text) = helper.next(before: deadline), reader.read(text) == .more {}
        helper.finish(waitingUpTo: 0)
        let report = ConfinementReport(entries: reader.sandbox)
        return report.entries.count == ConfinementReport.Layer.allCases.count ? report : nil
    }

    /// What loading each file of `paths` (real paths) gave, by index: its
    /// results as the helper reported them, or why it crashed, ended or hung
    /// the helper. Files not named could not be scanned (no helper could be
    /// started, or it did not speak the protocol): those are loaded
    /// in-process as they would be without a scanner.
    package func scan(_ paths: [String], policy: PluginPolicy = .strict)
        -> [Int: PluginLibrary.Outcome]
    {
        var results: [Int: PluginLibrary.Outcome] = [:]
        var start = 0
        while start < paths.count {
            let remaining = Array(paths[start...])
            guard
                let helper = ScanProcess(
                    executable: executable, paths: remaining, policy: policy, requiresSandbox: requiresSandbox)
            else { break }
            var found: [Int: PluginLibrary.Outcome] = [:]
            let outcome = session(helper, paths: remaining, found: &found)
            for (index, result) in found { results[start + index] = result }
            switch outcome {
            case .finished:
                return results
            case .failed(let index, let failure):
                results[start + index] = .failure(failure)
                start += index + 1
            case .stopped(let completed) where completed > 0:
                start += completed
            case .stopped, .unusable:
                return results
            }
        }
        return results
    }

    /// How one helper's run ended.
    private enum Outcome {
        /// Every file was loaded.
        case finished
        /// The helper died or hung while loading file `index`.
        case failed(index: Int, PluginLoadFailure)
        /// The helper ended between files, after `completed` of them.
        case stopped(completed: Int)
        /// The helper never spoke the protocol (or spoke another version).
        case unusable
    }

    /// Follows one helper's reports until it has loaded its files (`paths`)
    /// or ends, putting each file's results into `found`. The helper gets
    /// `timeout` to start, too, but at least the default.
    private func session(
        _ helper: ScanProcess, paths: [String],
        found: inout [Int: PluginLibrary.Outcome]
    ) -> Outcome {
        var deadline = ScanProcess.now() + max(timeout, Self.defaultTimeout)
        var reader = ScanReader(paths: paths)
        while true {
            switch helper.next(before: deadline) {
            case .line(let text):
                switch reader.read(text) {
                case .more:
                    break
                case .loaded(let index, let contents):
                    found[index] = contents
                    if reader.completed == paths.count {
                        helper.finish(waitingUpTo: timeout)
                        return .finished
                    }
                case .broken:
                    helper.finish(waitingUpTo: 0)
                    return reader.started ? .stopped(completed: reader.completed) : .unusable
                }
                deadline = ScanProcess.now() + timeout
            case .end:
                let ending = helper.finish(waitingUpTo: timeout)
                guard reader.started else { return .unusable }
                guard let current = reader.current else { return .stopped(completed: reader.completed) }
                switch ending {
                case .stopped(let violation): return .failed(index: current, .stopped(violation))
                case .signaled(let signal): return .failed(index: current, .crashed(signal: signal))
                case .exited(let status): return .failed(index: current, .exited(status: status))
                }
            case .timeout:
                helper.finish(waitingUpTo: 0)
                guard reader.started else { return .unusable }
                guard let current = reader.current else { return .stopped(completed: reader.completed) }
                return .failed(index: current, .timedOut(seconds: timeout))
            }
        }
    }
}
