import HostText

/// The arguments of one command read against its ``CommandSpec``: every
/// command's options are split and checked here, the one way (`--flag value`
/// and `--flag=value` alike, a value's kind checked at once), and every
/// problem is one `CommandError.usage` in one style.
struct ParsedArguments {
    /// One option as given, in order.
    struct Occurrence {
        let option: OptionSpec
        /// Its value (an alias's fixed one), nil for a flag.
        let value: String?
        /// The words it took, as typed (`--plugin-dir`, `x`).
        let words: [String]
    }

    var occurrences: [Occurrence] = []
    /// The words that are not options (run's command, check's files).
    var operands: [String] = []
    /// The option that ended the parsing at once (`--help`), if one did.
    var stoppedBy: OptionSpec?

    /// Whether `name` was given.
    func has(_ name: String) -> Bool { occurrences.contains { $0.option.name == name } }

    /// The last value given to `name`.
    func last(_ name: String) -> String? { occurrences.last { $0.option.name == name }?.value }

    /// Every value given to `name`, in order.
    func all(_ name: String) -> [String] { occurrences.filter { $0.option.name == name }.compactMap(\.value) }

    /// The last value of a `.seconds` option, in seconds (checked when parsed).
    func seconds(_ name: String) -> Double? { last(name).flatMap(ValueKind.duration) }
}

enum ArgumentParser {
    /// Reads `arguments` (the words after the command's name) against `spec`.
    /// - Throws: `.usage` naming the option or word, in the one style:
    ///   `Unknown option '--bogus'`, `Missing value for '--timeout <seconds>'`,
    ///   `--timeout: 'soon' is not a duration above 0; give seconds (5, 1.5 or 5s), minutes (2m) or hours (1h)`,
    ///   `--in-process takes no value`, `Unexpected argument 'x'`.
    ///
    /// `leading`: options already read before the command's name (against
    /// the top spec: `presenter-host --plugin-dir D run ...`), taken as if
    /// they came first after it, as read, not read again: each must be one
    /// of `spec`'s own, or it is refused as an option typed there would be.
    static func parse(
        _ arguments: [String], as spec: CommandSpec, after leading: [ParsedArguments.Occurrence] = []
    ) throws(CommandError) -> ParsedArguments {
        var parsed = ParsedArguments()
        for occurrence in leading { parsed.occurrences.append(try adopt(occurrence, into: spec)) }
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if optionsEnded || !isOption(word) {
                if case .command = spec.operands {
                    // The command starts here and takes the rest as it is.
                    parsed.operands = Array(arguments[(index - 1)...])
                    break
                }
                parsed.operands.append(word)
                continue
            }
            if word == "--" {
                if case .command = spec.operands {
                    parsed.operands = Array(arguments[index...])
                    break
                }
                optionsEnded = true
                continue
            }
            let (name, inline) = split(word)
            guard let option = spec.option(named: name) else {
                if let refusal = spec.refused.first(where: { $0.names.contains(name) }) {
                    throw .usage("\(name) does not apply to \(spec.name): \(refusal.reason)")
                }
                throw .usage("Unknown option '\(PrintableText.escaping(name))'")
            }
            var words = [word]
            let value: String?
            if case .flag = option.value {
                if inline != nil { throw .usage("\(option.name) takes no value") }
                value = option.alias?.value
            } else if let inline {
                value = inline
            } else {
                guard index < arguments.endIndex, !takesNoValue(arguments[index], in: spec) else {
                    throw .usage("Missing value for '\(option.label)'")
                }
                value = arguments[index]
                words.append(arguments[index])
                index += 1
            }
            if let value { try option.value.validate(value, for: option.name) }
            let target = option.alias.flatMap { spec.option(named: $0.name) } ?? option
            parsed.occurrences.append(.init(option: target, value: value, words: words))
            if let most = target.most, parsed.all(target.name).count > most {
                throw .usage("\(target.name) is given more than \(most) times; give at most \(most)")
            }
            if option.stops {
                parsed.stoppedBy = option
                return parsed
            }
        }
        try checkOperands(parsed.operands, spec)
        for group in spec.exclusive {
            let given = group.filter(parsed.has)
            if given.count > 1 {
                throw .usage("\(given.dropLast().joined(separator: ", ")) and \(given.last!) cannot be combined")
            }
        }
        return parsed
    }

    /// `occurrence`, read against another spec, as `spec`'s: the same
    /// option there, with the value it was given.
    /// - Throws: `.usage`, as ``parse(_:as:after:)`` says of a word typed
    ///   after the command's name: refused or unknown there.
    private static func adopt(
        _ occurrence: ParsedArguments.Occurrence, into spec: CommandSpec
    ) throws(CommandError) -> ParsedArguments.Occurrence {
        let name = split(occurrence.words[0]).name
        guard let option = spec.option(named: name) else {
            if let refusal = spec.refused.first(where: { $0.names.contains(name) }) {
                throw .usage("\(name) does not apply to \(spec.name): \(refusal.reason)")
            }
            throw .usage("Unknown option '\(PrintableText.escaping(name))'")
        }
        let target = option.alias.flatMap { spec.option(named: $0.name) } ?? option
        // The top spec holds the commands' shared options themselves (a
        // test holds it); were one to differ, it is said, not taken.
        guard target.name == occurrence.option.name else {
            throw .usage("\(name) means another option in \(spec.name): give it after '\(spec.name)'")
        }
        return occurrence
    }

    private static func checkOperands(_ operands: [String], _ spec: CommandSpec) throws(CommandError) {
        switch spec.operands {
        case .none(let hint):
            if let first = operands.first {
                throw .usage("Unexpected argument '\(PrintableText.escaping(first))'" + (hint.map { "; \($0)" } ?? ""))
            }
        case .files(_, let missing):
            if operands.isEmpty { throw .usage(missing) }
        case .command(let missing):
            if let missing, operands.isEmpty { throw .usage(missing) }
        case .choice(_, let values, let missing):
            guard let first = operands.first else { throw .usage(missing) }
            guard values.contains(first) else {
                throw .usage("'\(PrintableText.escaping(first))' is not \(ValueKind.either(values))")
            }
            if operands.count > 1 { throw .usage("Unexpected argument '\(PrintableText.escaping(operands[1]))'") }
        }
    }

    /// `-x`, `--name`, `--name=value` and `--`; not `-` (stdin, a file).
    static func isOption(_ word: String) -> Bool { word.hasPrefix("-") && word != "-" }

    /// `--name=value` as (`--name`, `value`); anything else as itself.
    static func split(_ word: String) -> (name: String, inline: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// The next word is not a value but what comes after a missing one:
    /// `--` or one of the command's own options (`--timeout --`,
    /// `--plugin-dir --list`). Anything else is taken, `-1` and `-` too.
    private static func takesNoValue(_ word: String, in spec: CommandSpec) -> Bool {
        word == "--" || (isOption(word) && spec.option(named: split(word).name) != nil)
    }
}
