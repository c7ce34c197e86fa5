import HostText

/// The lines a command writes to its progress channel
/// (`PRESENTER_PROGRESS_FD`, see docs/PROGRESS.md):
///
/// - `42%`: a percentage, 0 to 100;
/// - `0.42`: a fraction, 0 to 1;
/// - `42/100`: done out of a positive total (done at most the total);
/// - a JSON object `{"progress": 0.42, "message": "Downloading foo.tar"}`
///   with either member or both; `"progress": null` makes the fraction
///   unknown again (the spinner comes back).
///
/// Surrounding blanks and a carriage return are ignored; an empty line is
/// no report.
enum ProgressLine {
    /// Why a line is not a report, for the `--verbose` log.
    struct Invalid: Error, Equatable {
        var reason: String
    }

    /// The report `line` makes; `nil` for an empty line.
    /// - Throws: ``Invalid`` saying what is wrong with it.
    static func parse(_ line: String) throws(Invalid) -> ProgressReport? {
        let text = line.trimmingBlanks
        if text.isEmpty { return nil }
        if text.hasPrefix("{") { return try parseObject(text) }
        if text.hasSuffix("%") {
            guard let percent = number(text.dropLast()), percent <= 100 else {
                throw Invalid(reason: "'\(PrintableText.escaping(text))' is not a percentage from 0% to 100%")
            }
            return ProgressReport(fraction: percent / 100)
        }
        if let slash = text.firstIndex(of: "/") {
            guard let done = number(text[..<slash]), let total = number(text[text.index(after: slash)...]), total > 0
            else {
                throw Invalid(
                    reason: "'\(PrintableText.escaping(text))' is not done/total with a total above 0 (e.g. 42/100)")
            }
            guard done <= total else {
                throw Invalid(reason: "'\(PrintableText.escaping(text))': done is more than the total")
            }
            return ProgressReport(done: done, total: total)
        }
        guard let fraction = number(Substring(text)) else {
            throw Invalid(reason: "'\(PrintableText.escaping(text))' is not 42%, 0.42, 42/100 or a JSON object")
        }
        guard fraction <= 1 else {
            throw Invalid(
                reason:
                    "'\(PrintableText.escaping(text))' is more than 1; write a percentage as \(PrintableText.escaping(text))%"
            )
        }
        return ProgressReport(fraction: fraction)
    }

    /// A finite, non-negative decimal number (digits, one optional point).
    private static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    private static func parseObject(_ text: String) throws(Invalid) -> ProgressReport {
        let node: JSONReader.Node
        do {
            node = try JSONReader.parse(Array(text.utf8))
        } catch {
            throw Invalid(reason: "column \(error.column): \(error.message)")
        }
        guard case .object(let members) = node.value else { throw Invalid(reason: "not a JSON object") }
        var report = ProgressReport()
        var fractionGiven = false
        for member in members {
            switch (member.key, member.node.value) {
            case ("progress", .number(let digits)):
                guard let value = Double(digits), value >= 0, value <= 1 else {
                    throw Invalid(reason: "\"progress\": \(digits) is not a fraction from 0 to 1")
                }
                report.fraction = value
                fractionGiven = true
            case ("progress", .null):
                report.fraction = -1
                fractionGiven = true
            case ("message", .string(let message)):
                // Text to show: cut to a message's length, its escape codes go (`DisplayText`).
                report.message = DisplayText.message(message)
            case ("progress", let other), ("message", let other):
                throw Invalid(
                    reason:
                        "\"\(PrintableText.escaping(member.key))\" is \(other.kindDescription); expected \(member.key == "message" ? "a string" : "a number from 0 to 1")"
                )
            default:
                throw Invalid(
                    reason:
                        "unknown member \"\(PrintableText.escaping(member.key))\" (expected \"progress\", \"message\")")
            }
        }
        guard fractionGiven || report.message != nil else {
            throw Invalid(reason: "an object needs \"progress\" or \"message\"")
        }
        return report
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and carriage returns.
    var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
