import HostEngine
import HostPlugins
import HostSystem
import HostText

/// `presenter-host check FILE... [--json]`: runs the conformance suite
/// (``ConformanceSuite``) on plugin files and prints PASS, FAIL or WARN for
/// each check with the reason and what to change. Exits 0 only when no
/// check failed (warnings do not fail), 1 otherwise.
enum CheckCommand {
    /// What `check` was asked to do (``CommandTable/check``).
    struct Options: Equatable {
        var files: [String]
        var json = false
        var hookTimeout = PresenterProcessConfiguration.defaultHookTimeout
        /// Where bases are looked for, and the policy every file is loaded
        /// under; the registry cache is never used.
        var plugins = PluginOptions()

        init(files: [String]) { self.files = files }

        init(_ parsed: ParsedArguments) {
            files = parsed.operands
            json = parsed.has("--json")
            hookTimeout = parsed.seconds("--hook-timeout") ?? hookTimeout
            plugins = PluginOptions(parsed)
            plugins.cache = .off
        }
    }

    static func execute(_ options: Options, environment: [String: String]) -> Int32 {
        for file in options.files where !FileStatus.exists(file) {
            return PresenterHostCommand.report(
                .noInput("check: \(PrintableText.escaping(file)): no such file; give the path of a plugin .so file"))
        }
        let scanner = options.plugins.scanner(environment: environment)
        let configuration = options.plugins.presenterProcess(hookTimeout: options.hookTimeout, environment: environment)
        let suite = ConformanceSuite(configuration: configuration) {
            options.plugins.loadRegistry(environment: environment, verbose: false)
        }
        // The bundled bases are loaded here on a cold cache (constructors, the entry point): what they print must not mix with the report.
        let diversion = StandardOutputDiversion()
        var results: [ConformanceResult] = []
        for file in options.files {
            // Every row of a file names it as given: the suite loads its real
            // path, and a presenter's rows would otherwise name that one.
            let path = absolute(file)
            results += suite.check(path: path, scanner: scanner).map { result in
                var result = result
                result.path = path
                return result
            }
        }
        do throws(Errno) {
            try diversion.write(options.json ? self.json(results) : text(results))
        } catch {
            return PresenterHostCommand.report(PresenterHostCommand.outputFailure(error))
        }
        return results.contains { $0.verdict == .fail } ? ExitCode.failure.rawValue : ExitCode.success.rawValue
    }

    /// `path` from the root, its `.` components dropped (`./libx.so` is
    /// `<cwd>/libx.so`). `..` is kept: through a link it is not the parent.
    private static func absolute(_ path: String) -> String {
        // A working directory that cannot be read is `/`: the path from the root.
        let whole = path.hasPrefix("/") ? path : PathName.currentDirectory() + "/" + path
        return "/" + whole.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    // MARK: - Output

    /// One block per presenter: its checks, with the reason and the fix;
    /// then one summary line. Every text is escaped (`PrintableText`): the
    /// path, the id and the reasons quote what the plugin chose.
    static func text(_ results: [ConformanceResult]) -> String {
        var text = ""
        var previous: (String, String?)?
        for result in results {
            if previous == nil || previous! != (result.path, result.presenterId) {
                if previous != nil { text += "\n" }
                text +=
                    PrintableText.escaping(result.path)
                    + (result.presenterId.map { ": \(PrintableText.escaping($0))" } ?? "") + "\n"
                previous = (result.path, result.presenterId)
            }
            text +=
                "  \(result.verdict.rawValue)  \(PrintableText.escaping(result.check))"
                + (result.reason.map { ": \(PrintableText.escaping($0))" } ?? "") + "\n"
            if let fix = result.fix { text += "        fix: \(PrintableText.escaping(fix))\n" }
        }
        return text + "\n" + summary(results) + "\n"
    }

    static func summary(_ results: [ConformanceResult]) -> String {
        let count = { (verdict: ConformanceResult.Verdict) in results.filter { $0.verdict == verdict }.count }
        // A presenter is its file and its id: files of one presenter each
        // all have "descriptor 0" when their descriptor was refused.
        let presenters = Set(results.compactMap { result in result.presenterId.map { [result.path, $0] } }).count
        return
            "\(presenters) presenter\(presenters == 1 ? "" : "s") checked: \(count(.pass)) passed, \(count(.fail)) failed, \(count(.warn)) warned"
    }

    static func json(_ results: [ConformanceResult]) -> String {
        let count = { (verdict: ConformanceResult.Verdict) in results.filter { $0.verdict == verdict }.count }
        let document: JSONValue = [
            "results": .array(
                results.map { result in
                    [
                        "path": .string(result.path), "presenter": JSONValue(result.presenterId),
                        "check": .string(result.check), "result": .string(result.verdict.rawValue),
                        "reason": JSONValue(result.reason), "fix": JSONValue(result.fix),
                    ]
                }),
            "summary": ["passed": .int(count(.pass)), "failed": .int(count(.fail)), "warned": .int(count(.warn))],
        ]
        return document.prettyPrinted + "\n"
    }
}
