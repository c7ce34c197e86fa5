/// Finds the plugin files that would crash or hang the host, by loading them
/// first in a helper process (as GStreamer's `gst-plugin-scanner` does).
///
/// Some broken files cannot be refused by checking them: a bit-flipped
/// dynamic section sends `dlopen` into SIGSEGV or an ld.so assertion, a
/// constructor may call `abort()` or `exit()` or never return, and an entry
/// point may return a pointer to nowhere. The helper (`executable
/// --scan-plugins [--allow-insecure-plugins] PATH...`, see `ScanHelper`) loads the files one by one with
/// the host's own loader and reports progress (`ScanProtocol`). When it dies
/// or stops answering, the file it was loading is blamed, and a new helper
/// goes on with the files after it. The host then loads only the files that
/// passed, in-process, where their refusals (a bad descriptor...) come from
/// the same loader.
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

    /// The files of `paths` that crashed, ended or hung the helper, by index,
    /// with why. Files not named passed, or could not be scanned (no helper
    /// could be started, or it did not speak the protocol): those are loaded
    /// in-process as they would be without a scanner.
    public func scan(_ paths: [String], policy: PluginPolicy = .strict) -> [Int: PluginLoadFailure] {
        var blamed: [Int: PluginLoadFailure] = [:]
        var start = 0
        while start < paths.count {
            guard let helper = ScanProcess(executable: executable, paths: Array(paths[start...]), policy: policy) else { break }
            switch session(helper, count: paths.count - start) {
            case .finished:
                return blamed
            case .failed(let index, let failure):
                blamed[start + index] = failure
                start += index + 1
            case .stopped(let completed) where completed > 0:
                start += completed
            case .stopped, .unusable:
                return blamed
            }
        }
        return blamed
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

    /// Follows one helper's reports until it has loaded its `count` files or
    /// ends. The helper gets `timeout` to start, too, but at least the default.
    private func session(_ helper: ScanProcess, count: Int) -> Outcome {
        var deadline = ScanProcess.now() + max(timeout, Self.defaultTimeout)
        var started = false
        var current: Int?
        var completed = 0
        while true {
            switch helper.next(before: deadline) {
            case .line(let text):
                switch (ScanProtocol.Line(text), current) {
                case (.header(ScanProtocol.version)?, nil) where !started:
                    started = true
                case (.begin(let index)?, nil) where started && index == completed:
                    current = index
                case (.done(let index)?, let begun?) where index == begun:
                    current = nil
                    completed += 1
                    if completed == count {
                        helper.finish(waitingUpTo: timeout)
                        return .finished
                    }
                default:
                    helper.finish(waitingUpTo: 0)
                    return started ? .stopped(completed: completed) : .unusable
                }
                deadline = ScanProcess.now() + timeout
            case .end:
                let ending = helper.finish(waitingUpTo: timeout)
                guard started else { return .unusable }
                guard let current else { return .stopped(completed: completed) }
                switch ending {
                case .signaled(let signal): return .failed(index: current, .crashed(signal: signal))
                case .exited(let status): return .failed(index: current, .exited(status: status))
                }
            case .timeout:
                helper.finish(waitingUpTo: 0)
                guard started else { return .unusable }
                guard let current else { return .stopped(completed: completed) }
                return .failed(index: current, .timedOut(seconds: timeout))
            }
        }
    }
}
