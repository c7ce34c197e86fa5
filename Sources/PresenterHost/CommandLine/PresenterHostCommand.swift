import Dispatch
import FoundationEssentials
import Glibc

/// The `presenter-host` command line: parses arguments, runs a subcommand and
/// maps every error to an exit status in one place.
public enum PresenterHostCommand {
    /// What the arguments ask for.
    enum Invocation: Equatable {
        case help
        case version
        case list(PluginOptions, verbose: Bool, json: Bool)
        case printPluginPath(pluginDirs: [String])
        case run(arguments: [String], plugins: PluginOptions)
        case bookmarks(arguments: [String])
        case addBookmark(arguments: [String], pluginDirs: [String])
        case check(arguments: [String], pluginDirs: [String])
        case drive(arguments: [String], pluginDirs: [String])

        /// The name of a command that runs work under a presenter (and so
        /// needs ``DescriptorLimit/needed`` descriptors), or nil.
        var runsWork: String? {
            switch self {
            case .run: "run"
            case .addBookmark: "add-bookmark"
            case .check: "check"
            case .drive: "drive"
            case .help, .version, .list, .printPluginPath, .bookmarks: nil
            }
        }
    }

    /// Runs the command with `arguments` (without the program name) and
    /// returns the process exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        FileDescriptor.holdClosedStandardDescriptors()
        // The scan helper (see PluginScanner): internal, so not in --help.
        if arguments.first == ScanHelper.flag { ScanHelper.run(Array(arguments.dropFirst())) }
        // The presenter process (see PresenterProcess): internal too.
        if arguments.first == PresenterProcessServer.flag { PresenterProcessServer.run(Array(arguments.dropFirst())) }
        // --trace (before the command) is PRESENTER_HOST_DEBUG=1 for this
        // process and every process it starts (the scan helper, the presenter process).
        if arguments.prefix(while: { !["run", "check", "drive", "add-bookmark", "bookmarks"].contains($0) }).contains(
            "--trace")
        {
            ProcessEnvironment.set(EngineNote.debugVariable, to: "1")
        }
        if arguments.isEmpty {
            writeStandardError(Usage.synopsis + seeHelp)
            return ExitCode.usage.rawValue
        }
        do throws(CommandError) {
            let invocation = try parse(arguments)
            if let command = invocation.runsWork, let shortfall = DescriptorLimit.shortfall() {
                throw CommandError.descriptors(shortfall, command: command)
            }
            switch invocation {
            case .help:
                return printing(Usage.help)
            case .version:
                return printing(Usage.versionLine + "\n")
            case let .list(plugins, verbose, json):
                return ListCommand.execute(plugins, verbose: verbose, json: json)
            case let .printPluginPath(pluginDirs):
                return printPluginPath(pluginDirs: pluginDirs)
            case let .run(runArguments, plugins):
                return RunCommand.execute(runArguments, plugins: plugins)
            case .bookmarks(let bookmarksArguments):
                return BookmarksCommand.execute(bookmarksArguments)
            case let .addBookmark(commandArguments, pluginDirs):
                return AddBookmarkCommand.execute(commandArguments, pluginDirs: pluginDirs)
            case let .check(checkArguments, pluginDirs):
                return CheckCommand.execute(checkArguments, pluginDirs: pluginDirs)
            case let .drive(driveArguments, pluginDirs):
                return DriveCommand.execute(driveArguments, pluginDirs: pluginDirs)
            }
        } catch {
            return report(error)
        }
    }

    /// Parses the arguments that come before a command's own (everything
    /// after `run` belongs to `run`).
    static func parse(_ arguments: [String]) throws(CommandError) -> Invocation {
        var plugins = PluginOptions()
        var list = false, verbose = false, json = false, printPath = false
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-h", "--help":
                return .help
            case "--version":
                return .version
            case "--list", "list":
                list = true
            case "--print-plugin-path":
                printPath = true
            case "--trace":
                continue  // handled in main, before anything runs
            case "-v", "--verbose":
                verbose = true
            case "--json":
                json = true
            case _ where try plugins.parse(argument, arguments, &index):
                continue
            case "run", "check", "drive", "add-bookmark":
                if let flag = list
                    ? "--list" : verbose ? "--verbose" : json ? "--json" : printPath ? "--print-plugin-path" : nil
                {
                    throw .usage(
                        "'\(flag)' cannot be combined with '\(argument)'; put \(argument)'s options after '\(argument)'"
                    )
                }
                let rest = Array(arguments[index...])
                let pluginDirs = plugins.pluginDirs
                switch argument {
                case "run": return .run(arguments: rest, plugins: plugins)
                case "check": return .check(arguments: rest, pluginDirs: pluginDirs)
                case "drive": return .drive(arguments: rest, pluginDirs: pluginDirs)
                default: return .addBookmark(arguments: rest, pluginDirs: pluginDirs)
                }
            case "bookmarks":
                if let flag = list
                    ? "--list"
                    : verbose
                        ? "--verbose"
                        : json
                            ? "--json"
                            : printPath
                                ? "--print-plugin-path"
                                : !plugins.pluginDirs.isEmpty ? "--plugin-dir" : nil
                {
                    throw .usage("'\(flag)' cannot come before 'bookmarks'; put bookmarks' options after it")
                }
                return .bookmarks(arguments: Array(arguments[index...]))
            case _ where argument.hasPrefix("-") && argument != "-":
                throw .usage("Unknown option '\(argument)'")
            default:
                throw .usage("Unexpected argument '\(argument)'")
            }
        }
        if printPath {
            if let flag = list ? "--list" : verbose ? "--verbose" : json ? "--json" : nil {
                throw .usage("'\(flag)' cannot be combined with '--print-plugin-path'")
            }
            return .printPluginPath(pluginDirs: plugins.pluginDirs)
        }
        guard list else {
            throw .usage(
                verbose || json
                    ? "'\(verbose ? "--verbose" : "--json")' needs '--list'"
                    : "Missing command: use '--list', 'run', 'check', 'drive', 'add-bookmark' or 'bookmarks'")
        }
        return .list(plugins, verbose: verbose, json: json)
    }

    /// `--print-plugin-path`: the search path, one directory a line, in
    /// search order (missing ones too: a plugin put there would be found);
    /// warnings about the user's directories on stderr.
    static func printPluginPath(pluginDirs: [String]) -> Int32 {
        let (entries, warnings) = SearchPath.resolve(
            pluginDirs: pluginDirs, environment: ProcessInfo.processInfo.environment,
            executablePath: nil)
        for warning in warnings { writeStandardError(warning + "\n") }
        return printing(SearchPath.directories(entries).map { $0 + "\n" }.joined())
    }

    /// Prints `error` the one way errors are printed (`Error: ...`, followed
    /// by `usage` for a usage error) and returns its status.
    static func report(_ error: CommandError, usage: String = Usage.synopsis + seeHelp) -> Int32 {
        switch error {
        case .brokenPipe:
            break  // nobody is reading: quiet, as `head`'s writers are
        case .usage(let message):
            writeStandardError("Error: \(message)\n" + usage)
        default:
            writeStandardError("Error: \(error.message)\n")
        }
        return error.exitCode.rawValue
    }

    private static let seeHelp = "See 'presenter-host --help'.\n"

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
