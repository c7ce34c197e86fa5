import HostRuntime
import Testing
@testable import HostCommandLine

@Suite("run: option parsing")
struct RunOptionsTests {
    private func parse(_ arguments: [String]) throws -> RunOptions {
        guard case .run(let options) = try PresenterHostCommand.parse(["run"] + arguments) else {
            Issue.record("expected options, got help")
            return RunOptions()
        }
        return options
    }

    private func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try PresenterHostCommand.parse(["run"] + arguments)
            return nil
        } catch {
            #expect(error.exitCode == .usage)
            return error.message
        }
    }

    @Test func defaults() throws {
        let options = try parse(["--", "sleep", "2"])
        #expect(options.presentation.presenter == "mbhud")
        #expect(options.action == "run")
        #expect(options.presentation.messagesFile == nil)
        #expect(options.working == nil && options.success == nil && options.failure == nil)
        #expect(options.timeout == nil)
        #expect(options.showOutput == false)
        #expect(options.presentation.color == .auto)
        #expect(options.presentation.pluginDirs.isEmpty)
        // No hold: run ends with the command (issue 31).
        #expect(options.presentation.minShow == 0)
        #expect(!options.linger)
        #expect(!options.pty)
        #expect(options.grace == 0)
        #expect(options.presentation.hookTimeout == 0.25)
        #expect(!options.presentation.inProcess && !options.presentation.verbose && options.presentation.logFile == nil)
        #expect(options.command == ["sleep", "2"])
    }

    @Test func theSandboxAndLogFlags() throws {
        let options = try parse(["--hook-timeout", "1.5", "--in-process", "-v", "--log", "run.log", "--", "make"])
        #expect(options.presentation.hookTimeout == 1.5)
        #expect(options.presentation.inProcess && options.presentation.verbose)
        #expect(options.presentation.logFile == "run.log")
        #expect(try parse(["--verbose", "--hook-timeout=60", "--log=x", "true"]).presentation.hookTimeout == 60)
        #expect(
            usageError(["--hook-timeout", "0", "true"])
                == "--hook-timeout: '0' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)"
        )
        #expect(
            usageError(["--hook-timeout", "61", "true"])
                == "--hook-timeout: '61' is too long; give at most 60 seconds (1 minute)")
        #expect(usageError(["--in-process=yes", "true"]) == "--in-process takes no value")
        #expect(usageError(["--log", "", "true"]) == "--log needs a file")
        let usage = Usage.help(CommandTable.run)
        #expect(usage.contains("--hook-timeout") && usage.contains("--in-process"))
    }

    @Test func everyFlag() throws {
        let options = try parse([
            "--presenter", "netactivity", "--action", "build", "--working", "W", "--success", "S",
            "--failure", "F", "--timeout", "2.5", "--show-output", "--color", "never",
            "--plugin-dir", "/a", "--plugin-dir=/b", "--min-show", "0.5", "--grace=0.25", "--linger", "--pty",
            "--working-from-output", "--",
            "make", "-j2",
        ])
        #expect(options.presentation.presenter == "netactivity")
        #expect(options.action == "build")
        #expect(options.working == "W" && options.success == "S" && options.failure == "F")
        #expect(options.timeout == 2.5)
        #expect(options.showOutput)
        #expect(options.presentation.color == .never)
        #expect(options.presentation.pluginDirs == ["/a", "/b"])
        #expect(options.presentation.minShow == 0.5)
        #expect(options.grace == 0.25)
        #expect(options.linger)
        #expect(options.pty)
        #expect(options.workingFromOutput)
        #expect(options.command == ["make", "-j2"])
    }

    @Test func messagesFileAndInlineValues() throws {
        let options = try parse(["--messages=m.json", "--color=always", "--action=get-title", "true"])
        #expect(options.presentation.messagesFile == "m.json")
        #expect(options.presentation.color == .always)
        #expect(options.action == "get-title")
        #expect(options.command == ["true"])
    }

    @Test func commandStartsAtFirstWordAndKeepsItsFlags() throws {
        let options = try parse(["--timeout", "3", "ls", "-l", "--timeout", "--", "x"])
        #expect(options.timeout == 3)
        #expect(options.command == ["ls", "-l", "--timeout", "--", "x"])
    }

    @Test func emptyValuesAllowedForMessages() throws {
        let options = try parse(["--working", "", "--success=", "--", "true"])
        #expect(options.working == "")
        #expect(options.success == "")
    }

    @Test func help() throws {
        #expect(try PresenterHostCommand.parse(["run", "--help"]) == .commandHelp("run"))
        #expect(try PresenterHostCommand.parse(["run", "-h", "--bogus"]) == .commandHelp("run"))
        #expect(Usage.help(CommandTable.run).contains("--show-output"))
    }

    @Test func errors() throws {
        #expect(usageError([]) == "run needs a command to run, e.g. presenter-host run -- sleep 2")
        #expect(usageError(["--"])?.hasPrefix("run needs a command") == true)
        #expect(
            usageError(["--bogus", "--", "true"]) == "Unknown option '--bogus'")
        #expect(usageError(["--timeout"]) == "Missing value for '--timeout <seconds>'")
        #expect(usageError(["--timeout", "--", "true"]) == "Missing value for '--timeout <seconds>'")
        #expect(usageError(["--working", "--success", "S", "true"]) == "Missing value for '--working <message>'")
        #expect(try parse(["--working=--success", "true"]).working == "--success")
        #expect(
            usageError(["--timeout", "0", "true"])
                == "--timeout: '0' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)")
        #expect(
            usageError(["--timeout", "-1", "true"])
                == "--timeout: '-1' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)")
        #expect(
            usageError(["--timeout", "soon", "true"])
                == "--timeout: 'soon' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)"
        )
        #expect(usageError(["--timeout", "inf", "true"]) != nil)
        #expect(usageError(["--timeout", "nan", "true"]) != nil)
        #expect(
            usageError(["--min-show", "-0.5", "true"])
                == "--min-show: '-0.5' is not a duration; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)")
        #expect(
            usageError(["--grace", "x", "true"])
                == "--grace: 'x' is not a duration; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)")
        #expect(usageError(["--color", "sometimes", "true"]) == "--color: 'sometimes' is not auto, always or never")
        #expect(usageError(["--show-output=yes", "true"]) == "--show-output takes no value")
        #expect(
            usageError(["--output", "tail=x", "true"])
                == "--output: 'tail=x': tail=N needs a number of lines from 1 to 50")
        #expect(
            usageError(["--output", "tail=0", "true"])
                == "--output: 'tail=0': tail=N needs a number of lines from 1 to 50")
        #expect(
            usageError(["--output", "tail=51", "true"])
                == "--output: 'tail=51': tail=N needs a number of lines from 1 to 50")
        #expect(
            usageError(["--output", "tails", "true"]) == "--output: 'tails' is not hide, stream, on-failure or tail[=N]"
        )
        #expect(usageError(["--events=", "true"]) == "--events needs a file, or - for stdout")
        #expect(usageError(["--static=1", "true"]) == "--static takes no value")
        #expect(usageError(["--presenter", "", "true"]) != nil)
        #expect(usageError(["--plugin-dir=", "true"]) == "--plugin-dir needs a directory")
        #expect(
            usageError(["--messages", "m.json", "--working", "W", "true"])?.hasPrefix("--messages cannot be combined")
                == true)
        #expect(
            usageError(["--output", "hide", "--working-from-output", "true"])
                == "--working-from-output shows what --output hide hides: use one or the other")
    }

    @Test func outputModesStaticAndEvents() throws {
        #expect(try parse(["true"]).output == .onFailure)
        #expect(try parse(["--output", "hide", "true"]).output == .hide)
        #expect(try parse(["--output=stream", "true"]).output == .stream)
        #expect(try parse(["--output", "on-failure", "true"]).output == .onFailure)
        #expect(try parse(["--show-output", "true"]).output == .stream)
        #expect(try parse(["--output", "tail", "true"]).output == .tail)
        #expect(try parse(["--output", "tail", "true"]).tailLines == 5)
        #expect(try parse(["--output=tail=12", "true"]).tailLines == 12)
        #expect(try parse(["--static", "true"]).staticMode)
        #expect(try parse(["--events", "-", "true"]).eventsFile == "-")
    }

    @Test func absurdTimesAreUsageErrorsNotCrashes() throws {
        #expect(
            usageError(["--min-show", "1000000h", "true"])
                == "--min-show: '1000000h' is too long; give at most 86400 seconds (1 day)")
        #expect(
            usageError(["--min-show", "86401", "true"])
                == "--min-show: '86401' is too long; give at most 86400 seconds (1 day)")
        #expect(
            usageError(["--grace", "25h", "true"]) == "--grace: '25h' is too long; give at most 86400 seconds (1 day)")
        #expect(usageError(["--grace", "86400.5", "true"]) != nil)
        #expect(
            usageError(["--timeout", "99999999999999999999999999999", "true"])
                == "--timeout: '99999999999999999999999999999' is too long; give at most 2592000 seconds (30 days)")
        #expect(usageError(["--min-show", "inf", "true"]) != nil)
        #expect(usageError(["--grace", "-inf", "true"]) != nil)
        #expect(usageError(["--min-show", "nan", "true"]) != nil)
        let longest = try parse(["--min-show", "86400", "--grace", "24h", "--timeout", "2592000", "true"])
        #expect(longest.presentation.minShow == 86400 && longest.grace == 86400 && longest.timeout == 2_592_000)
    }

    /// The one reading of a duration (`ValueKind.duration`), which every
    /// option that takes one uses: seconds, with or without `s`, minutes,
    /// hours; nothing else.
    @Test(
        arguments: [
            ("5", 5), ("5s", 5), ("1.5s", 1.5), ("1.5", 1.5), (".5", 0.5), ("0", 0), ("0s", 0), ("2m", 120),
            ("1.5m", 90), ("1h", 3600), ("0.25h", 900), ("007", 7),
        ] as [(String, Double)])
    func aDurationIsRead(text: String, seconds: Double) {
        #expect(ValueKind.duration(text) == seconds)
    }

    @Test(arguments: [
        "0x10", "0X10", "1e3", "1E3", "inf", "nan", "-1", "+1", " 5", "5 ", "5.", ".", "", "s", "m", "5ms", "5sec",
        "5S", "5d", "1.2.3", "1,5", "5ss", "5hm", "0x1p4", "١",
    ])
    func anythingElseIsNot(text: String) {
        #expect(ValueKind.duration(text) == nil)
    }

    @Test func pluginMillisecondsAreBoundedWhateverTheLibraryCallerSets() {
        #expect(PresenterSession.milliseconds(0.5) == "500")
        #expect(PresenterSession.milliseconds(1e300) == "86400000")
        #expect(PresenterSession.milliseconds(.infinity) == "86400000")
        #expect(PresenterSession.milliseconds(-3) == "0")
        #expect(PresenterSession.milliseconds(.nan) == "0")
    }

    @Test func commandLineIsShellQuoted() throws {
        var options = RunOptions()
        options.command = ["echo", "hello world", "it's", "a=b", "", "$HOME"]
        #expect(options.commandLine == #"echo 'hello world' 'it'\''s' a=b '' '$HOME'"#)
        options.command = ["sleep", "2"]
        #expect(options.commandLine == "sleep 2")
    }
}
