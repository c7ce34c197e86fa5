import HostText

/// One command of `presenter-host`, as data: its name, its usage lines, the
/// options it takes (with their values' kinds), its operands, and the text
/// of its help. ``ArgumentParser`` reads arguments against it, ``Usage``
/// writes its help and usage lines from it and ``CompletionScript`` the
/// shells' completions, so none of them can say something the others do not.
struct CommandSpec: Sendable {
    /// The word that names it (`run`), or its flag (`--list`,
    /// `--print-plugin-path`) for a command spelled as an option.
    let name: String
    /// Other words for it (`list` for `--list`).
    var aliases: [String] = []
    /// Its usage lines, without `Usage: ` (each a whole command line).
    let synopsis: [String]
    /// One line for the top-level help's list of commands.
    let summary: String
    /// What its own help says under the usage lines; empty for none.
    var description = ""
    /// Its options, in the order its help lists them.
    let options: [OptionSpec]
    /// What the words that are not options are.
    var operands = Operands.none(hint: nil)
    /// Options of other commands that this one does not take, with why: a
    /// usage error says so rather than "unknown".
    var refused: [(names: [String], reason: String)] = []
    /// Options that cannot be given together.
    var exclusive: [[String]] = []
    /// What its help says after the options (exit statuses, notes).
    var epilogue = ""
    /// True when `<name> --help` has a page of its own; otherwise the
    /// top-level help is shown.
    var hasHelpPage = true

    /// What the words that are not options mean.
    enum Operands: Sendable {
        /// None; an unexpected word is an error that ends with `hint`.
        case none(hint: String?)
        /// Operands until the end (`check`'s files): at least one, else
        /// `missing` is the error.
        case files(placeholder: String, missing: String)
        /// `run`'s command: it starts at `--` or at the first word that is
        /// not an option, and takes every word after it, options too; with
        /// a `missing` error, it must be there.
        case command(missing: String?)
        /// Exactly one of `values` (`completions`' shell).
        case choice(placeholder: String, values: [String], missing: String)
    }

    /// The option named `name` (long or short).
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.short == name }
    }

    /// Every name it answers to.
    var names: [String] { [name] + aliases }

    /// `presenter-host run --help`, or the top-level help for a command without a page of its own.
    var helpCommand: String { hasHelpPage ? "presenter-host \(name) --help" : "presenter-host --help" }
}

/// One option of a command.
struct OptionSpec: Sendable {
    /// Its long name, `--presenter`.
    let name: String
    /// Its short name, `-v`, if it has one.
    var short: String?
    /// What value it takes.
    var value: ValueKind = .flag
    /// What a shell completes its value with.
    var completion: Completion = .none
    /// Its help: one or more sentences, wrapped when shown.
    let help: String
    /// May be given more than once, each value kept (`--plugin-dir`);
    /// otherwise the last one given counts.
    var repeatable = false
    /// The most times a repeatable option may be given (nil: no limit).
    var most: Int?
    /// Another spelling of another option with a fixed value
    /// (`--show-output` is `--output stream`).
    var alias: (name: String, value: String)?
    /// Ends the parsing at once (`--help`, `--version`).
    var stops = false

    /// What a shell completes the value with.
    enum Completion: Sendable, Equatable {
        case none, file, directory
        /// The ids `presenter-host --list --ids` prints.
        case presenter
        case values([String])
    }

    /// `--presenter <id>`, `-v, --verbose`: how help names it.
    var label: String {
        (short.map { "\($0), " } ?? "") + name + (value.placeholder.map { " \($0)" } ?? "")
    }

    /// The values a shell offers for it.
    var completedValues: Completion {
        switch value {
        case .choice(_, let values): return .values(values)
        default: return completion
        }
    }
}

/// The kind of value an option takes, and how it is checked: a value that
/// does not fit is a usage error at parse time, before anything runs.
enum ValueKind: Sendable {
    /// No value: `--flag`; `--flag=x` is an error.
    case flag
    /// Any text; with `needs`, not the empty one (`--log needs a file`).
    case text(placeholder: String, needs: String? = nil)
    /// A number of seconds: finite, above 0 (or 0 too), at most `longest`.
    case seconds(allowZero: Bool, longest: Double, longestName: String)
    /// One of `values`.
    case choice(placeholder: String, values: [String])
    /// Checked by `check` (the option's name and the value): `--output`'s
    /// `tail=N`, `--store`'s path.
    case checked(placeholder: String, check: @Sendable (String, String) throws(CommandError) -> Void)

    /// `<id>`, `<seconds>`; nil for a flag.
    var placeholder: String? {
        switch self {
        case .flag: return nil
        case .text(let placeholder, _), .choice(let placeholder, _), .checked(let placeholder, _): return placeholder
        case .seconds: return "<seconds>"
        }
    }

    /// Checks `text` as the value of the option `name`.
    func validate(_ text: String, for name: String) throws(CommandError) {
        switch self {
        case .flag:
            break
        case .text(_, let needs):
            if let needs, text.isEmpty { throw .usage("\(name) needs \(needs)") }
        case .seconds(let allowZero, let longest, let longestName):
            _ = try Self.seconds(text, for: name, allowZero: allowZero, longest: longest, longestName: longestName)
        case .choice(_, let values):
            guard values.contains(text) else {
                throw .usage("\(name): '\(PrintableText.escaping(text))' is not \(Self.either(values))")
            }
        case .checked(_, let check):
            try check(name, text)
        }
    }

    /// A duration: finite, not negative (and above zero unless
    /// `allowZero`), at most `longest` seconds. The one reading of a
    /// duration the command line has (``duration(_:)``).
    static func seconds(
        _ text: String, for name: String, allowZero: Bool, longest: Double, longestName: String
    ) throws(CommandError) -> Double {
        guard let value = duration(text), value > 0 || allowZero else {
            let what = allowZero ? "a duration" : "a duration above 0"
            throw .usage(
                "\(name): '\(PrintableText.escaping(text))' is not \(what); give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)"
            )
        }
        guard value <= longest else {
            throw .usage(
                "\(name): '\(PrintableText.escaping(text))' is too long; give at most \(Int(longest)) seconds (\(longestName))"
            )
        }
        return value
    }

    /// `text` as seconds when it is a duration: a decimal number (`5`,
    /// `1.5`, `.5`) alone or followed by `s`, `m` or `h` (`5s`, `2m`, `1h`);
    /// nil for anything else: hexadecimal (`0x10`, which `Double` would take
    /// as 16), exponents, `inf`, signs, spaces.
    static func duration(_ text: String) -> Double? {
        var number = Substring(text)
        var unit = 1.0
        switch number.last {
        case "s": number = number.dropLast()
        case "m": (number, unit) = (number.dropLast(), 60)
        case "h": (number, unit) = (number.dropLast(), 3600)
        default: break
        }
        let isDigit: (Character) -> Bool = { ("0"..."9").contains($0) }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard
            number.contains(where: isDigit),
            parts.allSatisfy({ $0.allSatisfy(isDigit) }),
            parts.count == 1 || !parts[1].isEmpty,
            let value = Double(number)
        else { return nil }
        return value * unit
    }

    /// "auto, always or never" (`conjunction` "and": "a, b and c").
    static func either(_ values: [String], _ conjunction: String = "or") -> String {
        values.count < 2
            ? values.joined() : values.dropLast().joined(separator: ", ") + " \(conjunction) " + values.last!
    }
}
