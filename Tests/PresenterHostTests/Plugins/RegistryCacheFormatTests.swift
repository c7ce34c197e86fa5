import Foundation
import Testing
@testable import HostPlugins

/// The registry cache's text read line by line (`RegistryCacheFormat`):
/// what a file line's identity and path may be, as bytes a decoder meets.
@Suite struct RegistryCacheFormatTests {
    private static let key = "abi 1.2|binary 1 2 3 4|flag /d"
    private static let record = "P\t0\tx.p\tX\t1.0\t\u{1}\t\u{1}\t\u{1}\t\u{1}\t1\t1.2\tcreate,show"

    /// A cache file whose only file line is `F`, a tab, `path`, a tab and
    /// `identity`, then one presenter's record, under a good checksum.
    private static func file(path: String = "/d/libx.so", identity: String) -> [UInt8] {
        let body = Array("K\t\(key)\nF\t\(path)\t\(identity)\n\(record)\n".utf8)
        return RegistryCacheFormat.header(for: body[...]) + body
    }

    /// Five decimal numbers, single spaces between them and none around
    /// them, each of at most 19 digits and the last three within Int64.
    @Test(arguments: [
        ("1 2 3 4 5", true), ("0 18446744073709551615 9223372036854775807 0 0", false),
        ("1 2 3 4", false), ("1 2 3 4 5 6", false), ("1  2 3 4 5", false), (" 1 2 3 4 5", false),
        ("1 2 3 4 5 ", false), ("1 2 3 4 ", false), ("1 2 3  4", false), ("1 2 3 4 x", false), ("", false),
        ("1 2 9223372036854775808 4 5", false),
        ("1234567890123456789 2 3 4 5", true), ("12345678901234567890 2 3 4 5", false),
    ])
    func anIdentityIsFiveNumbers(identity: String, readable: Bool) {
        let entries = try? RegistryCacheFormat.decode(Self.file(identity: identity), key: Self.key)
        #expect((entries != nil) == readable, "\(identity)")
        if readable, let entry = entries?["/d/libx.so"] {
            #expect(entry.identity.text == identity)
        }
    }

    /// A path's escapes (`\\`, `\t`, `\n`) are undone; a path without a
    /// backslash is read as it is; the record after it is the file's.
    @Test func aPathIsReadWithItsEscapesUndone() throws {
        let plain = try RegistryCacheFormat.decode(Self.file(identity: "1 2 3 4 5"), key: Self.key)
        #expect(Array(plain.keys) == ["/d/libx.so"])
        let escaped = try RegistryCacheFormat.decode(
            Self.file(path: "/d/a\\\\b\\tc\\nd.so", identity: "1 2 3 4 5"), key: Self.key)
        #expect(Array(escaped.keys) == ["/d/a\\b\tc\nd.so"])
        guard case .success(let results)? = escaped.values.first?.contents, case .success(let plugin)? = results.first
        else {
            Issue.record("no presenter read: \(escaped)")
            return
        }
        #expect(plugin.id == "x.p" && plugin.hookNames == ["create", "show"] && plugin.cached)
        #expect(plugin.abiVersion == ABIVersion(major: 1, minor: 2))
    }
}
