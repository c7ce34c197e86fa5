/// A `Codable` value as one line of JSON and back, through ``JSONValue``
/// (keys sorted, so the same value is always the same line) and
/// ``JSONReader``: what Foundation's `JSONEncoder` and `JSONDecoder` did
/// for the scan helper's records and the registry cache, without
/// FoundationEssentials in the host (about 1 ms and 3 MiB a process).
///
/// Numbers are read exactly: an integer field takes only an integer that
/// fits it. A refusal is ``Failure``, with where it was found.
package enum JSONCoding {
    /// Why a text is not the value asked for: the coding path and what is wrong.
    package struct Failure: Error, Equatable {
        /// "kind._0: expected a string, found a number", or the syntax error's words.
        package let reason: String
    }

    /// `value` as one line of JSON.
    package static func encode(_ value: some Encodable) throws -> String {
        let root = Slot()
        try value.encode(to: Writer(slot: root, codingPath: []))
        return root.value.serialized
    }

    /// The value of type `type` that `bytes`, one JSON text, hold.
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(Failure) -> T {
        let node: JSONReader.Node
        do { node = try JSONReader.parse(bytes) } catch { throw Failure(reason: error.message) }
        do { return try T(from: Reader(value: node.value, codingPath: [])) } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(reason: "\(error)")
        }
    }
}

// MARK: - Writing

/// A value being written: containers are filled after they are handed out.
private final class Slot {
    enum Content {
        case value(JSONValue)
        case object([String: Slot])
        case array([Slot])
    }

    var content = Content.value(.null)

    var value: JSONValue {
        switch content {
        case .value(let value): value
        case .object(let members): .object(members.mapValues(\.value))
        case .array(let elements): .array(elements.map(\.value))
        }
    }

    /// The member `key`, made an empty object first if this is none yet.
    func member(_ key: String) -> Slot {
        var members: [String: Slot] = [:]
        if case .object(let existing) = content { members = existing }
        let slot = Slot()
        members[key] = slot
        content = .object(members)
        return slot
    }

    func appended() -> Slot {
        var elements: [Slot] = []
        if case .array(let existing) = content { elements = existing }
        let slot = Slot()
        content = .array(elements + [slot])
        return slot
    }

    func makeObject() { if case .object = content {} else { content = .object([:]) } }
    func makeArray() { if case .array = content {} else { content = .array([]) } }
}

private struct Writer: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeObject()
        return KeyedEncodingContainer(KeyedWriter(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.makeArray()
        return UnkeyedWriter(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleWriter(slot: slot, codingPath: codingPath) }
}

/// Writes a value into a slot: a number, string or bool as itself, any other by its own `encode(to:)`.
private func write(_ value: some Encodable, into slot: Slot, codingPath: [any CodingKey]) throws {
    switch value {
    case let value as String: slot.content = .value(.string(value))
    case let value as Bool: slot.content = .value(.bool(value))
    case let value as Double: slot.content = .value(.double(value))
    // By its shortest digits: 0.1 as a Float is not 0.1 as a Double.
    case let value as Float: slot.content = .value(.double(Double(value.description) ?? .nan))
    case let value as any FixedWidthInteger:
        guard let int = Int(exactly: value) else { throw JSONCoding.Failure(reason: "\(value) does not fit an Int") }
        slot.content = .value(.int(int))
    default: try value.encode(to: Writer(slot: slot, codingPath: codingPath))
    }
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { slot.member(key.stringValue).content = .value(.null) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try write(value, into: slot.member(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        Writer(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        Writer(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { Writer(slot: slot.member("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        Writer(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let elements) = slot.content { return elements.count }
        return 0
    }

    mutating func encodeNil() throws { slot.appended().content = .value(.null) }

    mutating func encode(_ value: some Encodable) throws {
        try write(value, into: slot.appended(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        Writer(slot: slot.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        Writer(slot: slot.appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { Writer(slot: slot.appended(), codingPath: codingPath) }
}

private struct SingleWriter: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.content = .value(.null) }
    mutating func encode(_ value: some Encodable) throws { try write(value, into: slot, codingPath: codingPath) }
}

// MARK: - Reading

private struct Reader: Decoder {
    let value: JSONReader.Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func failure(_ what: String) -> JSONCoding.Failure {
        let path = codingPath.map(\.stringValue).joined(separator: ".")
        return JSONCoding.Failure(reason: (path.isEmpty ? "" : path + ": ") + what)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw failure("expected an object, found \(value.kindDescription)")
        }
        let byKey = Dictionary(members.map { ($0.key, $0.node.value) }, uniquingKeysWith: { _, last in last })
        return KeyedDecodingContainer(KeyedReader<Key>(members: byKey, reader: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw failure("expected an array, found \(value.kindDescription)")
        }
        return UnkeyedReader(elements: elements.map(\.value), codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleReader(reader: self) }

    /// The value as `T`: a number, string or bool read exactly, any other by its own `init(from:)`.
    func read<T: Decodable>(_ type: T.Type) throws -> T {
        let number: String
        switch (T.self, value) {
        case (is String.Type, .string(let text)): return text as! T
        case (is Bool.Type, .bool(let bool)): return bool as! T
        case (is Double.Type, .number(let text)), (is Float.Type, .number(let text)),
            (is any FixedWidthInteger.Type, .number(let text)):
            number = text
        case (is String.Type, _), (is Bool.Type, _), (is Double.Type, _), (is Float.Type, _),
            (is any FixedWidthInteger.Type, _):
            throw failure("expected \(T.self), found \(value.kindDescription)")
        default: return try T(from: self)
        }
        let read: Any? =
            switch T.self {
            // Finite only, as JSONDecoder reads: `1e999` is no number.
            case is Double.Type: Double(number).flatMap { $0.isFinite ? $0 : nil }
            case is Float.Type: Float(number).flatMap { $0.isFinite ? $0 : nil }
            case let integer as any FixedWidthInteger.Type: integer.init(number, radix: 10)
            default: nil
            }
        guard let read = read as? T else { throw failure("\(T.self) cannot hold \(number)") }
        return read
    }
}

private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONReader.Value]
    let reader: Reader
    var codingPath: [any CodingKey] { reader.codingPath }
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> Reader {
        guard let value = members[key.stringValue] else { throw reader.failure("no member '\(key.stringValue)'") }
        return Reader(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard case .null = try member(key).value else { return false }
        return true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).read(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        Reader(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
}

private struct UnkeyedReader: UnkeyedDecodingContainer {
    let elements: [JSONReader.Value]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [JSONReader.Value], codingPath: [any CodingKey]) {
        (self.elements, self.codingPath) = (elements, codingPath)
    }

    private mutating func next() throws -> Reader {
        guard !isAtEnd else {
            throw Reader(value: .null, codingPath: codingPath).failure("fewer than \(currentIndex + 1) elements")
        }
        currentIndex += 1
        return Reader(value: elements[currentIndex - 1], codingPath: codingPath)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().read(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleReader: SingleValueDecodingContainer {
    let reader: Reader
    var codingPath: [any CodingKey] { reader.codingPath }

    func decodeNil() -> Bool {
        guard case .null = reader.value else { return false }
        return true
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.read(type) }
}
