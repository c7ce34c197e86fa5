import Foundation

/// A bash script that drives the built binary (`$HOST`) in a folder of its
/// own (`$DIR`, its working directory), killed if it outlives a watchdog,
/// with how long it took and the most memory any process it waited for held
/// (``PeakMemory``: bash's own, or that of a process it reaped, the host
/// among them). The script reports what it measured as `key=value`
/// lines on stdout (``values``).
struct BoundedScript {
    /// The script's exit status, or 128 + the signal (137: the watchdog).
    let status: Int32
    let stdout: String
    let stderr: String
    let seconds: Double
    let peakBytes: Int
    /// The script's folder, for the files it left.
    let folder: String

    /// The watchdog: far past any bound a test states.
    static let watchdog = TestTime.scaled(90)

    init(_ script: String, environment: [String: String] = [:], folder: String? = nil) throws {
        let folder = folder ?? TestPaths.temporaryDirectory("wait").path
        self.folder = folder
        let run = try MeasuredHostRun(
            "/bin/bash", ["bash", "-c", "cd \"$DIR\" || exit 99\n" + script],
            environment: TestProcess.environment(
                adding: environment.merging(["HOST": TestPaths.binary.path, "DIR": folder, "TERM": "dumb"]) { a, _ in a
                }),
            folder: folder, watchdog: Self.watchdog, ownGroup: true)
        (status, stdout, stderr, seconds, peakBytes) = (run.status, run.stdout, run.stderr, run.seconds, run.peakBytes)
    }

    /// The `key=value` lines of stdout (the last one of a key wins).
    var values: [String: String] {
        var values: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    /// `values[key]` as a number of milliseconds, in seconds.
    func seconds(_ key: String) -> Double? { values[key].flatMap(Double.init).map { $0 / 1000 } }

    /// What the script and its processes said, for a failed expectation.
    var transcript: String { "status \(status) after \(seconds) s\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}
