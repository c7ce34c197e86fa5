/// The flags of `presenter-host drive`, as parsed: what every presenter
/// command shares (``presentation``) and drive's own.
package struct DriveOptions: Equatable, Sendable {
    /// `--presenter`, `--messages`, `--color`, `--terminal-progress`, the
    /// plugin options, `--min-show`, `--hook-timeout`, `--in-process`, `-v`, `--log`.
    package var presentation = PresentationOptions()
    /// `--socket`: serve the protocol on this Unix socket instead of stdin.
    package var socket: String?

    /// The defaults.
    package init() {}

    /// What the command line asked for.
    package enum Parsed: Equatable, Sendable {
        case drive(DriveOptions)
        /// `--help` / `-h`.
        case help
    }

    /// The help text of `drive`, from ``CommandTable/drive``.
    package static var usage: String { Usage.help(CommandTable.drive) }

    /// Parses the arguments that follow `drive` (``CommandTable/drive``).
    /// - Throws: `CommandError.usage` naming the option or value.
    package static func parse(_ arguments: [String]) throws(CommandError) -> Parsed {
        let parsed = try ArgumentParser.parse(arguments, as: CommandTable.drive)
        if parsed.stoppedBy != nil { return .help }
        return .drive(DriveOptions(parsed))
    }

    /// The options `parsed` (checked against ``CommandTable/drive``) give.
    init(_ parsed: ParsedArguments) {
        presentation = PresentationOptions(parsed)
        socket = parsed.last("--socket")
    }
}
