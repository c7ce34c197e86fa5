import HostText

/// A `.presenters` file: what a Swift plugin's presenters declare, written
/// once, from which `presenter-describe` makes both the description notes
/// presenter-host reads without loading the library and the
/// `PresenterInfo` values the code exports (docs/writing-a-presenter.md):
///
///     # One section a presenter, in descriptor order.
///     [mbhud]
///     name = MB HUD
///     version = 1.0.0
///     description = A box centred on the view
///     author = presenter-host
///     license = MIT
///     extends = base-id
///     capabilities = messages, determinate
///     hooks = show, hide, progress, render, key
///
/// `name` and `version` are required; `hooks` lists the hooks the type
/// implements (the SDK adds create and destroy), all of them when absent.
/// The rules are the descriptor's (presenter_abi.h); presenter-host checks
/// them again when it reads the notes.
struct Manifest {
    /// One presenter's section.
    struct Presenter {
        var id: String
        /// The section's other keys, as written.
        var fields: [String: String] = [:]
        /// Where its `[id]` line is, for messages.
        var line: Int
    }

    /// A line that breaks the format: its number (1-based) and what is wrong.
    struct Problem: Error {
        let line: Int
        let message: String
    }

    static let textKeys = ["name", "version", "description", "author", "license", "extends"]
    static let listKeys = ["capabilities", "hooks"]
    static let capabilities = ["messages", "determinate", "one-row"]
    static let hooks = ["show", "hide", "progress", "render", "key"]
    /// The byte limits of presenter_abi.h's descriptor fields.
    static let limits = ["name": 128, "version": 64, "description": 512, "author": 256, "license": 128, "extends": 64]

    var presenters: [Presenter] = []

    /// Parses the bytes of a `.presenters` file.
    init(_ bytes: [UInt8]) throws(Problem) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem(line: 0, message: "is not UTF-8 text")
        }
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = number + 1
            let content = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            let trimmed = Self.trimmed(content)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                let id = String(trimmed.dropFirst().dropLast())
                try Self.checkId(id, field: "the section's id", line: line)
                guard !presenters.contains(where: { $0.id == id }) else {
                    throw Problem(line: line, message: "presenter '\(id)' is described twice")
                }
                presenters.append(Presenter(id: id, line: line))
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw Problem(line: line, message: "is neither [id], key = value nor a # comment")
            }
            guard !presenters.isEmpty else {
                throw Problem(line: line, message: "comes before the first [id] line")
            }
            let key = String(Self.trimmed(trimmed[..<equals]))
            let value = String(Self.trimmed(trimmed[trimmed.index(after: equals)...]))
            guard Self.textKeys.contains(key) || Self.listKeys.contains(key) else {
                throw Problem(
                    line: line,
                    message: "'\(key)' is not a key; use \((Self.textKeys + Self.listKeys).joined(separator: ", "))")
            }
            guard presenters[presenters.count - 1].fields[key] == nil else {
                throw Problem(line: line, message: "\(key) is given twice")
            }
            try Self.check(key: key, value: value, line: line)
            presenters[presenters.count - 1].fields[key] = value
        }
        guard !presenters.isEmpty else {
            throw Problem(line: 0, message: "describes no presenter; add an [id] section")
        }
        for presenter in presenters {
            for key in ["name", "version"] where (presenter.fields[key] ?? "").isEmpty {
                throw Problem(line: presenter.line, message: "presenter '\(presenter.id)' has no \(key)")
            }
        }
        guard presenters.count <= 256 else { throw Problem(line: 0, message: "describes more than 256 presenters") }
    }

    /// The names in a list value.
    static func names(_ value: String) -> [String] {
        value.split(separator: ",").map { String(trimmed($0)) }.filter { !$0.isEmpty }
    }

    private static func check(key: String, value: String, line: Int) throws(Problem) {
        if let limit = limits[key], value.utf8.count > limit {
            throw Problem(line: line, message: "\(key) is longer than \(limit) bytes")
        }
        // What the host refuses in a descriptor's strings (presenter_abi.h):
        // the same rule, so that a file the build accepts the host reads.
        if value.unicodeScalars.contains(where: ControlCharacters.all.matches) {
            throw Problem(line: line, message: "\(key) holds a control or bidirectional formatting character")
        }
        if key == "extends" { try checkId(value, field: "extends", line: line) }
        let known = key == "capabilities" ? capabilities : key == "hooks" ? hooks : nil
        if let known, let unknown = names(value).first(where: { !known.contains($0) }) {
            throw Problem(
                line: line, message: "'\(unknown)' is not one of the \(key): \(known.joined(separator: ", "))")
        }
    }

    private static func checkId(_ id: String, field: String, line: Int) throws(Problem) {
        guard PresenterIdRule.isValid(id) else {
            throw Problem(line: line, message: "\(field) must be 1 to 64 bytes of a-z, 0-9, '.', '_' and '-'")
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) })
        else { return "" }
        return text[first...last]
    }
}
