import Foundation
import Glibc
import Testing
@testable import HostPlugins

/// A system call of another architecture (i386's `int $0x80`, an x32 call:
/// the x86-64 number with __X32_SYSCALL_BIT) is stopped and said as what
/// it is (issue 30): its number names another call in the process's own
/// table, so it was once said as "tried to start a process". The intruder
/// makes getpid each way, at show time under `run` and `check` and in a
/// constructor under `--list`.
@Suite("The sandbox: a system call of another architecture")
struct SandboxForeignCallTests {
    static let isX86_64: Bool = {
        #if arch(x86_64)
            true
        #else
            false
        #endif
    }()

    /// intruder.c's attack and the call as the report names it.
    static let calls = [("int80", "i386 getpid"), ("x32", "x32 getpid")]

    @Test(.enabled(if: isX86_64, "i386 and x32 calls are x86-64's"), arguments: calls)
    func isStoppedAndSaidAsWhatItIs(_ attack: String, _ call: String) throws {
        let trial = try IntruderTrial()
        // In a terminal, where `run` runs its presenter: the region goes,
        // the line says why, plain lines take over.
        let run = try trial.run(
            trial.runArguments, environment: trial.environment(attack, when: .show), inTerminal: true)
        #expect(run.status == 3, "\(run.screen)")
        #expect(run.stdout == IntruderTrial.commandStdout)
        #expect(
            run.screen == [
                "presenter-host: presenter 'fixture.intruder' was stopped in show: it tried to make a system call of another architecture (presenters may not); going on with plain progress lines",
                "Working", "✖ Failed: exit status 3",
            ],
            "\(run.screen)")

        let check = try trial.run(
            ["check", "--json", "--hook-timeout", String(TestTime.scaled(10)), trial.library.path],
            environment: trial.environment(attack, when: .show))
        let rows = try SandboxLeastPrivilegeTests.rows(check)
        let sandbox = try #require(rows.first { $0.check == "sandbox" }, "\(rows)")
        #expect(check.status == 1)
        #expect(sandbox.result == "FAIL")
        #expect(
            sandbox.reason
                == "the sandbox stopped it in show: it tried to make a system call of another architecture (\(call))")

        let list = try trial.run(
            ["--no-cache", "--plugin-dir", trial.plugins.path, "--list"],
            environment: trial.environment(attack, when: .load))
        #expect(list.status == 0)
        #expect(
            list.stderr
                == "presenter-host: \(trial.library.path): was stopped while loading: it tried to make a system call of another architecture (\(call)), which presenters may not; remove it, or ask its author to (SECURITY.md)\n",
            "\(list.stderr)")
        let effects = trial.effects(outputs: run.outputs)
        #expect(effects.isNone, "\(effects)")
    }
}
