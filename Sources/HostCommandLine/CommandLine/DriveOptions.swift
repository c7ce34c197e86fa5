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

    /// The options `parsed` (checked against ``CommandTable/drive``) give.
    init(_ parsed: ParsedArguments) {
        presentation = PresentationOptions(parsed)
        socket = parsed.last("--socket")
    }
}
