import HostSystem

/// Every error the command line reports. Each case carries the one line the
/// user sees (naming the file or value, what is wrong and what to do);
/// `exitCode` maps it to a status in this one place.
package enum CommandError: Error, Equatable, Sendable {
    /// A bad flag, a missing or malformed value. Printed with the usage.
    case usage(String)
    /// A malformed data file (e.g. the messages file).
    case dataError(String)
    /// An input file that does not exist or cannot be read.
    case noInput(String)
    /// An output file that cannot be created or written.
    case cannotCreate(String)
    /// The command given to `run` was not found.
    case commandNotFound(String)
    /// The command given to `run` cannot be executed.
    case cannotExecute(String)
    /// The system cannot give what the command needs (descriptors).
    case systemError(String)
    /// Anything else that stops the command.
    case failure(String)
    /// stdout cannot be written (closed, a full disk, ...): like
    /// coreutils, the command says so and fails rather than lose output
    /// silently.
    case outputError(String)
    /// The reader of stdout went away (EPIPE, e.g. `| head -1`): nothing is
    /// printed, as a process that SIGPIPE ended prints nothing.
    case brokenPipe

    /// The line shown to the user, without the `Error: ` prefix.
    package var message: String {
        switch self {
        case .usage(let m), .dataError(let m), .noInput(let m), .cannotCreate(let m), .commandNotFound(let m),
            .cannotExecute(let m), .systemError(let m), .failure(let m), .outputError(let m):
            return m
        case .brokenPipe:
            return "the reader of stdout went away"
        }
    }

    /// The exit status for this error.
    package var exitCode: ExitCode {
        switch self {
        case .usage: return .usage
        case .dataError: return .dataError
        case .noInput: return .noInput
        case .cannotCreate: return .cannotCreate
        case .commandNotFound: return .commandNotFound
        case .cannotExecute: return .cannotExecute
        case .systemError: return .systemError
        case .failure: return .failure
        case .outputError: return .ioError
        case .brokenPipe: return .brokenPipe
        }
    }
}

extension CommandError {
    /// Too few descriptors are free for `command` to start.
    static func descriptors(_ shortfall: DescriptorLimit.Shortfall, command: String) -> CommandError {
        switch shortfall {
        case .limit(let limit):
            return .systemError(
                "the open-file limit (ulimit -n) is \(limit); presenter-host \(command) needs at least "
                    + "\(DescriptorLimit.needed): raise it, e.g. ulimit -n 1024")
        case .inherited(let limit, let inherited, let free):
            return .systemError(
                "only \(free) descriptors of the open-file limit (ulimit -n \(limit)) are free, \(inherited) being "
                    + "inherited; presenter-host \(command) needs \(DescriptorLimit.needed - 3) free besides stdin, "
                    + "stdout and stderr: raise the limit (e.g. ulimit -n 1024) or close the inherited descriptors")
        }
    }

    /// A pipe `run`, `drive` or `add-bookmark` needs at start-up (the signal
    /// pipe, the progress channel's) could not be made: the descriptors ran
    /// out after the start-up check (many plugin files open, say).
    static func startUpPipe(_ what: String, _ error: Errno) -> CommandError {
        .systemError(
            "cannot make \(what): \(errnoText(error.code)); raise the open-file limit (e.g. ulimit -n 1024) "
                + "or close the descriptors presenter-host inherits")
    }
}
