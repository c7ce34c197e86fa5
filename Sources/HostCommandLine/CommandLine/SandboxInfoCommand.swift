import HostPlugins
import HostSandbox
import HostSystem
import HostText

#if canImport(Glibc)
    import Glibc
#endif

/// `presenter-host --sandbox-info [--json]`: each layer of the sandbox that
/// the processes running plugin code enter on this machine (the presenter
/// process, the scan helper, check's), whether it is in force, and why not
/// (SECURITY.md). It asks a real one: a scan helper given no file
/// enters the sandbox and says what holds.
enum SandboxInfoCommand {
    static func execute(_ plugins: PluginOptions, json: Bool, environment: [String: String]) -> Int32 {
        guard let report = plugins.scanner(environment: environment).probe() else {
            return PresenterHostCommand.report(
                .systemError(
                    "--sandbox-info: no helper process could be started to enter the sandbox; check that \(PluginExecutable.path) can be run and that processes can be started (ulimit -u), and try again"
                ))
        }
        let text = json ? self.json(report) : self.text(report, kernel: kernelRelease)
        let status = PresenterHostCommand.printing(text)
        guard status == ExitCode.success.rawValue else { return status }
        // For scripts: with --sandbox require, a missing layer is a failure.
        return plugins.requiresSandbox && !report.isComplete ? ExitCode.failure.rawValue : status
    }

    static func text(_ report: ConfinementReport, kernel: String) -> String {
        var lines = ["The sandbox of the processes that run plugin code (Linux \(kernel)):"] + report.lines
        if report.isComplete {
            lines.append("Every layer is in force.")
        } else {
            let names = report.incomplete.map(\.layer.rawValue).joined(separator: ", ")
            lines.append(
                "Not wholly in force: \(names). Plugins still run, under what is; --sandbox require runs no third-party plugin here."
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ report: ConfinementReport) -> String {
        let layers = report.entries.map { entry in
            JSONValue.object([
                "layer": .string(entry.layer.rawValue), "state": .string(entry.state.rawValue),
                "detail": .string(entry.detail),
            ])
        }
        return JSONValue.object(["complete": .bool(report.isComplete), "layers": .array(layers)]).prettyPrinted + "\n"
    }

    /// The running kernel's release (`uname -r`).
    private static var kernelRelease: String { Kernel.release ?? "unknown" }
}
