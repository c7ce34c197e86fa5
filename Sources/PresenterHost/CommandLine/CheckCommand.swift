import Dispatch
import FoundationEssentials
import Glibc

/// `presenter-host check FILE... [--json]`: runs the conformance suite
/// (``ConformanceSuite``) on plugin files and prints PASS, FAIL or WARN for
/// each check with the reason and what to change. Exits 0 only when no
/// check failed (warnings do not fail), 1 otherwise.
enum CheckCommand {
    static let usage =
        "Usage: presenter-host [--plugin-dir <dir>]... check [--json] [--hook-timeout <seconds>] <file.so>...\n"

    static func execute(_ arguments: [String], pluginDirs: [String]) -> Int32 {
        var files: [String] = []
        var json = false
        var hookTimeout = PresenterProcess.Configuration.defaultHookTimeout
        var index = arguments.startIndex
        do throws(CommandError) {
            while index < arguments.endIndex {
                let argument = arguments[index]
                index += 1
                switch argument {
                case "-h", "--help":
                    return PresenterHostCommand.printing(usage + help)
                case "--json":
                    json = true
                case "--hook-timeout":
                    guard index < arguments.endIndex else {
                        throw .usage("Missing value for '--hook-timeout <seconds>'")
                    }
                    guard let value = Double(arguments[index]), value > 0, value <= 60 else {
                        throw .usage(
                            "Invalid value '\(arguments[index])' for '--hook-timeout <seconds>'; give a number of seconds above 0, at most 60"
                        )
                    }
                    hookTimeout = value
                    index += 1
                case _ where argument.hasPrefix("-") && argument != "-":
                    throw .usage("Unknown option '\(argument)' for 'check'")
                default:
                    files.append(argument)
                }
            }
            guard !files.isEmpty else { throw .usage("'check' needs at least one plugin file (a .so)") }
            for file in files where access(file, F_OK) != 0 {
                throw .noInput(
                    "check: \(PrintableText.escaping(file)): no such file; give the path of a plugin .so file")
            }
        } catch {
            if case .usage(let message) = error {
                PresenterHostCommand.writeStandardError(
                    "Error: \(message)\n" + usage + "See 'presenter-host check --help'.\n")
                return error.exitCode.rawValue
            }
            return PresenterHostCommand.report(error)
        }

        let environment = ProcessInfo.processInfo.environment
        let scanner = PluginScanner(environment: environment)
        let suite = ConformanceSuite(configuration: PresenterProcess.Configuration(hookTimeout: hookTimeout)) {
            let (entries, warnings) = SearchPath.resolve(
                pluginDirs: pluginDirs, environment: environment, executablePath: nil)
            for warning in warnings { PresenterHostCommand.writeStandardError(warning + "\n") }
            return RegistryPipeline(scanner: scanner).load(entries)
        }
        // Plugin code runs here while loading (constructors, the entry point): what it prints must not mix with the report.
        let diversion = StandardOutputDiversion()
        var results: [ConformanceResult] = []
        for file in files {
            results += suite.check(path: absolute(file), scanner: scanner)
        }
        do throws(Errno) {
            try diversion.write(json ? self.json(results) : text(results))
        } catch {
            return PresenterHostCommand.report(PresenterHostCommand.outputFailure(error))
        }
        return results.contains { $0.verdict == .fail } ? ExitCode.failure.rawValue : ExitCode.success.rawValue
    }

    static let help = """

        Runs the conformance checks on each presenter of each plugin file, every
        check in a sandboxed presenter process of its own (a crash or a hang is
        that check's FAIL), and prints PASS, FAIL or WARN for each with the reason
        and what to change. Exits 0 when no check failed, 1 otherwise.

        Options:
          --json                    Print JSON for CI: {"results": [{"path", "presenter",
                                    "check", "result", "reason", "fix"}], "summary": {...}}.
          --hook-timeout <seconds>  The budget of one hook (default: 0.25, at most 60).
          --plugin-dir <dir>        (before 'check') Where bases of presenters that
                                    extend another are looked for first.

        """

    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    // MARK: - Output

    /// One block per presenter: its checks, with the reason and the fix;
    /// then one summary line.
    static func text(_ results: [ConformanceResult]) -> String {
        var text = ""
        var previous: (String, String?)?
        for result in results {
            if previous == nil || previous! != (result.path, result.presenterId) {
                if previous != nil { text += "\n" }
                text += PrintableText.escaping(result.path) + (result.presenterId.map { ": \($0)" } ?? "") + "\n"
                previous = (result.path, result.presenterId)
            }
            text +=
                "  \(result.verdict.rawValue)  \(result.check)"
                + (result.reason.map { ": \(PrintableText.escaping($0))" } ?? "") + "\n"
            if let fix = result.fix { text += "        fix: \(fix)\n" }
        }
        return text + "\n" + summary(results) + "\n"
    }

    static func summary(_ results: [ConformanceResult]) -> String {
        let count = { (verdict: ConformanceResult.Verdict) in results.filter { $0.verdict == verdict }.count }
        let presenters = Set(results.compactMap { $0.presenterId.map { [results.first!.path, $0] } }).count
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
