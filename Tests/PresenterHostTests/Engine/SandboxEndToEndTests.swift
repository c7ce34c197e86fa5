import Foundation
import SystemShims
import Testing

/// A presenter decides how progress looks, and nothing else: the built
/// binary runs a command under the misbehaving fixture presenter (a real
/// `.so` in a real presenter process), in a terminal, read as lines and
/// as a screen (pyte), and the command's status, its stdout bytes, the run's duration,
/// the processes left, the terminal's state and the one line on stderr are
/// checked for every misbehaviour.
@Suite("The sandbox: misbehaving presenters, end to end")
struct SandboxEndToEndTests {
    /// One misbehaviour (`FIXTURE_MISBEHAVE`) and what `run` says of it after
    /// "presenter 'fixture.misbehaving' " (nil: nothing, the presenter goes on).
    struct Case: CustomTestStringConvertible, Sendable {
        let setting: String
        let reason: String?
        var testDescription: String { setting }
        /// A hang is caught by the budget, kept short; the other cases get a
        /// long one, so a loaded machine (or a sanitized build: ``TestTime``)
        /// cannot turn a slow hook into a failure.
        var budget: [String] {
            reason?.contains("did not answer") == true
                ? ["--hook-timeout", "0.5"] : ["--hook-timeout", String(TestTime.scaled(5))]
        }
    }

    static let cases: [Case] = [
        Case(setting: "crash:create", reason: "crashed in create (SIGSEGV)"),
        Case(setting: "crash:show", reason: "crashed in show (SIGSEGV)"),
        Case(setting: "crash:hide", reason: "crashed in hide (SIGSEGV)"),
        Case(setting: "crash:render", reason: "crashed in render (SIGSEGV)"),
        Case(setting: "crash:destroy", reason: "crashed in destroy (SIGSEGV)"),
        Case(setting: "abort:render", reason: "crashed in render (SIGABRT)"),
        Case(setting: "exit:show", reason: "ended its process in show (exit status 3)"),
        Case(setting: "sleep:show", reason: "did not answer show within 500 ms"),
        Case(setting: "hang:render", reason: "did not answer render within 500 ms"),
        Case(setting: "spin:hide", reason: "did not answer hide within 500 ms"),
        Case(setting: "alloc:show", reason: "did not answer show within 500 ms"),
        Case(setting: "fail:create", reason: "failed to start (create returned 1): refusing on purpose"),
        Case(setting: "print:show", reason: nil),
        Case(setting: "tty:show", reason: nil),
        Case(setting: "thread:show", reason: nil),
    ]

    /// The command (for `run` with ``Files/runArguments(extra:tracing:)``
    /// tracing): its pid to a file, known bytes on stdout around a wait,
    /// then how long it ran to a file, and status 3. It waits until the
    /// presenter got as far as its first render: a render answered (its
    /// trace line), or the presenter taken off (the host's line). A
    /// misbehaviour in show or render then happens while it runs, whatever
    /// the load (a second's sleep was not always enough).
    static let command = [
        "sh", "-c",
        "start=$(date +%s%N); echo $$ > \"$COMMAND_PIDFILE\"; printf 'line one\\nline two\\n'; "
            + shellWaitUntil("grep -qE 'misbehaving[.]render[(]|going on [w]ith' \"$TRACE_LOG\"")
            + "; printf 'no newline'; echo $(($(date +%s%N) - start)) > \"$COMMAND_TIMEFILE\"; exit 3",
    ]
    static let expectedStdout = "line one\nline two\nno newline"
    /// The most `run` may add to its command's time: the hook budget (0.5 s
    /// for a hang), the presenter's start, and room for a loaded machine
    /// (and for a sanitized build: ``TestTime``).
    static let slack = TestTime.scaled(2)

    /// The lines that stay on the screen, exactly (plain mode, where the
    /// plain lines said it, runs no presenter).
    @Test(arguments: cases)
    func linesOnTheScreen(_ misbehaviour: Case) throws {
        let files = try Files()
        let started = Date()
        let result = try ProcessRunner.runInTerminal(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" \"$@\" > \"$STDOUT_FILE\"", TestPaths.binary.path]
                + files.runArguments(extra: misbehaviour.budget, tracing: true) + Self.command,
            environment: files.environment(misbehaviour.setting))
        let duration = Date().timeIntervalSince(started), commandSeconds = try files.commandSeconds()
        #expect(result.status == 3, "\(result.stderr)")
        #expect(try files.stdout() == Self.expectedStdout)
        #expect(
            duration >= commandSeconds && duration < commandSeconds + Self.slack,
            "took \(duration) s for a command of \(commandSeconds) s")
        try files.expectNothingLeft()
        // The one line about the presenter, then the plain lines that took
        // over: the working line (unless the work had ended: a failed hide),
        // the outcome; or the outcome alone, which the presenter kept. A
        // presenter that fails in its destroy, at the very end, takes the
        // outcome it kept with its region, as in terminalMode.
        var lines = ["✖ Failed: exit status 3"]
        if let reason = misbehaviour.reason {
            let line = "presenter-host: presenter 'fixture.misbehaving' \(reason); going on with plain progress lines"
            switch misbehaviour.setting.split(separator: ":").last {
            case "destroy": lines = [line]
            case "hide": lines = [line] + lines
            default: lines = [line, "Working"] + lines
            }
        }
        #expect(result.screen == lines, "\(result.screen)")
    }

    @Test(.enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote), arguments: cases)
    func terminalMode(_ misbehaviour: Case) throws {
        let files = try Files()
        let started = Date()
        let run = try TerminalDriver.run(
            files.runArguments(extra: misbehaviour.budget, tracing: true) + Self.command,
            environment: files.environment(misbehaviour.setting),
            cols: 200, stdoutTo: files.stdoutPath, rawFile: files.rawPath,
            steps: [.waitExit(20)])
        let duration = Date().timeIntervalSince(started), commandSeconds = try files.commandSeconds()
        #expect(run.errors == [])
        #expect(run.exit.code == 3, "\(run.exit); the screen: \(run.final.nonEmptyLines)")
        #expect(try files.stdout() == Self.expectedStdout)
        // The driver itself (Python, pyte) takes a moment to start and stop.
        #expect(
            duration >= commandSeconds && duration < commandSeconds + Self.slack + 1,
            "took \(duration) s for a command of \(commandSeconds) s")
        try files.expectNothingLeft()
        #expect(!run.final.cursor.hidden)
        #expect(run.echo == true)
        let screen = run.final.lines.joined(separator: "\n")
        #expect(!screen.contains { "╭╮╰╯│─".contains($0) }, "the region was left behind:\n\(screen)")
        let raw = try Data(contentsOf: URL(fileURLWithPath: files.rawPath))
        #expect(raw.range(of: Data("WRITTEN-TO-THE-TTY".utf8)) == nil)
        #expect(raw.range(of: Data(String(repeating: "x", count: 64).utf8)) == nil)
        if let reason = misbehaviour.reason {
            let line = "presenter-host: presenter 'fixture.misbehaving' \(reason); going on with plain progress lines"
            #expect(run.final.lines.filter { $0 == line }.count == 1, "\(screen)")
            #expect(run.final.lines.contains("✖ Failed: exit status 3") || misbehaviour.setting.hasSuffix(":destroy"))
        } else {
            #expect(!screen.contains("presenter-host"), "\(screen)")
        }
    }

    @Test func theHookBudgetIsTheUsersToSet() throws {
        let files = try Files()
        var environment = files.environment("sleep:show")
        environment["FIXTURE_SLEEP_MS"] = "600"
        let patient = try ProcessRunner.hostInTerminal(
            files.runArguments(extra: ["--hook-timeout", "3"], tracing: true) + Self.command,
            environment: environment)
        #expect(patient.status == 3)
        #expect(!patient.stderr.contains("presenter-host:"), "\(patient.stderr)")
        try FileManager.default.removeItem(atPath: files.tracePath)  // the next command waits on a trace of its own
        let strict = try ProcessRunner.hostInTerminal(
            files.runArguments(extra: ["--hook-timeout", "0.1"], tracing: true) + Self.command,
            environment: environment)
        #expect(
            strict.stderr.contains(
                "presenter 'fixture.misbehaving' did not answer show within 100 ms; going on with plain progress lines")
        )
    }

    @Test func thePresenterProcessHasNoTerminalNoInputAndOnlyItsChannel() throws {
        let files = try Files()
        var environment = files.environment("none:none")
        environment["FIXTURE_LOG_WORLD"] = "1"
        let result = try ProcessRunner.runInTerminal(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "echo $$ > \"$HOST_PIDFILE\"; exec \"$0\" \"$@\"", TestPaths.binary.path]
                + files.runArguments + ["true"],
            environment: environment.merging(["HOST_PIDFILE": files.hostPidPath]) { $1 })
        #expect(result.status == 0)
        let host = try files.pid(files.hostPidPath)
        // Its channel (3) and the sandbox's report pipe (4), the one plugin
        // (a sealed copy), no terminal (opening /dev/tty read-write is
        // refused by the sandbox before the kernel could say ENXIO), and
        // no parent it can see: it is process 1 of its own PID namespace.
        #expect(
            try files.logged("world ")
                == [
                    "fds=0,1,2,3,4", "libraries=1", "stdin=/dev/null", "leader=1", "tty=\(EPERM)",
                    "backtrace=enable=no", "parent=0",
                ])
        #expect(try files.presenterPid() != host)
    }

    @Test func inProcessRunsThePresenterInTheHost() throws {
        let files = try Files()
        let result = try ProcessRunner.runInTerminal(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "echo $$ > \"$HOST_PIDFILE\"; exec \"$0\" \"$@\"", TestPaths.binary.path]
                + files.runArguments(extra: ["--in-process"]) + ["true"],
            environment: files.environment("none:none").merging(["HOST_PIDFILE": files.hostPidPath]) { $1 })
        #expect(result.status == 0)
        // In the host: its pid as getpid() gives it, as the host's /proc does.
        #expect(try files.presenterPid() == (try files.pid(files.hostPidPath)))
    }

    @Test func theCommandGetsTheDescriptorsItsCallerGaveAndNoneOfTheHosts() throws {
        // fd 7 is the caller's, for the command; the host's own (pipes, the
        // presenter's channel, the signal pipe) must not reach it, only the
        // progress channel named in PRESENTER_PROGRESS_FD. A simple
        // command, no pipeline: a shell holds a pipeline's pipes while it runs.
        let list = "ls /proc/$$/fd"
        func descriptors(_ output: String) -> [Int] { output.split(separator: "\n").compactMap { Int($0) }.sorted() }
        let direct = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "exec 7>/dev/null; sh -c \"$0\"", list])
        let files = try Files()
        let underRun = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec 7>/dev/null; exec \"$0\" \"$@\"", TestPaths.binary.path]
                + files.runArguments + ["sh", "-c", list],
            environment: files.environment("none:none"))
        #expect(descriptors(direct.stdout) == [0, 1, 2, 7])
        let progress = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec 7>/dev/null; exec \"$0\" \"$@\"", TestPaths.binary.path]
                + files.runArguments + ["sh", "-c", "echo $PRESENTER_PROGRESS_FD"],
            environment: files.environment("none:none"))
        let channel = try #require(Int(progress.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(descriptors(underRun.stdout) == [0, 1, 2, 7, channel].sorted())
    }

    @Test func verboseShowsThePresentersLogAndTheHostsDecisions() throws {
        let files = try Files()
        let printing = try ProcessRunner.hostInTerminal(
            files.runArguments(extra: ["-v", "--hook-timeout", "10"]) + ["true"],
            environment: files.environment("print:show"))
        #expect(printing.status == 0)
        let lines = printing.textLines
        #expect(lines.contains("presenter-host: fixture.misbehaving: info: showing Working"))
        // Each line the plugin printed is a log line; 1 MiB on stdout and stderr, in 1 KiB lines.
        let printed = lines.filter { $0.hasPrefix("presenter-host: fixture.misbehaving: warning: printed: xxxx") }
        #expect(printed.count == 2048, "\(printed.count) printed lines")
        #expect(
            lines.contains(
                "presenter-host: fixture.misbehaving: warning: printed: buffered output that never reaches the command's stdout"
            ))

        let failing = try ProcessRunner.hostInTerminal(
            files.runArguments(extra: ["--verbose"]) + ["true"], environment: files.environment("fail:show"))
        #expect(
            failing.stderr.contains(
                "presenter-host: fixture.misbehaving: error: show failed (status 1): refusing on purpose\n"))
        let quiet = try ProcessRunner.hostInTerminal(
            files.runArguments + ["true"], environment: files.environment("fail:show"))
        #expect(quiet.status == 0)
        #expect(!quiet.stderr.contains("presenter-host"), "\(quiet.stderr)")
        #expect(quiet.screen == [], "\(quiet.screen)")
    }

    @Test func theLogFileHasTimestampsAndNoControlCharacters() throws {
        let files = try Files()
        let log = files.directory.appendingPathComponent("presenter.log").path
        let result = try ProcessRunner.hostInTerminal(
            [
                "--plugin-dir", files.plugins.path, "run", "--presenter", "fixture.misbehaving",
                // A line feed: the one control character a message keeps (its
                // escape sequences are taken out before a presenter sees it).
                "--working", "red\nalert", "--log", log, "--", "true",
            ],
            environment: files.environment("crash:hide"))
        #expect(result.status == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let stamp = try NSRegularExpression(
            pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z presenter-host: ")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(stamp.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil, "\(line)")
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.debugDescription)")
        }
        #expect(
            lines.contains { $0.hasSuffix("presenter-host: fixture.misbehaving: info: showing red\\nalert") })
        #expect(
            lines.contains {
                $0.hasSuffix(
                    "presenter-host: presenter 'fixture.misbehaving' crashed in hide (SIGSEGV); going on with plain progress lines"
                )
            })
        // Not on stderr without -v, but for the one line.
        #expect(result.screen.filter { $0.hasPrefix("presenter-host:") }.count == 1, "\(result.screen)")
    }

    @Test func aLogFileThatCannotBeWrittenIsAnErrorBeforeAnythingRuns() throws {
        let files = try Files()
        let marker = files.directory.appendingPathComponent("ran").path
        let result = try ProcessRunner.host(
            files.runArguments(extra: ["--log", "/nonexistent/dir/log"]) + ["touch", marker],
            environment: files.environment("none:none"))
        #expect(result.status == 73)
        #expect(
            result.stderr
                == "Error: --log /nonexistent/dir/log: cannot open it for writing (No such file or directory); give a file in a directory you can write\n"
        )
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// With --linger, run waits for the presenter to be done, within the bound.
    @Test(.enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
    func aPresenterThatNeverStopsDrawingEndsWithinTheOutcomeBound() throws {
        let files = try Files()
        let started = Date()
        let run = try TerminalDriver.run(
            files.runArguments(extra: ["--linger", "--min-show", "0", "-v"]) + ["true"],
            environment: files.environment("linger:hide"), cols: 200,
            steps: [.waitText("Working"), .waitExit(20)])
        let duration = Date().timeIntervalSince(started)
        #expect(run.exit.code == 0)
        // --min-show 0 + the 5 s outcome limit, not for ever (nor 15 s).
        #expect(duration >= 5 && duration < 5 + Self.slack + 1, "took \(duration) s")
        #expect(
            run.final.lines.contains(
                "presenter-host: fixture.misbehaving: warning: still drawing 5 s after the command ended; ending the run"
            ))
        #expect(!run.final.lines.joined().contains { "╭╮╰╯│".contains($0) })
        #expect(!run.final.cursor.hidden)
        try files.expectNothingLeft()
    }

    /// Without --linger nothing waits for it: run ends with the command.
    @Test(.enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
    func aPresenterThatNeverStopsDrawingDoesNotHoldTheEnd() throws {
        let files = try Files()
        let started = Date()
        let run = try TerminalDriver.run(
            files.runArguments(extra: ["-v"]) + ["true"], environment: files.environment("linger:hide"), cols: 200,
            steps: [.waitExit(20)])
        let duration = Date().timeIntervalSince(started)
        #expect(run.exit.code == 0)
        #expect(duration < Self.slack, "took \(duration) s")
        #expect(!run.final.lines.contains { $0.contains("still drawing") })
        #expect(!run.final.lines.joined().contains { "╭╮╰╯│".contains($0) })
        #expect(!run.final.cursor.hidden)
        try files.expectNothingLeft()
    }

    @Test(.enabled(if: TerminalDriver.isAvailable, TerminalDriver.missingNote))
    func ctrlCIsHeldAtMostOneBudgetByAPresenterThatHangs() throws {
        // The first render draws the box; the second (100 ms later) never
        // returns. Ctrl-C then ends the run within the budget, whenever it
        // comes. (Before the sandbox a sleeping render held Ctrl-C as long as it slept.)
        let files = try Files()
        var environment = files.environment("hang:render")
        environment["FIXTURE_SKIP"] = "1"
        let started = Date()
        let run = try TerminalDriver.run(
            files.runArguments + ["sleep", "30"], environment: environment, cols: 200,
            steps: [.waitText("Working"), .keys("\u{03}"), .waitExit(10)])
        let duration = Date().timeIntervalSince(started)
        #expect(run.errors == [])
        #expect(run.exit.signal == Int(SIGINT))
        #expect(duration < 0.25 + Self.slack, "took \(duration) s")
        #expect(!run.final.cursor.hidden)
        #expect(run.echo == true)
        try files.expectNothingLeft()
    }

    @Test func aPresenterStillLoadingDoesNotHoldTheEndOfTheRun() throws {
        // Its library takes 3 s to load in the presenter process: the command
        // has long ended, and the loading gets one hook budget from then.
        let files = try Files()
        var environment = files.environment("none:none")
        environment["FIXTURE_SLOW_LOAD_MS"] = "3000"
        let started = Date()
        let result = try ProcessRunner.hostInTerminal(files.runArguments + ["true"], environment: environment)
        let duration = Date().timeIntervalSince(started)
        #expect(result.status == 0)
        #expect(duration < 0.25 + Self.slack, "took \(duration) s")
        #expect(
            result.screen == [
                "presenter-host: presenter 'fixture.misbehaving' did not answer load within 250 ms; going on with plain progress lines",
                "Working",
            ], "\(result.screen)")
    }

    @Test func aPresenterThatStartsAProcessIsStopped() throws {
        let files = try Files()
        let result = try ProcessRunner.hostInTerminal(
            files.runArguments + ["true"], environment: files.environment("fork:create"))
        #expect(result.status == 0)
        #expect(
            result.screen == [
                "presenter-host: presenter 'fixture.misbehaving' was stopped in create: it tried to start a process (presenters may not); going on with plain progress lines",
                "Working",
            ], "\(result.screen)")
        try files.expectNothingLeft()
    }

    @Test func aHookThatLogsWithoutEndBreaksTheProtocolNotTheHost() throws {
        let files = try Files()
        let result = try ProcessRunner.hostInTerminal(
            files.runArguments(extra: ["-v"], tracing: true) + Self.command,
            environment: files.environment("logflood:show"))
        #expect(result.status == 3)
        let lines = result.textLines
        #expect(lines.filter { $0.hasSuffix("flooding the log") }.count <= 256)
        #expect(
            lines.contains(
                "presenter-host: presenter 'fixture.misbehaving' broke the presenter protocol in show: sent more than 256 log lines and element changes in one hook; going on with plain progress lines"
            ))
    }

    @Test func aLowDescriptorLimitChangesNothing() throws {
        // Every spawn's descriptors stay below any limit: the scan helper,
        // the presenter process and the command all get theirs (in a
        // terminal, where the presenter process runs).
        let files = try Files()
        let result = try ProcessRunner.runInTerminal(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -n 32; exec \"$0\" \"$@\"", TestPaths.binary.path]
                + files.runArguments(extra: [], tracing: true) + Self.command,
            environment: files.environment("none:none"))
        #expect(result.status == 3)
        #expect(result.stdout == Self.expectedStdout)
        #expect(result.screen == ["✖ Failed: exit status 3"], "\(result.screen)")
    }

    @Test(arguments: [true, false])
    func aCrashOfTheHostRestoresTheTerminalAndHangsUpTheCommand(terminal: Bool) throws {
        let files = try Files()
        // The command would run for a minute, in a grandchild of the host
        // (whose pid is the command's pid file): a hang-up of the command
        // alone would leave it running.
        let arguments =
            files.runArguments(extra: [], tracing: true) + [
                "sh", "-c", "sleep 60 & echo $! > \"$COMMAND_PIDFILE\"; wait",
            ]
        let environment = files.environment("none:none").merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        if terminal {
            guard TerminalDriver.isAvailable else { return }
            let run = try TerminalDriver.run(
                arguments, environment: environment, cols: 200,
                steps: [.waitText("Working"), .signal("SEGV"), .waitExit(10)])
            #expect(run.errors == [])
            #expect(run.exit.code == Int(128 + SIGSEGV) || run.exit.signal == Int(SIGSEGV))
            #expect(!run.final.cursor.hidden)
            #expect(run.echo == true)
        } else {
            let host = files.directory.appendingPathComponent("host.pid").path
            // In the background so the test can signal it: once the command
            // runs and the host knows it (the host read its first line on stderr, which
            // it reads, --output hide, once it noted its command: the pid
            // file alone can come before, and a crash then hangs up
            // nothing), SIGSEGV to the host. Plain mode runs no presenter
            // whose show could say it. Its output away from the test's
            // pipes, which a survivor would hold open.
            let plain =
                files.runArguments(extra: ["--output", "hide"], tracing: true) + [
                    "sh", "-c", "echo started >&2; sleep 60 & echo $! > \"$COMMAND_PIDFILE\"; wait",
                ]
            let script = """
                "$0" "$@" >/dev/null 2>&1 & host=$!
                \(shellWaitUntil("[ -s \"$COMMAND_PIDFILE\" ] && grep -q 'output: starte[d]' \"$TRACE_LOG\""))
                kill -SEGV $host; wait $host; echo "status $?"
                """
            let result = try ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", script, TestPaths.binary.path] + plain,
                environment: environment.merging(["HOST_PIDFILE": host]) { $1 })
            #expect(result.stdout == "status \(128 + SIGSEGV)\n")
        }
        try files.expectNothingLeft()
    }

    /// The temporary files of one run: a plugin folder holding the fixture,
    /// the pid files and the command's redirected stdout.
    struct Files {
        let directory = TestPaths.temporaryDirectory("sandbox")
        let plugins: URL
        var stdoutPath: String { directory.appendingPathComponent("stdout").path }
        var rawPath: String { directory.appendingPathComponent("raw").path }
        var commandPidPath: String { directory.appendingPathComponent("command.pid").path }
        var hostPidPath: String { directory.appendingPathComponent("host.pid").path }
        var tracePath: String { directory.appendingPathComponent("trace.log").path }
        var commandTimePath: String { directory.appendingPathComponent("command.ns").path }

        init() throws {
            plugins = try FixtureBuilder.directory([.misbehaving])
        }

        var runArguments: [String] { runArguments(extra: []) }

        /// The presenter's log goes to ``tracePath`` (the fixture logs its
        /// pid there: its process may write no file); `tracing`: the hook
        /// calls too, which ``SandboxEndToEndTests/command`` waits on.
        func runArguments(extra: [String], tracing: Bool = false) -> [String] {
            ["--plugin-dir", plugins.path] + (tracing ? ["--trace"] : []) + [
                "run", "--presenter", "fixture.misbehaving", "--working", "Working", "--failure", "Failed",
                "--log", tracePath,
            ] + extra + ["--"]
        }

        /// The fixture's settings, and a UTF-8 locale whatever the caller's
        /// (the plain lines' marks are ✔ and ✖ only with one; CI has none).
        func environment(_ misbehaviour: String) -> [String: String] {
            [
                "FIXTURE_MISBEHAVE": misbehaviour, "FIXTURE_LOG_PID": "1",
                "COMMAND_PIDFILE": commandPidPath, "COMMAND_TIMEFILE": commandTimePath, "TRACE_LOG": tracePath,
                "STDOUT_FILE": stdoutPath, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            ]
        }

        /// How long ``SandboxEndToEndTests/command`` ran, by its own clock.
        func commandSeconds() throws -> Double {
            let text = try String(contentsOfFile: commandTimePath, encoding: .utf8)
            return Double(try #require(Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)))) / 1e9
        }

        func stdout() throws -> String {
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: stdoutPath)), as: UTF8.self)
        }

        func pid(_ path: String) throws -> pid_t {
            let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            return try #require(pid_t(text), "no pid in \(path): \(text)")
        }

        /// What the presenter logged after `prefix` (`pid `, `world `), in order.
        func logged(_ prefix: String) throws -> [String] {
            let log = (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? ""
            return log.split(separator: "\n").compactMap { line in
                line.range(of: ": info: " + prefix).map { String(line[$0.upperBound...]) }
            }
        }

        /// The presenter process's pid, as the host's /proc numbers it (the
        /// fixture logs it at create).
        func presenterPid() throws -> pid_t {
            try #require(try logged("pid ").first.flatMap { pid_t($0) }, "no pid in the log \(tracePath)")
        }

        /// The presenter process and the command have ended. After a normal
        /// run the host reaped them before it exited; after a crash of the
        /// host they die of its parent-death signal and of the hang-up, a
        /// moment later, so this waits (on a pidfd, up to 10 s: a loaded
        /// machine is slow to deliver them) for their end.
        func expectNothingLeft() throws {
            if let presenter = try logged("pid ").first.flatMap({ pid_t($0) }) {
                #expect(Self.hasEnded(presenter), "the presenter process \(presenter) is still running")
            }
            if FileManager.default.fileExists(atPath: commandPidPath) {
                let pid = try pid(commandPidPath)
                #expect(Self.hasEnded(pid), "the command \(pid) is still running")
            }
        }

        static func hasEnded(_ pid: pid_t) -> Bool {
            let pidfd = ph_pidfd_open(pid)
            guard pidfd >= 0 else { return errno == ESRCH }
            defer { close(pidfd) }
            var waiter = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            return poll(&waiter, 1, 10_000) == 1
        }
    }
}
