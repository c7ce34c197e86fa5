import Glibc
import HostEngine
import HostPlugins
import HostSystem
import HostText

/// The `presenter-host` command line: parses arguments, runs a subcommand and
/// maps every error to an exit status in one place.
package enum PresenterHostCommand {
    /// What the arguments ask for.
    enum Invocation: Equatable {
        case help
        /// A command's own help (its name).
        case commandHelp(String)
        case version
        case list(PluginOptions, verbose: Bool, json: Bool, ids: Bool = false)
        case printPluginPath(PluginOptions)
        case sandboxInfo(PluginOptions, json: Bool)
        case run(RunOptions)
        case bookmarks(json: Bool, store: String?)
        case addBookmark(AddBookmarkOptions)
        case check(CheckCommand.Options)
        case drive(DriveOptions)
        case completions(CompletionScript.Shell)

        /// Whether it runs presenters in this process (`--in-process`).
        var inProcess: Bool {
            switch self {
            case .run(let options): options.presentation.inProcess
            case .addBookmark(let options): options.presentation.inProcess
            case .drive(let options): options.presentation.inProcess
            default: false
            }
        }

        /// The name of a command that runs work under a presenter (and so
        /// needs ``DescriptorLimit/needed`` descriptors), or nil.
        var runsWork: String? {
            switch self {
            case .run: "run"
            case .addBookmark: "add-bookmark"
            case .check: "check"
            case .drive: "drive"
            case .help, .commandHelp, .version, .list, .printPluginPath, .sandboxInfo, .bookmarks, .completions: nil
            }
        }
    }

    /// A usage error, and the command whose usage lines go with it (nil:
    /// the top level's).
    struct UsageFailure: Error {
        let error: CommandError
        let command: CommandSpec?
    }

    /// Runs the command with `arguments` (without the program name), then
    /// ends the process as it says: with its exit status, its exit handlers
    /// run and C's buffered streams written out, or dying of the signal that
    /// ended what it ran: `executable`'s whole `main`.
    package static func run(_ arguments: [String], as executable: CommandExecutable) -> Never {
        ProcessEnd.with(main(arguments, as: executable))
    }

    /// Runs the command with `arguments` (without the program name) in
    /// `executable` and returns how the process ends.
    static func main(_ arguments: [String], as executable: CommandExecutable) -> ProcessEnd.Status {
        FileDescriptor.holdClosedStandardDescriptors()
        if executable == .host {
            DynamicLibrary.refuseInThisProcess()
            // The helpers run plugin code (a library user may still start
            // presenter-host as its presenter process).
            if arguments.first == ScanHelper.flag || arguments.first == PresenterProcessServer.flag {
                return .exit(report(CommandExecutable.handOver(arguments)))
            }
        }
        // The scan helper (see PluginScanner): internal, so not in --help.
        if arguments.first == ScanHelper.flag {
            ScanHelper.run(Array(arguments.dropFirst()), environment: ProcessEnvironment.current)
        }
        // The presenter process (see PresenterProcess): internal too.
        if arguments.first == PresenterProcessServer.flag {
            PresenterProcessServer.run(Array(arguments.dropFirst()), environment: ProcessEnvironment.current)
        }
        if arguments.isEmpty {
            writeStandardError(Usage.synopsis + Usage.seeHelp(nil))
            return .exit(ExitCode.usage.rawValue)
        }
        var invocation: Invocation
        // The environment, read once here and passed down as a value.
        var environment = ProcessEnvironment.current
        do throws(UsageFailure) {
            let traced: Bool
            (invocation, traced) = try read(arguments)
            // --trace is PRESENTER_HOST_DEBUG=1 for this command and every
            // process it starts (the scan helper, the presenter process, the
            // command of `run`): in the value, not in the process's environment.
            if traced { environment[EngineNote.debugVariable] = "1" }
        } catch {
            writeStandardError("Error: \(PrintableText.escaping(error.error.message))\n")
            writeStandardError(
                (error.command.map(Usage.usageLines) ?? Usage.synopsis) + Usage.seeHelp(error.command))
            return .exit(error.error.exitCode.rawValue)
        }
        if executable == .host && invocation.inProcess {
            return .exit(report(CommandExecutable.handOver(arguments)))
        }
        // After the hand-over, which reads them again: said once.
        invocation = DefaultPresenter.applied(to: invocation, environment: environment)
        if let command = invocation.runsWork, let shortfall = DescriptorLimit.shortfall() {
            return .exit(report(.descriptors(shortfall, command: command)))
        }
        switch invocation {
        case .help:
            return .exit(printing(Usage.help))
        case .commandHelp(let name):
            return .exit(printing(CommandTable.commands.first { $0.name == name }.map(Usage.help) ?? Usage.help))
        case .version:
            return .exit(printing(Usage.versionLine + "\n"))
        case let .list(plugins, verbose, json, ids):
            return .exit(
                ListCommand.execute(plugins, verbose: verbose, json: json, ids: ids, environment: environment))
        case .printPluginPath(let plugins):
            return .exit(printPluginPath(plugins, environment: environment))
        case let .sandboxInfo(plugins, json):
            return .exit(SandboxInfoCommand.execute(plugins, json: json, environment: environment))
        case .run(let options):
            return RunCommand.execute(options, environment: environment)
        case let .bookmarks(json, store):
            return .exit(BookmarksCommand.execute(store: store, json: json, environment: environment))
        case .addBookmark(let options):
            return AddBookmarkCommand.execute(options, environment: environment)
        case .check(let options):
            return .exit(CheckCommand.execute(options, environment: environment))
        case .drive(let options):
            return DriveCommand.execute(options, environment: environment)
        case .completions(let shell):
            return .exit(printing(CompletionScript.script(for: shell)))
        }
    }

    /// Parses the arguments (``CommandTable``): what the command line asks for.
    /// - Throws: the usage error, as `.usage`.
    static func parse(_ arguments: [String]) throws(CommandError) -> Invocation {
        do throws(UsageFailure) {
            return try read(arguments).invocation
        } catch {
            throw error.error
        }
    }

    /// Reads the words before the command against ``CommandTable/top``,
    /// then the command's with its own spec. The plugin options, `--trace`
    /// (and list's `-v` and `--json`) given before a command are the
    /// command's own, taken as read as if they came after its name: each command
    /// takes them or refuses them in one way, never drops them. `traced`:
    /// the command takes `--trace` and was given it.
    private static func read(_ arguments: [String]) throws(UsageFailure) -> (invocation: Invocation, traced: Bool) {
        let top: ParsedArguments
        do throws(CommandError) {
            top = try ArgumentParser.parse(arguments, as: CommandTable.top)
        } catch {
            throw UsageFailure(error: error, command: nil)
        }
        if let stop = top.stoppedBy {
            guard stop.name == CommandTable.version.name else { return (.help, false) }
            if let given = top.occurrences.first(where: { $0.option.name != stop.name }) {
                throw UsageFailure(
                    error: .usage(
                        "\(given.option.name) does not apply to \(stop.name): \(CommandTable.versionRefusal)"),
                    command: nil)
            }
            return (.version, false)
        }
        let spelledAsOptions = CommandTable.optionCommands.filter { top.has($0.name) }
        // What came before the command, as read, but the commands spelled as options.
        let given = top.occurrences.filter { !CommandTable.optionCommands.map(\.name).contains($0.option.name) }
        if let word = top.operands.first {
            guard let command = CommandTable.command(word: word) else {
                let failure: CommandError =
                    spelledAsOptions.isEmpty
                    ? .usage(
                        "Unknown command '\(PrintableText.escaping(word))'; the commands are \(ValueKind.either(CommandTable.commands.map(\.name), "and"))"
                    )
                    : .usage("Unexpected argument '\(PrintableText.escaping(word))'")
                throw UsageFailure(error: failure, command: spelledAsOptions.first)
            }
            if let flag = spelledAsOptions.first {
                let its = word.hasSuffix("s") ? "\(word)'" : "\(word)'s"
                throw UsageFailure(
                    error: .usage(
                        "'\(flag.name)' cannot be combined with '\(word)'; put \(its) options after '\(word)'"),
                    command: command)
            }
            return try invocation(of: command, Array(top.operands.dropFirst()), after: given)
        }
        guard let command = spelledAsOptions.first else {
            let failure: CommandError
            if let option = ["--verbose", "--json", "--ids"].first(where: top.has) {
                failure = .usage("'\(option)' needs '--list'")
            } else {
                let names = CommandTable.commands.map { "'\($0.name)'" }
                failure = .usage("Missing command: use \(ValueKind.either(names))")
            }
            throw UsageFailure(error: failure, command: nil)
        }
        if spelledAsOptions.count > 1 {
            throw UsageFailure(
                error: .usage("'\(spelledAsOptions[0].name)' cannot be combined with '\(spelledAsOptions[1].name)'"),
                command: nil)
        }
        return try invocation(of: command, [], after: given)
    }

    /// `command`'s invocation from its arguments (after the options read
    /// before its name), and whether it was given `--trace`.
    private static func invocation(
        of command: CommandSpec, _ arguments: [String], after leading: [ParsedArguments.Occurrence]
    ) throws(UsageFailure) -> (invocation: Invocation, traced: Bool) {
        do throws(CommandError) {
            let parsed = try ArgumentParser.parse(arguments, as: command, after: leading)
            if parsed.stoppedBy != nil { return (command.hasHelpPage ? .commandHelp(command.name) : .help, false) }
            return (try invocation(of: command, parsed), parsed.has(CommandTable.trace.name))
        } catch {
            throw UsageFailure(error: error, command: command)
        }
    }

    /// What `parsed` (`command`'s arguments) asks for.
    private static func invocation(
        of command: CommandSpec, _ parsed: ParsedArguments
    ) throws(CommandError) -> Invocation {
        switch command.name {
        case CommandTable.list.name:
            return .list(
                PluginOptions(parsed), verbose: parsed.has("--verbose"), json: parsed.has("--json"),
                ids: parsed.has("--ids"))
        case CommandTable.printPluginPath.name:
            return .printPluginPath(PluginOptions(parsed))
        case CommandTable.sandboxInfo.name:
            return .sandboxInfo(PluginOptions(parsed), json: parsed.has("--json"))
        case CommandTable.run.name:
            return .run(try RunOptions(parsed))
        case CommandTable.bookmarks.name:
            return .bookmarks(json: parsed.has("--json"), store: parsed.last("--store"))
        case CommandTable.addBookmark.name:
            return .addBookmark(try AddBookmarkOptions(parsed))
        case CommandTable.check.name:
            return .check(CheckCommand.Options(parsed))
        case CommandTable.drive.name:
            return .drive(DriveOptions(parsed))
        default:
            return .completions(CompletionScript.Shell(rawValue: parsed.operands[0])!)
        }
    }

    /// `--print-plugin-path`: the search path, one directory a line, in
    /// search order (missing ones too: a plugin put there would be found),
    /// escaped (``PrintableText``);
    /// warnings about the user's directories on stderr.
    static func printPluginPath(_ plugins: PluginOptions, environment: [String: String]) -> Int32 {
        let (entries, warnings) = plugins.searchPath(environment: environment)
        for warning in warnings { writeStandardError(warning + "\n") }
        if let note = XDGDirectories.homeNote(environment) { writeStandardError(note + "\n") }
        // Escaped as --list shows them: a folder's name may hold a newline
        // (a forged second entry) or an escape sequence.
        return printing(SearchPath.directories(entries).map { PrintableText.escaping($0) + "\n" }.joined())
    }

    /// Prints `error` the one way errors are printed once the command
    /// runs (`Error: ...`; a usage error found while parsing comes with
    /// its usage lines, see ``main(_:)``) and returns its status. The line
    /// is escaped (`PrintableText`) whatever it quotes: a value the user
    /// gave, an id or a reason a plugin file gave.
    static func report(_ error: CommandError) -> Int32 {
        if error != .brokenPipe {  // nobody is reading: quiet, as `head`'s writers are
            writeStandardError("Error: \(PrintableText.escaping(error.message))\n")
        }
        return error.exitCode.rawValue
    }

    /// Writes `text` to stdout, all of it: the one way a command's results
    /// and help reach stdout (never `FileHandle`, whose `write` stops the
    /// process on a closed or broken stdout).
    /// - Throws: `.brokenPipe` when the reader went away (EPIPE), and
    ///   `.outputError` naming stdout and the error otherwise.
    static func writeStandardOutput(_ text: String) throws(CommandError) {
        do throws(Errno) {
            try FileDescriptor.standardOutput.writeAll(Array(text.utf8))
        } catch {
            throw outputFailure(error)
        }
    }

    /// What a failed write to stdout is: `.brokenPipe` for EPIPE,
    /// `.outputError` naming stdout and the error otherwise.
    static func outputFailure(_ error: Errno) -> CommandError {
        guard error.code != EPIPE else { return .brokenPipe }
        return .outputError(
            "cannot write to stdout (\(errnoText(error.code))); give the command an open, writable stdout")
    }

    /// Writes `text` (a help, a result) to stdout and returns the exit
    /// status: success, or the failed write reported (``report(_:)``).
    static func printing(_ text: String) -> Int32 {
        do throws(CommandError) {
            try writeStandardOutput(text)
            return ExitCode.success.rawValue
        } catch {
            return report(error)
        }
    }

    /// Writes `text` to stderr (unbuffered).
    static func writeStandardError(_ text: String) {
        try? FileDescriptor.standardError.writeAll(Array(text.utf8))
    }
}
