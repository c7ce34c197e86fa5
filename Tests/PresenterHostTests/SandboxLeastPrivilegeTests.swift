import Foundation
import Glibc
import Testing
@testable import PresenterHost

/// A presenter decides how progress looks, and nothing else, against intent
/// as well as accident (issue 17): a hostile presenter (intruder.c, a real
/// `.so` written from docs/ABI.md alone) makes one attempt per rule through
/// the built binary, at show time under `run`, in a constructor under
/// `--list`, and under `check`. Each attempt must fail, leave the command's
/// status and stdout bytes exact, leave nothing running, write no file,
/// reach no loopback listener, and be said in the one line the design says
/// (none when the attempt just fails).
@Suite("The sandbox: a hostile presenter, one attempt per rule")
struct SandboxLeastPrivilegeTests {
    /// One attempt of intruder.c (INTRUDER_ATTACK; the file says how each is made).
    enum Attack: String, CaseIterable, Sendable, CustomTestStringConvertible {
        // Signals, ptrace and pidfds: only to itself.
        case killHostSIGKILL = "kill-host-sigkill", killHostSIGTERM = "kill-host-sigterm"
        case killHostSIGSTOP = "kill-host-sigstop", ptraceHost = "ptrace-host", pidfdHost = "pidfd-host"
        case sigioHost = "sigio-host", killCommand = "kill-command"
        // Files: reading what loading needs, writing nothing.
        case writeStdout = "write-stdout", writeStderr = "write-stderr"
        case writeTerminal = "write-terminal", writeTTY = "write-tty"
        case readSecret = "read-secret", writeHome = "write-home", writeTmp = "write-tmp"
        // Network: none.
        case tcp, udp, unix, abstract
        // Processes: threads only.
        case forkExec = "fork-exec", system, execve, daemon
        // Limits: no core files.
        case core

        var testDescription: String { rawValue }

        /// What the sandbox stops (seccomp's SIGSYS): the rule in words, the
        /// call as the report gives it, and the call's name.
        struct Stop {
            var attempt: String
            var invocation: String
            var call: String
        }

        /// How the attempt ends under the whole sandbox.
        enum Outcome {
            /// It fails (a file: EPERM or EACCES; a Unix socket: EPERM;
            /// F_SETOWN: ESRCH, the host is in no PID namespace of the
            /// intruder's; kill-command finds nobody in /proc to kill); the
            /// presenter goes on and nothing is said.
            case fails
            /// The sandbox stops the process, and says so.
            case stopped(Stop)
            /// The process crashes as it meant to (core: a core file is the
            /// attempt), with this signal.
            case crashes(String)
        }

        /// `host`: the pid the intruder aimed at (the process that started its own).
        func outcome(host: pid_t) -> Outcome {
            switch self {
            case .killHostSIGKILL, .killHostSIGTERM, .killHostSIGSTOP:
                let signal = rawValue.split(separator: "-").last!.uppercased()
                return .stopped(
                    Stop(
                        attempt: "send \(signal) to another process", invocation: "kill(\(host), \(signal))",
                        call: "kill"))
            // 16: PTRACE_ATTACH.
            case .ptraceHost:
                return .stopped(
                    Stop(attempt: "trace another process", invocation: "ptrace(16, \(host))", call: "ptrace"))
            case .pidfdHost:
                return .stopped(
                    Stop(attempt: "reach another process", invocation: "pidfd_open(\(host))", call: "pidfd_open"))
            case .tcp:
                return .stopped(
                    Stop(
                        attempt: "connect to a network address", invocation: "socket(AF_INET, SOCK_STREAM)",
                        call: "socket"))
            case .udp:
                return .stopped(
                    Stop(
                        attempt: "send over the network (UDP)", invocation: "socket(AF_INET, SOCK_DGRAM)",
                        call: "socket"))
            case .forkExec, .system, .daemon:
                return .stopped(Stop(attempt: "start a process", invocation: "clone", call: "clone"))
            case .execve:
                return .stopped(Stop(attempt: "run a program", invocation: "execve", call: "execve"))
            case .core:
                return .crashes("SIGSEGV")
            default:
                return .fails
            }
        }

        /// A bug of the product this attempt meets, where the sandbox holds
        /// but does not say so as designed (reported; the test is not weakened).
        var reportIssue: Comment? {
            switch self {
            case .system:
                """
                system() (like posix_spawn and popen) makes its clone with every signal blocked: the \
                seccomp trap then ends the process with SIGSYS without running the handler, no record \
                reaches the host, and it reports a crash ('crashed in show (SIGSYS)', 'crashed while \
                loading (SIGSYS): the file is corrupt...') and check's sandbox check PASSes
                """
            case .killHostSIGSTOP:
                "SignalName has no SIGSTOP: the stop is said as 'send signal 19 to another process', 'kill(PID, signal 19)'"
            default: nil
            }
        }

        /// Aimed at the host's terminal: only a run in one can show it.
        var needsTerminal: Bool { self == .writeTerminal || self == .writeTTY }

        /// The attempts a plain (no terminal) run can show.
        static let plain = allCases.filter { !$0.needsTerminal }
        /// Those with a target at load time and under check, where there is
        /// no command (kill-command would find nobody to kill).
        static let withoutCommand = plain.filter { $0 != .killCommand }
    }

    /// The line `run` prints about the presenter, after "presenter 'fixture.intruder' ".
    static func runLine(_ outcome: Attack.Outcome) -> String? {
        switch outcome {
        case .fails: nil
        case .stopped(let stop): "was stopped in show: it tried to \(stop.attempt) (presenters may not)"
        case .crashes(let signal): "crashed in show (\(signal))"
        }
    }

    /// The reason `--list` and check's `loads` give for the file.
    static func loadReason(_ outcome: Attack.Outcome) -> String? {
        switch outcome {
        case .fails: nil
        case .stopped(let stop):
            "was stopped while loading: it tried to \(stop.attempt) (\(stop.invocation)), which presenters may not; remove it, or ask its author to (docs/SECURITY.md)"
        case .crashes(let signal):
            "crashed while loading (\(signal)): the file is corrupt or not built for this ABI; remove or rebuild it"
        }
    }

    // MARK: - Every layer: run, --list, check

    @Test(arguments: Attack.plain)
    func atShowTimeUnderRun(_ attack: Attack) throws {
        let trial = try IntruderTrial()
        let run = try trial.run(trial.runArguments, environment: trial.environment(attack.rawValue, when: .show))
        let effects = trial.effects(outputs: run.outputs)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stdout == IntruderTrial.commandStdout, "\(run.stdout.text.debugDescription)")
        #expect(effects.isNone, "\(effects)")
        #expect(trial.attempted(attack.rawValue, stderr: run.stderr), "no attempt: \(trial.log)")
        // The working line, the one line about the presenter (none when the
        // attempt just failed), the outcome.
        var lines = ["Working", "✖ Failed: exit status 3"]
        if let line = Self.runLine(attack.outcome(host: run.pid)) {
            lines.insert(
                "presenter-host: presenter 'fixture.intruder' \(line); going on with plain progress lines", at: 1)
        }
        Self.expect(run.stderr, equals: lines.joined(separator: "\n") + "\n", issue: attack.reportIssue)
    }

    @Test(arguments: Attack.withoutCommand)
    func inAConstructorUnderList(_ attack: Attack) throws {
        let trial = try IntruderTrial()
        let list = ["--no-cache", "--plugin-dir", trial.plugins.path, "--list"]
        let run = try trial.run(list, environment: trial.environment(attack.rawValue, when: .load))
        #expect(run.status == 0, "\(run.stderr)")
        if let reason = Self.loadReason(attack.outcome(host: run.pid)) {
            // Refused: the bundled presenters alone, and one line for the file.
            let bundled = try Self.bundledListing()
            #expect(run.stdout == bundled, "\(run.stdout.text)")
            Self.expect(
                run.stderr, equals: "presenter-host: \(trial.library.path): \(reason)\n", issue: attack.reportIssue)
        } else {
            // Listed as if it had tried nothing: the same bytes as a list of
            // the same folder whose constructor attempts nothing.
            let quiet = try trial.run(list, environment: trial.environment("none", when: .load))
            #expect(quiet.stdout.text.contains("\nfixture.intruder  Intruder  "), "\(quiet.stdout.text)")
            #expect(quiet.stdout.text.contains("\nmbhud "), "\(quiet.stdout.text)")
            #expect(run.stdout == quiet.stdout, "\(run.stdout.text)")
            #expect(run.stderr == "")
            // It did try: its description says what came of it (--json).
            let json = try trial.run(list + ["--json"], environment: trial.environment(attack.rawValue, when: .load))
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any], "\(json.stdout.text)")
            let plugins = try #require(document["plugins"] as? [[String: Any]])
            let intruder = try #require(plugins.first { $0["id"] as? String == "fixture.intruder" })
            let description = intruder["description"] as? String
            #expect(description?.hasPrefix("attempted \(attack.rawValue): ") == true, "\(description ?? "none")")
        }
        let effects = trial.effects(outputs: run.outputs)
        #expect(effects.isNone, "\(effects)")
    }

    @Test(arguments: Attack.withoutCommand)
    func atShowTimeUnderCheck(_ attack: Attack) throws {
        let trial = try IntruderTrial()
        let run = try trial.run(
            ["check", "--json", "--hook-timeout", String(TestTime.scaled(10)), trial.library.path],
            environment: trial.environment(attack.rawValue, when: .show))
        let rows = try Self.rows(run)
        let sandbox = try #require(rows.first { $0.check == "sandbox" }, "\(rows)")
        switch attack.outcome(host: run.pid) {
        case .fails:
            // Nothing else is wrong with it: every check passes.
            #expect(run.status == 0)
            #expect(rows.filter { $0.result != "PASS" } == [])
        case .stopped(let stop):
            #expect(run.status == 1)
            Self.expect(
                sandbox,
                equals: CheckRow(
                    presenter: "fixture.intruder", check: "sandbox", result: "FAIL",
                    reason: "the sandbox stopped it in show: it tried to \(stop.attempt) (\(stop.invocation))",
                    fix: Self.sandboxFix(stop)),
                issue: attack.reportIssue)
        case .crashes(let signal):
            // A crash is a crash (the first session's check), not the sandbox's.
            #expect(run.status == 1)
            #expect(sandbox.result == "PASS")
            let first = try #require(rows.first { $0.check == "create-destroy" })
            #expect(first.reason == "presenter 'fixture.intruder' crashed in show (\(signal))")
        }
        #expect(run.stderr == "")
        let effects = trial.effects(outputs: run.outputs)
        #expect(effects.isNone, "\(effects)")
    }

    @Test(arguments: Attack.withoutCommand)
    func inAConstructorUnderCheck(_ attack: Attack) throws {
        let trial = try IntruderTrial()
        let path = trial.library.path
        switch attack.outcome(host: 0) {
        case .fails:
            let run = try trial.run(
                ["check", "--json", "--hook-timeout", String(TestTime.scaled(10)), path],
                environment: trial.environment(attack.rawValue, when: .load))
            let rows = try Self.rows(run)
            #expect(run.status == 0)
            #expect(rows.filter { $0.result != "PASS" } == [])
            #expect(rows.contains { $0.check == "sandbox" })
            #expect(run.stderr == "")
        case .stopped, .crashes:
            let run = try trial.run(["check", path], environment: trial.environment(attack.rawValue, when: .load))
            let outcome = attack.outcome(host: run.pid)
            // loads FAILs (and sandbox, for a stop), and nothing else runs: the whole report.
            var report = """
                \(path)
                  FAIL  loads: \(Self.loadReason(outcome) ?? "")
                        fix: see docs/ABI.md, "Validation and error messages"

                """
            if case .stopped(let stop) = outcome {
                report += """
                      FAIL  sandbox: the sandbox stopped it while loading: it tried to \(stop.attempt) (\(stop.invocation))
                            fix: \(Self.sandboxFix(stop))

                    """
            }
            let failed = if case .stopped = outcome { 2 } else { 1 }
            report += "\n0 presenters checked: 0 passed, \(failed) failed, 0 warned\n"
            #expect(run.status == 1)
            Self.expect(run.stdout.text, equals: report, issue: attack.reportIssue)
            #expect(run.stderr == "")
        }
        let effects = trial.effects()
        #expect(effects.isNone, "\(effects)")
    }

    /// The host's terminal (the pty of a real terminal run, pyte): neither
    /// at show time nor from a constructor under --list does a byte of the
    /// intruder's reach it, and it says nothing there (the attempt just fails).
    @Test(
        .enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote),
        arguments: Attack.allCases.filter(\.needsTerminal))
    func theHostsTerminal(_ attack: Attack) throws {
        let trial = try IntruderTrial()
        let shown = try trial.terminalRun(
            trial.runArguments, environment: trial.environment(attack.rawValue, when: .show))
        #expect(shown.run.errors == [])
        #expect(shown.run.exit.code == 3, "\(shown.run.exit) \(shown.run.final.nonEmptyLines)")
        #expect(shown.stdout == IntruderTrial.commandStdout)
        #expect(!shown.raw.contains(IntruderTrial.marker))
        #expect(!shown.run.final.lines.contains { $0.contains("presenter-host:") }, "\(shown.run.final.nonEmptyLines)")
        #expect(trial.attempted(attack.rawValue, stderr: ""), "no attempt: \(trial.log)")

        let listed = try trial.terminalRun(
            ["--no-cache", "--plugin-dir", trial.plugins.path, "--list"],
            environment: trial.environment(attack.rawValue, when: .load))
        #expect(listed.run.exit.code == 0)
        #expect(listed.stdout.text.contains("\nfixture.intruder  Intruder  "), "\(listed.stdout.text)")
        #expect(!listed.raw.contains(IntruderTrial.marker))
        #expect(!listed.run.final.lines.contains { $0.contains("presenter-host:") })
        let effects = trial.effects()
        #expect(effects.isNone, "\(effects)")
    }

    // MARK: - Helpers

    /// --list's bytes with the bundled presenters only (an empty plugin
    /// folder), what a list whose file was refused prints on stdout.
    static func bundledListing() throws -> [UInt8] {
        let trial = try IntruderTrial()
        let empty = TestPaths.temporaryDirectory("empty-plugins")
        let run = try trial.run(
            ["--no-cache", "--plugin-dir", empty.path, "--list"], environment: trial.environment("none", when: .load))
        #expect(run.status == 0 && run.stderr == "")
        #expect(run.stdout.text.hasPrefix("ID  ") && run.stdout.text.contains("\nmbhud "), "\(run.stdout.text)")
        return run.stdout
    }

    struct CheckRow: Equatable, CustomStringConvertible {
        var presenter: String?
        var check: String
        var result: String
        var reason: String?
        var fix: String?
        var description: String { "\(presenter ?? "-") \(check) \(result): \(reason ?? "") (fix: \(fix ?? "-"))" }
    }

    static func rows(_ run: IntruderTrial.HostRun) throws -> [CheckRow] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any],
            "not JSON: \(run.stdout.text) \(run.stderr)")
        return try #require(document["results"] as? [[String: Any]]).map {
            CheckRow(
                presenter: $0["presenter"] as? String, check: $0["check"] as? String ?? "?",
                result: $0["result"] as? String ?? "?", reason: $0["reason"] as? String, fix: $0["fix"] as? String)
        }
    }

    static func sandboxFix(_ stop: Attack.Stop) -> String {
        "remove the \(stop.call) call: a presenter only draws, with the host's services (docs/ABI.md, \"What a presenter may do, and what it may not\")"
    }

    /// `actual == expected`, under a known issue when there is one.
    static func expect<T: Equatable>(
        _ actual: T, equals expected: T, issue: Comment?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let issue else {
            #expect(actual == expected, sourceLocation: sourceLocation)
            return
        }
        withKnownIssue(issue) { #expect(actual == expected, sourceLocation: sourceLocation) }
    }
}

extension IntruderTrial.HostRun {
    /// Where the secret must never be seen.
    var outputs: [(String, String)] { [("stdout", stdout.text), ("stderr", stderr)] }
}

extension [UInt8] {
    fileprivate var text: String { String(decoding: self, as: UTF8.self) }
}
