/// The exit statuses of `presenter-host`, in one place (sysexits.h and the
/// shell conventions that `timeout` and `gum spin` follow).
package enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    /// A bad flag, a missing value: EX_USAGE.
    case usage = 64
    /// A malformed data file (the messages file): EX_DATAERR.
    case dataError = 65
    /// An input file that cannot be read: EX_NOINPUT.
    case noInput = 66
    /// An internal error: EX_SOFTWARE.
    case software = 70
    /// The system cannot give what is needed (too few descriptors): EX_OSERR.
    case systemError = 71
    /// An output file that cannot be created or written (`--log`): EX_CANTCREAT.
    case cannotCreate = 73
    /// stdout cannot be written: EX_IOERR.
    case ioError = 74
    /// `run --timeout` expired (as timeout(1)).
    case timedOut = 124
    /// The command exists but cannot be executed.
    case cannotExecute = 126
    /// The command was not found.
    case commandNotFound = 127
    /// Interrupted by SIGHUP (128 + 1).
    case hangup = 129
    /// Interrupted by SIGINT (128 + 2).
    case interrupted = 130
    /// The reader of stdout went away (128 + SIGPIPE): the status a shell
    /// shows for a writer that SIGPIPE ended, which is what the host is
    /// when SIGPIPE is not ignored.
    case brokenPipe = 141
    /// Terminated by SIGTERM (128 + 15).
    case terminated = 143
}
