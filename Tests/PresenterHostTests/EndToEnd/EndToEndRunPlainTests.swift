import Foundation
import Glibc
import Testing
@testable import HostSystem
@testable import HostPlugins
@testable import HostCommandLine

/// `presenter-host run` as a real process with stderr a pipe: plain lines,
/// exit statuses, signals.
@Suite("run end to end: plain mode")
struct EndToEndRunPlainTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

    @Test func successPrintsTheWorkingAndSuccessLines() throws {
        let result = try ProcessRunner.host(
            ["run", "--working", "Sleeping...", "--success", "Done!", "--", "true"],
            environment: utf8)
        #expect(result.status == 0)
        #expect(result.stderr == "Sleeping...\n✔ Done!\n")
        #expect(result.stdout == "")
    }

    @Test func failurePassesOutputThroughAndKeepsTheStatus() throws {
        let result = try ProcessRunner.host(
            [
                "run", "--working", "Working", "--failure", "It broke", "--", "sh", "-c",
                "echo out; echo err >&2; exit 3",
            ],
            environment: utf8)
        #expect(result.status == 3)
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "Working\nerr\n✖ It broke: exit status 3\n")
    }

    @Test func asciiMarksWithoutAUTF8Locale() throws {
        let result = try ProcessRunner.host(
            ["run", "--working", "W", "--success", "S", "--", "true"],
            environment: ["LANG": "C", "LC_ALL": "C"])
        #expect(result.stderr == "W\n[OK] S\n")
    }

    @Test func defaultWorkingMessageIsTheQuotedCommandLine() throws {
        let result = try ProcessRunner.host(["run", "--", "sh", "-c", "exit 0"], environment: utf8)
        #expect(result.status == 0)
        #expect(result.stderr == "sh -c 'exit 0'\n")
    }

    @Test func exitStatusPassesThrough() throws {
        #expect(try ProcessRunner.host(["run", "--", "sh", "-c", "exit 0"]).termination == .exited(0))
        #expect(try ProcessRunner.host(["run", "--", "sh", "-c", "exit 3"]).termination == .exited(3))
        // A command that exits 130 itself is not one that died of SIGINT.
        #expect(try ProcessRunner.host(["run", "--", "sh", "-c", "exit 130"]).termination == .exited(130))
    }

    /// A command killed by a signal makes the host die of it, once its
    /// lines are out: a shell then sees what it would without the host
    /// (a Ctrl-C stops its loop), not an exit with 128 + the signal.
    @Test(arguments: [SIGINT, SIGTERM, SIGKILL, SIGQUIT, SIGSEGV])
    func aCommandKilledByASignalMakesTheHostDieOfIt(signal: Int32) throws {
        let dir = TestPaths.temporaryDirectory("runkilled")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Cores allowed, in a folder of the test's: the command's (SIGQUIT,
        // SIGSEGV) is its own; the host must dump none of its own.
        let host = try TestProcess(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", #"ulimit -c unlimited && cd "$1" && exec "$0" run --working W -- sh -c 'kill -\#(signal) $$'"#,
                TestPaths.binary.path, dir.path,
            ],
            environment: utf8, stdin: .null)
        let (_, err) = host.communicate()
        host.wait()
        let stderr = String(decoding: err, as: UTF8.self)
        #expect(host.termination == .signaled(signal), "\(stderr)")
        #expect(!host.dumpedCore, "the host dumped core")
        #expect(stderr == "W\n✖ killed by \(SignalName.of(signal))\n")
    }

    @Test func commandNotFoundIs127() throws {
        let result = try ProcessRunner.host(["run", "--working", "W", "--", "no-such-command-ph"])
        #expect(result.status == 127)
        #expect(
            result.stderr == "Error: no-such-command-ph: command not found in PATH; check its name or give its path\n")
    }

    @Test func aDirectoryIsNamedAsOneAnd126() throws {
        let dir = TestPaths.temporaryDirectory("rundir")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try ProcessRunner.host(["run", "--working", "W", "--", dir.path])
        #expect(result.termination == .exited(126))
        #expect(result.stderr == "Error: \(dir.path): is a directory; give the path of a program or script to run\n")
    }

    /// `--output stream` keeps the bytes as written: an unfinished last
    /// line gets no newline (the output is read here because `--events -`
    /// takes stdout), and stays before the outcome line, as it would on a
    /// stderr shared with the command.
    @Test func streamKeepsAnUnfinishedLastLineAsItIs() throws {
        let result = try ProcessRunner.host(
            [
                "run", "--events", "-", "--output", "stream", "--working", "W", "--failure", "F", "--", "sh", "-c",
                "printf 'a\\nb'; exit 2",
            ], environment: utf8)
        #expect(result.termination == .exited(2))
        #expect(result.stderr == "W\na\nb✖ F: exit status 2\n")
    }

    @Test func notExecutableIs126() throws {
        let dir = TestPaths.temporaryDirectory("run126")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("script.sh")
        try Data("#!/bin/sh\necho hi\n".utf8).write(to: script)
        let result = try ProcessRunner.host(["run", "--working", "W", "--", script.path])
        #expect(result.status == 126)
        #expect(
            result.stderr
                == "Error: \(script.path): cannot execute: Permission denied; check that it is an executable file\n")
    }

    @Test func timeoutIs124AndEndsTheCommand() throws {
        let start = Date()
        let result = try ProcessRunner.host(
            ["run", "--working", "W", "--timeout", "0.5", "--", "sleep", "30"],
            environment: utf8)
        #expect(result.status == 124)
        #expect(Date().timeIntervalSince(start) < 10)
        // Said once: the presenter's line (a terminal, whose region goes, gets a line of the host's).
        #expect(result.stderr == "W\n✖ timed out after 0.5 s\n")
    }

    @Test func timeoutEndsWhatTheCommandStartedToo() throws {
        let dir = TestPaths.temporaryDirectory("runtree")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path
        // The grandchild runs in the foreground of the command's shell, as in `sh -c 'sleep 7; echo x'`.
        // The timeout must come after it wrote its pid: a deadline (no
        // condition can hold the host's timer), 2 s (0.5 s left little room on a loaded machine).
        let result = try ProcessRunner.host(
            ["run", "--timeout", "2", "--", "sh", "-c", "sh -c 'echo $$ > \(pidFile); exec sleep 30'; echo x"])
        #expect(result.status == 124)
        #expect(!result.stdout.contains("x"))
        let grandchild = try #require(
            pid_t(
                (try String(contentsOfFile: pidFile, encoding: .utf8))
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(waitUntilEnded(grandchild), "the grandchild \(grandchild) still runs after the timeout")
    }

    @Test func timeoutKillsADescendantThatIgnoresTERMAndOutlivesTheCommand() throws {
        let dir = TestPaths.temporaryDirectory("runtree")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path
        let start = Date()
        // The timeout must come after the descendant ignored TERM and wrote
        // its pid: 2 s, as above.
        let result = try ProcessRunner.host(
            [
                "run", "--timeout", "2", "--", "sh", "-c",
                "sh -c 'trap \"\" TERM; echo $$ > \(pidFile); while :; do sleep 0.05; done' & wait",
            ])
        #expect(result.status == 124)
        let survivor = try #require(
            pid_t(
                (try String(contentsOfFile: pidFile, encoding: .utf8))
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        // Its parent died of SIGTERM; it got SIGKILL at the end of the grace time.
        #expect(ProcessStat.read(survivor).map(\.isDead) ?? true, "\(survivor) still runs")
        #expect(Date().timeIntervalSince(start) < 2 + RunSession.killGrace + 4)
    }

    @Test func timeoutKillsACommandThatIgnoresTERM() throws {
        let start = Date()
        let result = try ProcessRunner.host(
            ["run", "--timeout", "0.3", "--", "sh", "-c", "trap '' TERM; while :; do sleep 0.1; done"])
        #expect(result.status == 124)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    /// A signal to the host alone reaches the command, which dies of it:
    /// so does the host then.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalsToTheHostAreForwardedAndTheHostDiesOfThem(signal: Int32) throws {
        let dir = TestPaths.temporaryDirectory("runsig")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path
        let host = try SignalledHost(
            ["run", "--working", "W", "--", "sh", "-c", "echo $$ > \(pidFile); exec sleep 30"],
            environment: utf8)
        let childPID = try waitForPid(in: pidFile)
        host.send(signal)
        let result = host.finish()
        #expect(result.termination == .signaled(signal))
        #expect(result.stderr == "W\n✖ interrupted by \(SignalName.of(signal))\n")
        // The command got the signal (it was not left running) and was reaped.
        #expect(kill(childPID, 0) == -1 && errno == ESRCH)
    }

    /// A command that handles the forwarded signal and exits keeps its
    /// answer: its status is the host's.
    @Test func aCommandThatHandlesTheSignalKeepsItsStatus() throws {
        let dir = TestPaths.temporaryDirectory("runtrap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path
        let host = try SignalledHost(
            [
                "run", "--working", "W", "--", "sh", "-c",
                "trap 'exit 5' INT; echo $$ > \(pidFile); while :; do sleep 0.05; done",
            ],
            environment: utf8)
        _ = try waitForPid(in: pidFile)
        host.send(SIGINT)
        let result = host.finish()
        #expect(result.termination == .exited(5))
        #expect(result.stderr == "W\n✖ interrupted by SIGINT\n")
    }

    /// A command that takes the signal, goes on and succeeds: the host
    /// exits 0, as the command does.
    @Test func aCommandThatTakesTheSignalAndGoesOnSucceeds() throws {
        let dir = TestPaths.temporaryDirectory("runtrap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path, got = dir.appendingPathComponent("got").path
        let go = GoFile()
        let host = try SignalledHost(
            [
                "run", "--working", "W", "--success", "Done", "--", "sh", "-c",
                "trap 'echo got > \(got)' INT; echo $$ > \(pidFile); \(go.wait); exit 0",
            ],
            environment: utf8)
        _ = try waitForPid(in: pidFile)
        host.send(SIGINT)
        #expect(waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: got) }, "the command never got it")
        go.create()
        let result = host.finish()
        #expect(result.termination == .exited(0))
        #expect(result.stderr == "W\n✔ Done\n")
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func signalsToTheHostReachWhatTheCommandStarted(signal: Int32) throws {
        let dir = TestPaths.temporaryDirectory("runsig")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path
        let host = try SignalledHost(
            ["run", "--working", "W", "--", "sh", "-c", "sh -c 'echo $$ > \(pidFile); exec sleep 30'; echo x"],
            environment: utf8)
        let grandchild = try waitForPid(in: pidFile)
        host.send(signal)
        let result = host.finish()
        #expect(result.status == 128 + signal)
        #expect(waitUntilEnded(grandchild), "the grandchild \(grandchild) still runs")
    }

    /// A signal that comes while the command forks reaches the children it
    /// is forking too: the tree is stopped while it is read, so none is
    /// started unseen and left running when the command dies.
    @Test func aSignalToTheHostReachesWhatTheCommandForksMeanwhile() throws {
        let dir = TestPaths.temporaryDirectory("runforks")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pids = dir.appendingPathComponent("pids").path
        let host = try SignalledHost(
            [
                "run", "--working", "W", "--", "sh", "-c",
                // Off the host's pipes: what is left running must not hold its end.
                "for i in $(seq 1 300); do sleep 30 </dev/null >/dev/null 2>&1 & echo $! >> \(pids); done; wait",
            ],
            environment: utf8)
        // Forking now: the signal comes in the middle of it.
        _ = try waitForLines(pids, count: 20)
        host.send(SIGTERM)
        let result = host.finish()
        #expect(result.status == 143)
        let started = try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
        let running = started.filter { !waitUntilEnded($0) }
        #expect(running.isEmpty, "\(running.count) of the \(started.count) children still run: \(running.prefix(5))")
        for pid in running { kill(pid, SIGKILL) }
    }

    @Test func signalAfterTheCommandEndedKeepsTheCommandsStatus() throws {
        let dir = TestPaths.temporaryDirectory("runlate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path, writerFile = dir.appendingPathComponent("writer").path
        // A background writer fills the stderr pipe that the test does not
        // read yet, so the host blocks writing its success line after the
        // command has exited 0; the signal comes then. The command exits
        // once the writer is stuck on the full pipe.
        let full = GoFile()
        let host = try SignalledHost(
            [
                "run", "--working", "W", "--success", "ok", "--", "sh", "-c",
                "head -c 300000 /dev/zero >&2 & echo $! > \(writerFile); echo $$ > \(pidFile); \(full.wait); exit 0",
            ],
            environment: utf8)
        let writer = try waitForPid(in: writerFile)
        #expect(waitUntil(timeout: 10) { isBlockedWriting(writer, to: 1) }, "the writer never filled the pipe")
        full.create()
        let command = try waitForPid(in: pidFile)
        #expect(waitUntilGone(command), "the command was not reaped")
        // The premise: the signal comes while the host is stuck writing to stderr.
        #expect(waitUntil(timeout: 10) { host.isBlockedWriting(to: 2) }, "the host never blocked writing to stderr")
        host.send(SIGINT)
        // The signal is taken while the host is still blocked (nothing reads
        // stderr yet): it must not change the status.
        #expect(waitUntil(timeout: 10) { !host.isPending(SIGINT) }, "the host never took the signal")
        let result = host.finish()
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("W\n") && result.stderr.contains("✔ ok\n"))
    }

    @Test func scriptWithoutAShebangRunsWithBinSh() throws {
        let dir = TestPaths.temporaryDirectory("runnoexec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("script")
        try writeExecutable(Array("echo \"hello from $0\"\n".utf8), to: script)
        let result = try ProcessRunner.host(["run", "--working", "W", "--", script.path], environment: utf8)
        #expect(result.status == 0)
        #expect(result.stdout == "hello from \(script.path)\n")
        #expect(result.stderr == "W\n")
    }

    @Test func missingInterpreterIs127WithOneLineAndNothingShown() throws {
        let dir = TestPaths.temporaryDirectory("runnoexec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("script")
        try writeExecutable(Array("#!/no/such/shell\necho hi\n".utf8), to: script)
        let result = try ProcessRunner.host(["run", "--working", "W", "--", script.path], environment: utf8)
        #expect(result.status == 127)
        #expect(
            result.stderr
                == "Error: \(script.path): cannot execute: its interpreter /no/such/shell (the #! line) was not found; fix the first line of the script\n"
        )

        try writeExecutable(Array("#!/bin/sh\r\necho hi\r\n".utf8), to: script)
        let crlf = try ProcessRunner.host(["run", "--working", "W", "--", script.path], environment: utf8)
        #expect(crlf.status == 127)
        #expect(
            crlf.stderr
                == "Error: \(script.path): cannot execute: its #! line names '/bin/sh\\r' (Windows line endings); convert the script to Unix line endings\n"
        )
    }

    @Test func binaryTheKernelRefusesIs126() throws {
        let dir = TestPaths.temporaryDirectory("runnoexec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("blob")
        try writeExecutable([0x00, 0x01, 0x02, 0x0a], to: binary)
        let result = try ProcessRunner.host(["run", "--working", "W", "--", binary.path], environment: utf8)
        #expect(result.status == 126)
        // The kernel tells only at exec time: after the working line, one error line.
        #expect(
            result.stderr
                == "W\nError: \(binary.path): cannot execute: Exec format error; check that it is an executable file\n")
    }

    @Test func absurdMinShowIsAUsageErrorNotACrash() throws {
        for flag in ["--min-show", "--grace"] {
            let result = try ProcessRunner.host(["run", flag, "100000000000", "--", "true"])
            #expect(result.status == 64)
            #expect(
                result.stderr.hasPrefix(
                    "Error: \(flag): '100000000000' is too long; give at most 86400 seconds (1 day)\n"))
        }
    }

    /// Every option that takes a duration reads it the one way: 5, 5s,
    /// 1.5s, 2m, 1h; hexadecimal, which Double would read, is refused.
    @Test func durationsReadWithUnitsAndHexIsRefused() throws {
        let units = try ProcessRunner.host(
            [
                "run", "--timeout", "5s", "--min-show", "0s", "--grace", "0.5s", "--hook-timeout", "1m",
                "--working", "W", "--", "true",
            ], environment: utf8)
        #expect(units.termination == .exited(0), "\(units.stderr)")
        #expect(units.stderr == "W\n")
        let hours = try ProcessRunner.host(["run", "--timeout", "1h", "--", "true"])
        #expect(hours.termination == .exited(0), "\(hours.stderr)")
        let hint = "; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)\n"
        for (arguments, error) in [
            (["run", "--timeout", "0x10", "--", "true"], "--timeout: '0x10' is not a duration above 0"),
            (["drive", "--min-show", "0x10"], "--min-show: '0x10' is not a duration"),
            (
                ["add-bookmark", "--get-title", "--url", "x", "--timeout", "0x10"],
                "--timeout: '0x10' is not a duration above 0"
            ),
            (["check", "--hook-timeout", "0x10", "x.so"], "--hook-timeout: '0x10' is not a duration above 0"),
        ] {
            let result = try ProcessRunner.host(arguments)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: " + error + hint), "\(arguments): \(result.stderr)")
        }
    }

    @Test func badFlagIs64WithUsage() throws {
        let result = try ProcessRunner.host(["run", "--bogus", "--", "true"])
        #expect(result.status == 64)
        #expect(
            result.stderr == """
                Error: Unknown option '--bogus'
                Usage: presenter-host run [<options>] [--] <command> [<argument>...]
                See 'presenter-host run --help'.

                """)
    }

    @Test func helpGoesToStdout() throws {
        let result = try ProcessRunner.host(["run", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: presenter-host run"))
        #expect(result.stderr == "")
    }

    @Test func unknownPresenterIs64AndListsTheIds() throws {
        let result = try ProcessRunner.host(["run", "--presenter", "nope", "--", "true"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "Error: no presenter 'nope' (available: addbookmark, line, mbhud, netactivity); see presenter-host --list\n"
        )
    }

    /// A presenter whose file was refused: that file and why, not "no
    /// presenter" (issue 20, item 5); the same for every command that
    /// takes --presenter, and for `check` of a presenter that extends it
    /// (`child`). Its --list line names the id too.
    @Test(arguments: [
        (
            Fixture.missingName, "fixture.no-name",
            "was refused: name is missing (NULL); every presenter needs an id, a name and a version",
            Fixture.childOfNameless
        ),
        (
            .newerMinor, "fixture.newer-minor",
            "was refused: built for ABI 1.5, this host supports \(ABIVersion.host); update presenter-host",
            .childOfNewer
        ),
        (
            .baseNotFound, "fixture.orphan",
            "extends 'fixture.no-such-base', which was not found; install it or put it on the search path",
            .baseBroken
        ),
    ])
    func aRefusedPresenterIsExplainedByItsFile(fixture: Fixture, id: String, why: String, child: Fixture) throws {
        let plugins = try FixtureBuilder.directory([fixture, .text])
        let file = plugins.appendingPathComponent(fixture.fileName).path
        let expected = "Error: presenter '\(id)' in \(file) \(why)\n"
        for command in [["run", "--presenter", id, "--", "true"], ["drive", "--presenter", id]] {
            let result = try ProcessRunner.host(["--plugin-dir", plugins.path] + command)
            #expect(result.status == 64)
            #expect(result.stderr == expected, "\(command[0])")
        }
        let check = try ProcessRunner.host(
            ["--plugin-dir", plugins.path, "check", try FixtureBuilder.library(child).path])
        #expect(check.status == 1)
        #expect(
            check.stdout.contains("  FAIL  descriptor: extends '\(id)', but presenter '\(id)' in \(file) \(why)\n"),
            "\(check.stdout)")
        #expect(check.stdout.contains("        fix: fix that file first (presenter-host check \(file) says how)"))
        let list = try ProcessRunner.host(["--plugin-dir", plugins.path, "--list"])
        let line = try #require(list.stderr.split(separator: "\n").first { $0.contains(fixture.fileName) })
        #expect(line.contains("'\(id)'"), "\(line)")
    }

    @Test func theFilesThatFailedToLoadAreCountedOnceEach() throws {
        // The second copy of a two-presenter library is refused twice (both
        // ids are shadowed), a text file once: two files.
        let first = try FixtureBuilder.directory([.twoPresenters])
        let second = try FixtureBuilder.directory([.twoPresenters, .text])
        let result = try ProcessRunner.host([
            "--plugin-dir", first.path, "--plugin-dir", second.path,
            "run", "--presenter", "nope", "--", "true",
        ])
        #expect(result.status == 64)
        let text = second.appendingPathComponent(Fixture.text.fileName).path
        let two = Fixture.twoPresenters.fileName
        #expect(
            result.stderr
                == "Error: no presenter 'nope' (available: addbookmark, fixture.base, fixture.derived, line, mbhud, netactivity); 2 plugin files failed to load: \(text) (is a text file, not an ELF shared library; remove it from the plugin directory), \(second.path)/\(two) (presenter 'fixture.base' is shadowed by \(first.path)/\(two), which comes first in the search path; remove one of them); see presenter-host --list\n"
        )
    }

    /// A presenter refused before its id was read (built for another ABI
    /// major) may be the one asked for: the error names its file and why,
    /// the path escaped as `--list` escapes it, where it once only counted
    /// the files that failed.
    @Test func anUnknownIdNamesTheFileRefusedForItsABIMajor() throws {
        let plugins = try FixtureBuilder.directory([])
        let file = plugins.appendingPathComponent("libbad\u{1B}[31m.so")
        try FileManager.default.copyItem(at: FixtureBuilder.library(.abiMajor), to: file)
        let minor = ABIVersion.host.minor
        let expected =
            "Error: no presenter 'bad.major2' (available: addbookmark, line, mbhud, netactivity); 1 plugin file failed to load: \(plugins.path)/libbad\\x1B[31m.so (built for ABI 2.\(minor), this host supports 1.x (1.\(minor)); rebuild the plugin against this host's presenter_abi.h); see presenter-host --list\n"
        for command in [["run", "--presenter", "bad.major2", "--", "true"], ["drive", "--presenter", "bad.major2"]] {
            let result = try ProcessRunner.host(["--plugin-dir", plugins.path] + command)
            #expect(result.status == 64, "\(command[0])")
            #expect(result.stderr == expected, "\(command[0])")
        }
        let list = try ProcessRunner.host(["--plugin-dir", plugins.path, "--list"])
        #expect(list.stderr.contains("presenter-host: \(plugins.path)/libbad\\x1B[31m.so: built for ABI 2."))
    }

    @Test func messagesFileErrors() throws {
        let dir = TestPaths.temporaryDirectory("runmsg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("messages.json")
        try Data("{\n  \"run\": {\"working\": \"x\" \"success\": \"y\"}\n}\n".utf8).write(to: bad)
        let malformed = try ProcessRunner.host(["run", "--messages", bad.path, "--", "true"])
        #expect(malformed.status == 65)
        #expect(malformed.stderr == "Error: \(bad.path):2:26: expected ',' or '}', found '\"'\n")

        try Data(#"{"get-title": {"workin": "x"}}"#.utf8).write(to: bad)
        let unknown = try ProcessRunner.host(["run", "--messages", bad.path, "--", "true"])
        #expect(unknown.status == 65)
        #expect(
            unknown.stderr
                == "Error: \(bad.path): /get-title/workin: unknown status 'workin' (expected working, success, failure)\n"
        )

        let missing = try ProcessRunner.host([
            "run", "--messages", dir.appendingPathComponent("no.json").path, "--", "true",
        ])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no.json: cannot read the messages file: No such file or directory"))
    }

    @Test func messagesFileFallsBackToTheDefaultAction() throws {
        let dir = TestPaths.temporaryDirectory("runmsg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("messages.json")
        try Data(
            #"{"default": {"working": "Default working", "success": "Default done"}, "other": {"working": "No"}}"#.utf8
        )
        .write(to: file)
        let result = try ProcessRunner.host(
            ["run", "--messages", file.path, "--action", "build", "--", "true"],
            environment: utf8)
        #expect(result.status == 0)
        #expect(result.stderr == "Default working\n✔ Default done\n")
    }

    @Test func noWorkingMessageInTheFileShowsNothing() throws {
        let dir = TestPaths.temporaryDirectory("runmsg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("messages.json")
        try Data(#"{"run": {"success": "Done"}}"#.utf8).write(to: file)
        let result = try ProcessRunner.host(["run", "--messages", file.path, "--", "true"], environment: utf8)
        #expect(result.status == 0)
        // No working line (the plain backend may still report the end).
        #expect(result.stderr == "" || result.stderr == "✔ Done\n")
    }
}

/// The host started in the background so a test can signal it.
private final class SignalledHost {
    private let process: TestProcess

    /// Nothing reads the host's output before ``finish()``.
    init(_ arguments: [String], environment: [String: String]) throws {
        process = try TestProcess(TestPaths.binary, arguments, environment: environment, stdin: .null)
    }

    func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Whether one of the host's threads is in a `write` to `fd`.
    func isBlockedWriting(to fd: Int32) -> Bool { PresenterHostTests.isBlockedWriting(process.pid, to: fd) }

    /// Whether `signal` waits to be delivered to the host: to the process or
    /// to one of its threads (the ShdPnd and SigPnd masks in /proc).
    func isPending(_ signal: Int32) -> Bool {
        let bit = UInt64(1) << UInt64(signal - 1)
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")) ?? []
        return tasks.contains { task in
            let text = (try? String(contentsOfFile: "/proc/\(process.pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").contains { line in
                guard line.hasPrefix("SigPnd:") || line.hasPrefix("ShdPnd:") else { return false }
                return UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16).map { $0 & bit != 0 }
                    ?? false
            }
        }
    }

    func finish() -> ProcessResult {
        let (out, err) = process.communicate()
        return ProcessResult(
            status: process.wait(), stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), termination: process.termination ?? .exited(-1))
    }
}
