import Foundation

/// The `--log` file of a binary run with `--trace`, read while it runs: one
/// line for each hook call, written once the hook returned. What a test
/// waits on to know a presenter got somewhere (it rendered, it was told the
/// action ended) instead of sleeping for a guessed time.
struct TraceLog {
    let path: String

    /// A log file in a fresh temporary folder.
    init() { path = TestPaths.temporaryDirectory("trace").appendingPathComponent("trace.log").path }

    /// The flags that send the trace here, before and after the subcommand:
    /// `--trace <command> --log <path>`.
    func flags(_ command: String) -> [String] { ["--trace", command, "--log", path] }

    /// The same as one shell word list.
    func shellFlags(_ command: String) -> String { flags(command).map(TmuxSession.quoted).joined(separator: " ") }

    /// A shell command that waits until a trace line matches `pattern` (a
    /// basic regular expression, ``shellWaitUntil(_:)``): for a command
    /// that must not go on before the presenter heard something. The log
    /// also holds the command itself (the start event), so the pattern must
    /// not match its own text: write `0[.]4` for `0.4`.
    func shellWait(for pattern: String) -> String {
        shellWaitUntil("grep -q '\(pattern)' '\(path)'")
    }

    /// The hook calls so far, as `presenter.hook(arguments) -> result`.
    var calls: [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "debug: trace: "), !line[range.upperBound...].hasPrefix("discovery:")
            else { return nil }
            return String(line[range.upperBound...])
        }
    }

    /// How many calls of `hook` (e.g. `mbhud.render`) there were so far.
    func count(_ hook: String) -> Int { calls.filter { $0.hasPrefix(hook + "(") }.count }

    /// The times (the host's monotonic clock, in ns) of the renders so far.
    var renderTimes: [UInt64] {
        calls.compactMap { call in
            guard let range = call.range(of: ".render(now ") else { return nil }
            return UInt64(call[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// Whether `later` was called after the last call of `earlier` so far
    /// (e.g. a render after the hide).
    func called(_ later: String, after earlier: String) -> Bool {
        let calls = self.calls
        guard let last = calls.lastIndex(where: { $0.hasPrefix(earlier + "(") }) else { return false }
        return calls[(last + 1)...].contains { $0.hasPrefix(later + "(") }
    }
}
