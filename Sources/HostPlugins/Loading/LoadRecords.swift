import Dispatch
import FoundationEssentials
import Glibc

/// What loading one plugin file gave, as lines of text: the scan helper
/// reports them (`ScanProtocol`) and the registry cache keeps them.
///
///     P <index> <id> <name> <version> <description> <author> <license> <extends> <capabilities> <abi> <hooks>
///     D <index> <failure as JSON>
///     X <failure as JSON>
///
/// One line per descriptor (`P` for a presenter, `D` for a refused
/// descriptor), or one `X` line when the file as a whole failed. Fields are
/// separated by tabs; descriptor strings hold no tab or newline
/// (`DescriptorReader` refuses control characters) and an absent one is
/// written as U+0001. No line holds the file's path.
enum LoadRecords {
    private static let absent = "\u{1}"

    /// Lines that are not records of one file.
    struct Malformed: Error {}

    /// The record lines (without newlines) of `outcome`.
    static func lines(_ outcome: PluginLibrary.Outcome) -> [String] {
        switch outcome {
        case .failure(let failure):
            return ["X\t\(json(failure))"]
        case .success(let results):
            return results.enumerated().map { index, result in
                switch result {
                case .success(let plugin): return presenterLine(index, plugin)
                case .failure(let failure): return "D\t\(index)\t\(json(failure))"
                }
            }
        }
    }

    /// What loading the file at the real path `file` gave, from its record
    /// lines split at tabs (`fields`); its presenters are marked `cached` as said.
    static func outcome(_ records: [[String]], file: String, cached: Bool) throws(Malformed) -> PluginLibrary.Outcome {
        if records.count == 1, records[0].count == 2, records[0][0] == "X" {
            return .failure(try decodeFailure(records[0][1]))
        }
        guard !records.isEmpty else { throw Malformed() }
        var results: PluginLibrary.Contents = []
        for fields in records {
            switch (fields[0], fields.count) {
            case ("D", 3) where Int(fields[1]) == results.count:
                results.append(.failure(try decodeFailure(fields[2])))
            case ("P", 12) where Int(fields[1]) == results.count:
                var plugin = try presenter(fields, file: file)
                plugin.source = cached ? .cache : .scan
                results.append(.success(plugin))
            default:
                throw Malformed()
            }
        }
        return .success(results)
    }

    /// One line's fields (split at tabs).
    static func fields(_ line: some Collection<UInt8>) -> [String] {
        line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func presenterLine(_ index: Int, _ plugin: PresenterPlugin) -> String {
        let fields = [
            String(index), plugin.id, plugin.name, plugin.version, plugin.description ?? absent,
            plugin.author ?? absent, plugin.license ?? absent, plugin.extends ?? absent,
            String(plugin.capabilities.rawValue), "\(plugin.abiVersion.major).\(plugin.abiVersion.minor)",
            plugin.hookNames.joined(separator: ","),
        ]
        return "P\t" + fields.joined(separator: "\t")
    }

    private static func presenter(_ fields: [String], file: String) throws(Malformed) -> PresenterPlugin {
        func optional(_ field: String) -> String? { field == absent ? nil : field }
        // Split as bytes: the Character-wise split cost most of a cached
        // record's decoding, which every warm start does for every file.
        let abi = fields[10].utf8.split(separator: UInt8(ascii: "."))
        guard let capabilities = UInt64(fields[9]), abi.count == 2,
            let major = UInt16(String(decoding: abi[0], as: UTF8.self)),
            let minor = UInt16(String(decoding: abi[1], as: UTF8.self))
        else { throw Malformed() }
        return PresenterPlugin(
            id: fields[2], name: fields[3], version: fields[4],
            description: optional(fields[5]), author: optional(fields[6]), license: optional(fields[7]),
            extends: optional(fields[8]), capabilities: .init(rawValue: capabilities),
            abiVersion: ABIVersion(major: major, minor: minor), file: file,
            hookNames: fields[11].utf8.split(separator: UInt8(ascii: ",")).map {
                String(decoding: $0, as: UTF8.self)
            })
    }

    private static func json(_ failure: PluginLoadFailure) -> String {
        // A Codable enum of strings and numbers: encoding cannot fail; were
        // it to, `{}` is a record every reader refuses as malformed (the
        // cache entry is dropped and the file scanned again), not a crash.
        // JSON escapes control characters, so the text holds no tab or newline.
        // Sorted keys: the same outcome makes the same line (the
        // registry-cache fuzz target's oracle found a case's fields in
        // another order each write: Fixtures/fuzz/registry-cache/regression-json-key-order).
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(failure)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static func decodeFailure(_ field: String) throws(Malformed) -> PluginLoadFailure {
        guard let failure = try? JSONDecoder().decode(PluginLoadFailure.self, from: Data(field.utf8)) else {
            throw Malformed()
        }
        return failure
    }
}
