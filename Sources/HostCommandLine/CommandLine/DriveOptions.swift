/// The flags of `presenter-host drive`, as parsed.
package struct DriveOptions: Equatable, Sendable {
    /// What `drive` shares with `run`: `--presenter`, `--messages`,
    /// `--color`, `--terminal-progress`, the plugin options, `--min-show`,
    /// `--hook-timeout`, `--in-process`, `-v`, `--log` (its command stays empty).
    package var presentation = RunOptions()
    /// `--socket`: serve the protocol on this Unix socket instead of stdin.
    package var socket: String?

    /// The defaults.
    package init() {}

    /// The options `parsed` (checked against ``CommandTable/drive``) give.
    init(_ parsed: ParsedArguments) {
        presentation = RunOptions(presentation: parsed)
        socket = parsed.last("--socket")
    }
}
