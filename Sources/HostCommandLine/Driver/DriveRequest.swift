import HostRuntime
import HostText

/// One line of the driver protocol, version 1 (docs/DRIVER.md): a JSON
/// object whose verb member (`start`, `progress`, `succeed` or `fail`)
/// names the action it is about.
///
/// ```
/// {"start": "a1", "action": "get-title", "working": "Getting the title..."}
/// {"progress": "a1", "fraction": 0.3, "message": "Reading the page"}
/// {"succeed": "a1", "message": "Done"}
/// {"fail": "a1", "message": "Could not get the title", "reason": "HTTP 404"}
/// ```
///
/// Any line may carry `"protocol": 1`; another version is refused.
enum DriveRequest: Equatable {
    /// `messages`: the line's own working/success/failure, which replace
    /// the action's table; `nil` uses the table (the `--messages` file).
    case start(id: String, action: String, messages: ProgressMessages?)
    /// `fraction`: 0...1, negative for unknown again, `nil` unchanged.
    case progress(id: String, fraction: Double?, message: String?)
    case succeed(id: String, message: String?)
    case fail(id: String, message: String?, reason: String?)

    /// The protocol version this host speaks.
    static let version = 1
    /// The action of a start line that names none.
    static let defaultAction = ScreenletView.defaultAction

    /// The id of the action it is about.
    var id: String {
        switch self {
        case .start(let id, _, _), .progress(let id, _, _), .succeed(let id, _), .fail(let id, _, _): return id
        }
    }

    /// What is wrong with a line.
    struct Invalid: Error, Equatable {
        var reason: String
    }

    private static let verbs = ["start", "progress", "succeed", "fail"]
    private static let allowed: [String: Set<String>] = [
        "start": ["action", "working", "success", "failure"],
        "progress": ["fraction", "message"],
        "succeed": ["message"],
        "fail": ["message", "reason"],
    ]

    /// What a line that is not a JSON object is told to send instead.
    private static let example = #"send one JSON object a line, such as {"start": "a1", "working": "Working..."}"#

    /// Parses one line (without its newline).
    static func parse(_ line: [UInt8]) throws(Invalid) -> DriveRequest {
        // Checked before JSON reads it: a reader decodes lossily, and "\xFF"
        // and "\xFE" must not become the same id.
        if let offset = firstByteNotUTF8(line) {
            throw Invalid(
                reason:
                    "byte \(offset + 1) (\(PrintableText.escapingInvalidUTF8([line[offset]]))) is not UTF-8; send each line as UTF-8 text"
            )
        }
        let node: JSONReader.Node
        do {
            node = try JSONReader.parse(line)
        } catch {
            // A broken object is told where it breaks; anything else is not
            // JSON meant for us at all (a stray `echo hello`).
            guard line.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") else {
                throw Invalid(reason: "not a JSON object; \(example)")
            }
            throw Invalid(reason: "column \(error.column): \(error.message)")
        }
        guard case .object(let list) = node.value else {
            throw Invalid(reason: "\(node.value.kindDescription), not a JSON object; \(example)")
        }
        var members: [String: JSONReader.Value] = [:]
        for member in list {
            guard members[member.key] == nil else {
                throw Invalid(reason: "\"\(PrintableText.escaping(member.key))\" is given twice")
            }
            members[member.key] = member.node.value
        }
        if let version = members.removeValue(forKey: "protocol") {
            guard case .number(let digits) = version, Int(digits) == Self.version else {
                throw Invalid(
                    reason:
                        "\"protocol\" must be \(Self.version) (this presenter-host speaks version \(Self.version) of the protocol)"
                )
            }
        }
        let found = verbs.filter { members[$0] != nil }
        guard found.count == 1, let verb = found.first else {
            throw Invalid(
                reason: found.isEmpty
                    ? "no verb; give one of \"start\", \"progress\", \"succeed\", \"fail\" with the action's id"
                    : "more than one verb (\(found.map { "\"\($0)\"" }.joined(separator: ", "))); send one per line")
        }
        guard case .string(let id) = members.removeValue(forKey: verb)!, !id.isEmpty else {
            throw Invalid(reason: "\"\(verb)\" must be the action's id, a non-empty string")
        }
        if let unknown = members.keys.sorted().first(where: { !allowed[verb, default: []].contains($0) }) {
            let expected = allowed[verb, default: []].sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw Invalid(
                reason: "unknown member \"\(PrintableText.escaping(unknown))\" for \"\(verb)\" (expected \(expected))")
        }
        func text(_ key: String) throws(Invalid) -> String? {
            switch members[key] {
            case nil: return nil
            // Every string but the action is text to show: cut as a message is, its escape codes go.
            case .string(let value)?: return key == "action" ? value : DisplayText.message(value)
            case let other?: throw Invalid(reason: "\"\(key)\" is \(other.kindDescription); expected a string")
            }
        }
        switch verb {
        case "start":
            var messages: ProgressMessages = [:]
            messages[.working] = try text("working")
            messages[.success] = try text("success")
            messages[.failure] = try text("failure")
            let action = try text("action") ?? defaultAction
            guard !action.isEmpty else { throw Invalid(reason: "\"action\" must not be empty") }
            return .start(id: id, action: action, messages: messages.isEmpty ? nil : messages)
        case "progress":
            var fraction: Double?
            switch members["fraction"] {
            case nil: fraction = nil
            case .null?: fraction = -1
            case .number(let digits)?:
                guard let value = Double(digits), value >= 0, value <= 1 else {
                    throw Invalid(reason: "\"fraction\": \(digits) is not from 0 to 1")
                }
                fraction = value
            case let other?:
                throw Invalid(reason: "\"fraction\" is \(other.kindDescription); expected a number from 0 to 1 or null")
            }
            let message = try text("message")
            guard fraction != nil || message != nil else {
                throw Invalid(reason: "\"progress\" needs \"fraction\" or \"message\"")
            }
            return .progress(id: id, fraction: fraction, message: message)
        case "succeed":
            return .succeed(id: id, message: try text("message"))
        default:
            return .fail(id: id, message: try text("message"), reason: try text("reason"))
        }
    }

    /// Where `bytes` stop being UTF-8 (an invalid or cut sequence), or nil.
    static func firstByteNotUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
