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

/// Walks a subcommand's arguments flag by flag, taking values as
/// `--flag value` or `--flag=value`, with the checks every subcommand
/// shares (a value that must not be empty, `--color`), so each parser
/// says only what its own flags mean.
struct FlagCursor {
    private let arguments: [String]
    private var index = 0
    /// `--` ends the flags (run's command follows it), so it is never a value.
    private let dashDashEnds: Bool

    init(_ arguments: [String], dashDashEndsFlags: Bool = false) {
        self.arguments = arguments
        dashDashEnds = dashDashEndsFlags
    }

    /// The arguments not taken yet (a command after the flags).
    var remaining: [String] { Array(arguments[index...]) }

    /// The next argument, split as a flag, and its raw text; `nil` at the end.
    mutating func next() -> (flag: FlagArgument, argument: String)? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return (FlagArgument(arguments[index]), arguments[index])
    }

    /// The value of `flag`: after its `=`, else the next argument (taken).
    mutating func value(of flag: FlagArgument) throws(CommandError) -> String {
        if let inline = flag.inline { return inline }
        guard index < arguments.count, !(dashDashEnds && arguments[index] == "--") else {
            throw .usage("\(flag.name) needs a value")
        }
        defer { index += 1 }
        return arguments[index]
    }

    /// A value that must not be empty; `needs` ends the error: "--log needs a file".
    mutating func nonEmptyValue(of flag: FlagArgument, needs: String) throws(CommandError) -> String {
        let text = try value(of: flag)
        if text.isEmpty { throw .usage("\(flag.name) needs \(needs)") }
        return text
    }

    /// The value of `--color`.
    mutating func color(of flag: FlagArgument) throws(CommandError) -> ColorMode {
        try choice(of: flag, "auto, always or never")
    }

    /// A value that must be one of `T`'s raw values, named in `expected`.
    mutating func choice<T: RawRepresentable<String>>(of flag: FlagArgument, _ expected: String)
        throws(CommandError) -> T
    {
        let text = try value(of: flag)
        guard let choice = T(rawValue: text) else { throw .usage("\(flag.name): '\(text)' is not \(expected)") }
        return choice
    }

    /// Refuses a value given to a flag that takes none (`--add=yes`).
    func noValue(for flag: FlagArgument) throws(CommandError) {
        if flag.inline != nil { throw .usage("\(flag.name) takes no value") }
    }
}
