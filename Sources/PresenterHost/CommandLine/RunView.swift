/// The view of `presenter-host run`: the bottom region of the terminal, below
/// the command's output, with the presenter the user chose and the messages
/// of `--messages FILE` or of `--working/--success/--failure`.
final class RunView: ScreenletView, @unchecked Sendable {
    private let presenterID: String

    /// A view for `options`, with the messages already read from the file
    /// (`nil` without `--messages`).
    init(options: RunOptions, file: MessagesFile?) {
        presenterID = options.presenter
        super.init(progressMessages: Self.messages(options: options, file: file))
    }

    override func createProgressPresenter() -> String { presenterID }

    /// The message table. From a file: as written (the runtime falls back to
    /// its "default" action for an action it lacks, and shows nothing for an
    /// action without a working message). From the flags: one table for the
    /// action, whose working message is the command line unless `--working`
    /// says otherwise; no success or failure message unless given (the
    /// presenter then hides at once, and a failure still shows the command's
    /// output and exit status).
    /// A messages file's table, as written.
    static func messages(from file: MessagesFile) -> [String: ProgressMessages] {
        file.actions.mapValues { entry in
            var messages: ProgressMessages = [:]
            messages[.working] = entry.working
            messages[.success] = entry.success
            messages[.failure] = entry.failure
            return messages
        }
    }

    static func messages(options: RunOptions, file: MessagesFile?) -> [String: ProgressMessages] {
        if let file { return messages(from: file) }
        var messages: ProgressMessages = [.working: options.working ?? options.commandLine]
        messages[.success] = options.success
        messages[.failure] = options.failure
        return [options.action: messages]
    }
}
