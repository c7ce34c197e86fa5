import Foundation
@testable import HostPlugins
@testable import HostSandbox
@testable import HostText
import Testing

/// The host's own Codable JSON (JSONCoding) writes the line Foundation's
/// JSONEncoder wrote (sorted keys, slashes as they are) and reads what it
/// wrote, so scan records and registry caches of either still read; and it
/// refuses what JSONDecoder refused.
@Suite("JSON coding: Codable values as the host writes them")
struct JSONCodingTests {
    /// A refusal of every shape: nested enums, a struct, optionals, an array,
    /// Int64, Int32, UInt32, UInt16, Double, Bool.
    static let failures: [PluginLoadFailure] = [
        .empty, .tooLarge(size: Int64.max), .notELF(looksLikeText: true), .timedOut(seconds: 2.5),
        .timedOut(seconds: 10), .crashed(signal: 11), .exited(status: -1), .dlopen("libX.so: cannot open / \"é\""),
        .file(.danglingLink(target: "/a/b")),
        .file(.insecure(.writable(path: "/p", isDirectory: true, who: "group", mode: "g-w"))),
        // kill(1, SIGKILL) on x86-64.
        .stopped(ConfinementViolation(number: 62, arguments: [1, 9], architecture: 0xC000_003E)),
        .descriptor(index: nil, id: "x", .abiMajor(plugin: ABIVersion(major: 2, minor: 0))),
        .descriptor(index: 3, id: nil, .unknownName(field: "hooks", known: ["a", "b"])),
        .descriptor(index: 0, id: "y", .tooSmall(size: UInt32.max, minimum: 8)),
        .untrustedReport(record: nil, .field(.missingField("id"))),
        .untrustedReport(record: 2, .lineTooLong(limit: 4096)),
        .otherSwiftToolchain(plugin: "6.0", runtime: "/opt", swift: "6.3"), .unscanned,
    ]

    @Test(arguments: failures)
    func aValueIsTheLineJSONEncoderWroteAndReadsBack(failure: PluginLoadFailure) throws {
        let line = try JSONCoding.encode(failure)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(line == String(decoding: try encoder.encode(failure), as: UTF8.self))
        #expect(try JSONCoding.decode(PluginLoadFailure.self, from: Array(line.utf8)) == failure)
        #expect(try JSONDecoder().decode(PluginLoadFailure.self, from: Data(line.utf8)) == failure)
    }

    @Test(arguments: failures)
    func whatJSONEncoderWroteReads(failure: PluginLoadFailure) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // slashes as "\/", as the cache files of before have them
        let written = try encoder.encode(failure)
        #expect(try JSONCoding.decode(PluginLoadFailure.self, from: Array(written)) == failure)
    }

    @Test(arguments: [
        #"{"crashed":{"signal":2147483648}}"#,  // past Int32
        #"{"crashed":{"signal":1.5}}"#,
        #"{"crashed":{"signal":"11"}}"#,
        #"{"tooLarge":{"size":9223372036854775808}}"#,
        #"{"empty":{},"unscanned":{}}"#,  // two cases
        #"{"nothing":{}}"#,
        #"{"dlopen":{}}"#,  // no value
        #"{"notELF":{"looksLikeText":1}}"#,
        #"["empty"]"#,
        #"{"empty":{}"#,  // not JSON
        #"{"timedOut":{"seconds":1e999}}"#,  // no finite Double
        "",
    ])
    func whatJSONDecoderRefusedIsRefused(text: String) {
        #expect(throws: JSONCoding.Failure.self) {
            try JSONCoding.decode(PluginLoadFailure.self, from: Array(text.utf8))
        }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(PluginLoadFailure.self, from: Data(text.utf8)) }
    }

    /// A cache line may hold any number a Double does: its text is made
    /// without a trap (an `Int` of 1e300 would be one).
    @Test func aTimeoutOfAnySizeIsDescribed() {
        #expect(PluginLoadFailure.timedOut(seconds: 1e300).description.contains("1e+300 s"))
        #expect(PluginLoadFailure.timedOut(seconds: 5).description.contains(" 5 s"))
    }

    @Test func aRefusalNamesWhereItIs() {
        #expect(throws: JSONCoding.Failure(reason: "crashed.signal: Int32 cannot hold 2147483648")) {
            try JSONCoding.decode(PluginLoadFailure.self, from: Array(#"{"crashed":{"signal":2147483648}}"#.utf8))
        }
    }

    /// A Float is written by its shortest digits, as JSONEncoder writes it, and every width of integer exactly.
    @Test func numbersAreWrittenAsJSONEncoderWritesThem() throws {
        struct Numbers: Codable, Equatable {
            var float: Float = 0.1
            var double = 1e16
            var small: Int8 = -128
            var large = UInt64(Int64.max)
            var list: [Int16] = [1, -2]
            var none: Int? = nil
        }
        let line = try JSONCoding.encode(Numbers())
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(line == String(decoding: try encoder.encode(Numbers()), as: UTF8.self))
        #expect(try JSONCoding.decode(Numbers.self, from: Array(line.utf8)) == Numbers())
    }
}
