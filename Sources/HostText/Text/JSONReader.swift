/// A small strict JSON (RFC 8259) reader that remembers where each value
/// starts, so a data-file error can name its line and column; Foundation's
/// JSONSerialization only gives a byte offset, and not for every error.
///
/// Columns count Unicode scalars from 1; lines count from 1.
package struct JSONReader {
    /// A parsed value and the position of its first character.
    package struct Node {
        package var value: Value
        var line: Int
        var column: Int
    }

    /// A JSON value. Objects keep their members in file order.
    package indirect enum Value {
        case object([Member])
        case array([Node])
        case string(String)
        case number(String)
        case bool(Bool)
        case null

        /// "a string", "an object", ... for error messages.
        package var kindDescription: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .number: return "a number"
            case .bool: return "a boolean"
            case .null: return "null"
            }
        }
    }

    /// One member of an object.
    package struct Member {
        package var key: String
        package var node: Node
    }

    /// A syntax error at a position.
    package struct SyntaxError: Error, Equatable {
        package var line: Int
        package var column: Int
        package var message: String
    }

    /// Parses one JSON text (surrounding whitespace allowed, nothing else).
    package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Node {
        var reader = JSONReader(bytes: bytes)
        reader.skipWhitespace()
        let node = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        if reader.index < bytes.count {
            throw reader.error("unexpected \(reader.describeCurrent()) after the JSON value")
        }
        return node
    }

    /// Escapes a key as a JSON Pointer token (`~` → `~0`, `/` → `~1`), for
    /// an error line: control characters are escaped too (`PrintableText`),
    /// so a key can never break the line or reach the terminal raw.
    package static func pointerToken(_ key: String) -> String {
        PrintableText.escaping(key.replacingEvery("~", with: "~0").replacingEvery("/", with: "~1"))
    }

    /// The line and column of the first byte that is not valid UTF-8.
    package static func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int)? {
        guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
        // Decode scalar by scalar to find where it breaks.
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1, column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return nil
            case .error:
                return (line, column)
            }
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private static let maxDepth = 256

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0a {
            line += 1
            column = 1
        } else if byte & 0xc0 != 0x80 {
            // Not a UTF-8 continuation byte: a new scalar starts here.
            column += 1
        }
    }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(line: line, column: column, message: message)
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte >= 0x21 && byte < 0x7f { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 { advance() }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
        guard current == byte else { throw error("expected \(what), found \(describeCurrent())") }
        advance()
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> Node {
        guard depth < Self.maxDepth else { throw error("values nested more than \(Self.maxDepth) deep") }
        let (startLine, startColumn) = (line, column)
        let value: Value
        switch current {
        case UInt8(ascii: "{"): value = try parseObject(depth: depth)
        case UInt8(ascii: "["): value = try parseArray(depth: depth)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); value = .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); value = .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); value = .null
        case let byte? where byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39):
            value = .number(try parseNumber())
        default:
            throw error("expected a JSON value, found \(describeCurrent())")
        }
        return Node(value: value, line: startLine, column: startColumn)
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> Value {
        advance()  // {
        var members: [Member] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { advance(); return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error("expected a string key, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            members.append(Member(key: key, node: try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"): advance(); return .object(members)
            default: throw error("expected ',' or '}', found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> Value {
        advance()  // [
        var elements: [Node] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { advance(); return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"): advance(); return .array(elements)
            default: throw error("expected ',' or ']', found \(describeCurrent())")
            }
        }
    }

    private mutating func parseLiteral(_ word: String) throws(SyntaxError) {
        for expected in word.utf8 {
            guard current == expected else { throw error("expected '\(word)', found \(describeCurrent())") }
            advance()
        }
    }

    private mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { advance() }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        guard isDigit(current) else { throw error("expected a digit, found \(describeCurrent())") }
        if current == UInt8(ascii: "0") {
            advance()
        } else {
            while isDigit(current) { advance() }
        }
        if current == UInt8(ascii: ".") {
            advance()
            guard isDigit(current) else { throw error("expected a digit after '.', found \(describeCurrent())") }
            while isDigit(current) { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard isDigit(current) else { throw error("expected a digit in the exponent, found \(describeCurrent())") }
            while isDigit(current) { advance() }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        advance()  // "
        // UTF-8 bytes, made a String once: appending to a String's scalars
        // escape by escape copied it each time (quadratic in escapes).
        var utf8: [UInt8] = []
        var run = index  // start of the current stretch of plain bytes
        func flushRun(_ end: Int) {
            utf8.append(contentsOf: bytes[run..<end])
        }
        while true {
            guard let byte = current else { throw error("unterminated string: end of file before the closing '\"'") }
            switch byte {
            case UInt8(ascii: "\""):
                flushRun(index)
                advance()
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                flushRun(index)
                advance()
                utf8.append(contentsOf: UTF8.encode(try parseEscape())!)
                run = index
            case 0..<0x20:  // RFC 8259's rule for a string: C0 only (ControlCharacters.c0)
                throw error(
                    "control character (byte 0x\(String(byte, radix: 16, uppercase: true))) in a string; write it as an escape such as \\n"
                )
            default:
                advance()
            }
        }
    }

    private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated string: end of file after '\\'") }
        let simple: [UInt8: Unicode.Scalar] = [
            UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/",
            UInt8(ascii: "b"): "\u{08}", UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n",
            UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
        ]
        if let scalar = simple[byte] { advance(); return scalar }
        guard byte == UInt8(ascii: "u") else {
            throw error("invalid escape '\\\(describeCurrent().trimmingQuotes)' in a string")
        }
        advance()
        let high = try parseHex4()
        if (0xD800..<0xDC00).contains(high) {
            guard current == UInt8(ascii: "\\") else {
                throw error("a lone surrogate \\u\(String(high, radix: 16)) needs its low half")
            }
            advance()
            guard current == UInt8(ascii: "u") else {
                throw error("a lone surrogate \\u\(String(high, radix: 16)) needs its low half")
            }
            advance()
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("\\u\(String(low, radix: 16)) is not the low half of a surrogate pair")
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("a lone surrogate \\u\(String(high, radix: 16))") }
        return scalar
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = UInt32(String(Unicode.Scalar(byte)), radix: 16) else {
                throw error("expected 4 hex digits after '\\u', found \(describeCurrent())")
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }
}

private extension String {
    /// `'x'` → `x`.
    var trimmingQuotes: String {
        count >= 2 && hasPrefix("'") && hasSuffix("'") ? String(dropFirst().dropLast()) : self
    }
}
