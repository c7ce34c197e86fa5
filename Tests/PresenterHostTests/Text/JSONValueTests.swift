import Foundation
import Testing
@testable import HostText
@testable import HostRuntime

/// The JSON writer: escaping, key order, numbers, nesting, the pretty form,
/// and that the host's own reader reads back what it writes.
@Suite struct JSONValueTests {
    @Test(
        "strings escape quote, backslash, controls, bidi and format characters only",
        arguments: [
            ("\"", #""\"""#), ("\\", #""\\""#), ("\u{08}", #""\b""#), ("\u{0C}", #""\f""#),
            ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#), ("\u{00}", #""\u0000""#),
            ("\u{01}", #""\u0001""#), ("\u{1B}", #""\u001b""#), ("\u{1F}", #""\u001f""#),
            ("/", #""/""#), ("\u{7F}", #""\u007f""#), ("é", "\"é\""), ("😀", "\"😀\""),
            // C1, bidi, separators and format characters: what a terminal
            // acts on or a reader does not see (ControlCharacters.escaped).
            ("\u{80}", #""\u0080""#), ("\u{9B}", #""\u009b""#), ("\u{9F}", #""\u009f""#), ("\u{A0}", "\"\u{A0}\""),
            ("\u{202E}", #""\u202e""#), ("\u{2066}", #""\u2066""#), ("\u{2028}", #""\u2028""#),
            ("\u{200B}", #""\u200b""#), ("\u{FEFF}", #""\ufeff""#), ("\u{E0001}", #""\udb40\udc01""#),
            ("a b", #""a b""#), ("", #""""#),
        ])
    func escaping(text: String, expected: String) {
        #expect(JSONValue.string(text).serialized == expected)
    }

    @Test("object keys are sorted by code point, at every depth")
    func keyOrder() {
        let value: JSONValue = ["b": "x", "a": ["z": .null, "B": .null, "_": .null], "aa": .null]
        #expect(value.serialized == #"{"a":{"B":null,"_":null,"z":null},"aa":null,"b":"x"}"#)
    }

    @Test(
        "doubles print shortest, without a trailing .0; non-finite ones are null",
        arguments: [
            (0.1, "0.1"), (1.0, "1"), (-0.0, "-0"), (1.5, "1.5"), (0.001, "0.001"), (100.0, "100"),
            (123456789.123, "123456789.123"), (1e16, "1e+16"), (1e21, "1e+21"), (1e-7, "1e-07"),
            (0.1 + 0.2, "0.30000000000000004"), (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
        ])
    func doubles(value: Double, expected: String) {
        #expect(JSONValue.double(value).serialized == expected)
    }

    @Test("integers, booleans, null and an absent string")
    func scalars() {
        #expect(JSONValue.int(Int.max).serialized == "9223372036854775807")
        #expect(JSONValue.int(-3).serialized == "-3")
        #expect(JSONValue.bool(true).serialized == "true")
        #expect(JSONValue.bool(false).serialized == "false")
        #expect(JSONValue(nil as String?).serialized == "null")
        #expect(JSONValue("x").serialized == #""x""#)
    }

    @Test("nesting on one line, and pretty-printed with two-space indents")
    func nesting() {
        let value: JSONValue = ["list": [.int(1), ["k": .bool(true)]], "empty": [], "none": [:]]
        #expect(value.serialized == #"{"empty":[],"list":[1,{"k":true}],"none":{}}"#)
        #expect(
            value.prettyPrinted == """
                {
                  "empty" : [

                  ],
                  "list" : [
                    1,
                    {
                      "k" : true
                    }
                  ],
                  "none" : {

                  }
                }
                """)
    }

    @Test("the text is byte for byte what JSONSerialization printed (sorted keys, slashes unescaped)")
    func sameAsFoundation() throws {
        let value: JSONValue = [
            "path": "/a/b", "reason": .null, "list": ["x\ty", .double(0.25), .int(7)],
            "nested": ["inner": .bool(false), "double": .double(12.0)], "empty": [],
        ]
        let object: [String: Any] = [
            "path": "/a/b", "reason": NSNull(), "list": ["x\ty", 0.25, 7] as [Any],
            "nested": ["inner": false, "double": 12.0] as [String: Any], "empty": [Any](),
        ]
        let compact: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        for (options, text) in [(compact, value.serialized), (compact.union(.prettyPrinted), value.prettyPrinted)] {
            let data = try JSONSerialization.data(withJSONObject: object, options: options)
            #expect(text == String(decoding: data, as: UTF8.self))
        }
    }

    @Test("JSONReader reads back what the writer writes, in both forms")
    func roundTrip() throws {
        let value: JSONValue = [
            "text": "quote \" slash \\ / tab \t nul \u{00} esc \u{1B} é 😀 \u{9B}\u{202E}\u{200D}\u{E0001}",
            "int": .int(-42),
            "double": .double(2.5e-8), "flags": [.bool(true), .bool(false), .null],
            "nested": ["deeper": [["a": "b"]], "empty": [:]],
        ]
        for text in [value.serialized, value.prettyPrinted] {
            let node = try JSONReader.parse(Array(text.utf8))
            #expect(Self.value(node.value) == value)
        }
    }

    /// A read value as a `JSONValue` (numbers with a fraction or exponent as doubles).
    private static func value(_ read: JSONReader.Value) -> JSONValue? {
        switch read {
        case .string(let text): return .string(text)
        case .bool(let bool): return .bool(bool)
        case .null: return .null
        case .number(let text):
            if let int = Int(text) { return .int(int) }
            return Double(text).map { .double($0) }
        case .array(let nodes):
            let elements = nodes.compactMap { value($0.value) }
            return elements.count == nodes.count ? .array(elements) : nil
        case .object(let members):
            let pairs = members.compactMap { member in value(member.node.value).map { (member.key, $0) } }
            return pairs.count == members.count ? .object(Dictionary(uniqueKeysWithValues: pairs)) : nil
        }
    }
}
