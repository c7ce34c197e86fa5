/// A JSON (RFC 8259) value to write: how the host prints JSON (`run
/// --events`, drive replies, `check --json`, `list --json`). The bookmark
/// store and `bookmarks --json` keep their own documented layout
/// (`BookmarkDocument.encoded`).
///
/// Typed, so writing cannot fail and needs no runtime casts (Foundation's
/// `JSONSerialization` throws on a non-finite number and casts every `Any`).
/// The text is the one `JSONSerialization` printed with `.sortedKeys` and
/// `.withoutEscapingSlashes`, which scripts already read: keys in order,
/// `/` unescaped, integral doubles without `.0` (`1`, `1e+16`); only DEL,
/// C1, bidi and format characters are escaped where it kept them as they
/// were (`quote`).
package enum JSONValue: Equatable, Sendable {
    case string(String)
    case int(Int)
    /// A non-finite double (NaN, ±infinity) has no JSON form: it is written as `null`.
    case double(Double)
    case bool(Bool)
    case null
    indirect case array([JSONValue])
    indirect case object([String: JSONValue])

    /// `.string(text)`, or `.null` when there is no text.
    package init(_ text: String?) {
        self = text.map { .string($0) } ?? .null
    }

    /// One line, no spaces: `{"a":[1,2],"b":null}`.
    package var serialized: String {
        var text = ""
        write(to: &text, indent: nil)
        return text
    }

    /// Two-space indentation, one member or element a line, `"key" : value`.
    package var prettyPrinted: String {
        var text = ""
        write(to: &text, indent: "")
        return text
    }

    /// Appends the value; `indent` is the current line's indentation when
    /// pretty-printing, nil for one line.
    private func write(to text: inout String, indent: String?) {
        switch self {
        case .string(let string): Self.quote(string, to: &text)
        case .int(let int): text += String(int)
        case .double(let double): text += Self.number(double)
        case .bool(let bool): text += bool ? "true" : "false"
        case .null: text += "null"
        case .array(let elements):
            Self.container("[", "]", elements, to: &text, indent: indent) { element, text, indent in
                element.write(to: &text, indent: indent)
            }
        case .object(let members):
            // Sorted by Unicode scalar values, so the order never depends on a locale.
            let sorted = members.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
            Self.container("{", "}", sorted, to: &text, indent: indent) { member, text, indent in
                Self.quote(member.key, to: &text)
                text += indent == nil ? ":" : " : "
                member.value.write(to: &text, indent: indent)
            }
        }
    }

    /// Writes an array or object; pretty-printed, an empty one keeps
    /// `JSONSerialization`'s blank line (`[`, ``, `]`) so existing output stays.
    private static func container<Item>(
        _ open: String, _ close: String, _ items: [Item], to text: inout String, indent: String?,
        writeItem: (Item, inout String, String?) -> Void
    ) {
        text += open
        guard let indent else {
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                writeItem(item, &text, nil)
            }
            text += close
            return
        }
        let inner = indent + "  "
        text += "\n"
        for (index, item) in items.enumerated() {
            if index > 0 { text += ",\n" }
            text += inner
            writeItem(item, &text, inner)
        }
        text += "\n" + indent + close
    }

    /// Swift's shortest round-trip form without a trailing `.0`; `null` when not finite.
    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A string literal: `"` and `\` escaped, C0 controls as `\b \f \n \r \t`
    /// or `\u00XX`, and the rest of what `PrintableText` escapes (DEL, C1,
    /// bidi and other format characters, ``ControlCharacters/escaped``) as
    /// `\uXXXX` (a pair of surrogates past U+FFFF): RFC 8259 asks only for
    /// C0, but a script may print what it read, and `--list --json` may be
    /// read on a terminal. Everything else (`/`, non-ASCII) as is.
    private static func quote(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where ControlCharacters.escaped.matches(scalar):
                for unit in scalar.utf16 {
                    let hex = String(unit, radix: 16, uppercase: false)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    package init(stringLiteral text: String) {
        self = .string(text)
    }

    package init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(Dictionary(members, uniquingKeysWith: { _, last in last }))
    }

    package init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}
