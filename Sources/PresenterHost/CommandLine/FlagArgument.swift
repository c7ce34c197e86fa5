/// One argument of a subcommand that is a flag: `--flag`, or `--flag=value`
/// with its value inline. Subcommands parse their own flags; this is the
/// one place that splits them.
struct FlagArgument: Equatable, Sendable {
    /// The flag's name (`--timeout`, `-h`).
    let name: String
    /// The value after `=`, when the argument carries one.
    let inline: String?

    init(_ argument: String) {
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inline = String(argument[argument.index(after: equals)...])
        } else {
            name = argument
            inline = nil
        }
    }
}
