import Foundation

/// The text of the registry cache file (see `RegistryCache`), version 1:
///
///     presenter-host registry cache 1 <FNV-1a 64 of the rest, hex>
///     K <key: ABI version, host binary, search path>
///     F <real path> <device inode size mtime-ns ctime-ns>
///     P <index> <id> <name> <version> <description> <author> <license> <extends> <capabilities> <abi> <hooks>
///     D <index> <failure as JSON>
///     X <failure as JSON>
///
/// Fields are separated by tabs. A file line (`F`) is followed by one line
/// per descriptor (`P` for a presenter, `D` for a refused descriptor) or by
/// one `X` line when the file as a whole failed. Paths escape `\`, tab and
/// newline; descriptor strings hold none of them (`DescriptorReader` refuses
/// control characters) and an absent one is written as U+0001. The
/// checksum makes a torn or bit-flipped file unreadable rather than wrong.
enum RegistryCacheFormat {
    /// Bumped whenever a line changes meaning.
    static let version = 1
    private static let magic = "presenter-host registry cache \(version) "
    private static let absent = "\u{1}"

    /// One plugin file as remembered: which version of it, and what loading it gave.
    struct Entry: Sendable {
        let identity: FileIdentity
        let contents: Result<PluginLibrary.Contents, PluginLoadFailure>
    }

    /// Why a cache file was not used.
    struct Unreadable: Error {
        let reason: String
    }

    /// The file's bytes for `entries` (by real path) under `key`.
    static func encode(key: String, entries: [String: Entry]) -> [UInt8] {
        var body = "K\t\(escaped(key))\n"
        for (file, entry) in entries.sorted(by: { $0.key < $1.key }) {
            body += "F\t\(escaped(file))\t\(entry.identity.text)\n"
            switch entry.contents {
            case .failure(let failure):
                body += "X\t\(json(failure))\n"
            case .success(let results):
                for (index, result) in results.enumerated() {
                    switch result {
                    case .success(let plugin): body += presenterLine(index, plugin)
                    case .failure(let failure): body += "D\t\(index)\t\(json(failure))\n"
                    }
                }
            }
        }
        let bytes = Array(body.utf8)
        return Array((magic + hex(checksum(bytes[...])) + "\n").utf8) + bytes
    }

    /// The entries of the cache file `bytes`, which must have been written
    /// under `key`.
    static func decode(_ bytes: [UInt8], key: String) throws(Unreadable) -> [String: Entry] {
        guard let newline = bytes.firstIndex(of: 0x0a) else { throw Unreadable(reason: "empty or truncated") }
        let header = String(decoding: bytes[..<newline], as: UTF8.self)
        guard header.hasPrefix("presenter-host registry cache ") else { throw Unreadable(reason: "not a registry cache") }
        guard header.hasPrefix(magic) else { throw Unreadable(reason: "written by another version") }
        let body = bytes[(newline + 1)...]
        guard header.dropFirst(magic.count) == hex(checksum(body)) else { throw Unreadable(reason: "corrupt (checksum)") }
        // Split as bytes: as Characters, a "\r" in a path would swallow the "\n" after it.
        let lines = body.split(separator: 0x0a, omittingEmptySubsequences: false)
        func fields(_ line: ArraySlice<UInt8>) -> [Substring] {
            line.split(separator: 0x09, omittingEmptySubsequences: false).map { Substring(String(decoding: $0, as: UTF8.self)) }
        }
        guard let first = lines.first, fields(first) == ["K", Substring(escaped(key))] else {
            throw Unreadable(reason: "made for another host binary, ABI or search path")
        }
        var entries: [String: Entry] = [:]
        var index = 1
        while index < lines.count, !lines[index].isEmpty {
            let header = fields(lines[index])
            guard header.count == 3, header[0] == "F", let identity = identity(header[2]) else { throw corrupt }
            let file = unescaped(header[1])
            index += 1
            var results: PluginLibrary.Contents = []
            var failure: PluginLoadFailure?
            while index < lines.count, let kind = lines[index].first, kind != UInt8(ascii: "F") {
                let fields = fields(lines[index])
                switch (fields[0], fields.count) {
                case ("X", 2) where results.isEmpty && failure == nil:
                    failure = try decodeFailure(fields[1])
                case ("D", 3) where failure == nil && Int(fields[1]) == results.count:
                    results.append(.failure(try decodeFailure(fields[2])))
                case ("P", 12) where failure == nil && Int(fields[1]) == results.count:
                    results.append(.success(try presenter(fields, file: file)))
                default:
                    throw corrupt
                }
                index += 1
            }
            guard failure != nil || !results.isEmpty else { throw corrupt }
            entries[file] = Entry(identity: identity, contents: failure.map { .failure($0) } ?? .success(results))
        }
        guard index == lines.count - 1 else { throw corrupt }
        return entries
    }

    // MARK: - Lines

    private static var corrupt: Unreadable { Unreadable(reason: "corrupt") }

    private static func presenterLine(_ index: Int, _ plugin: PresenterPlugin) -> String {
        let fields = [String(index), plugin.id, plugin.name, plugin.version, plugin.description ?? absent,
                      plugin.author ?? absent, plugin.license ?? absent, plugin.extends ?? absent,
                      String(plugin.capabilities.rawValue), "\(plugin.abiVersion.major).\(plugin.abiVersion.minor)",
                      plugin.hookNames.joined(separator: ",")]
        return "P\t" + fields.joined(separator: "\t") + "\n"
    }

    private static func presenter(_ fields: [Substring], file: String) throws(Unreadable) -> PresenterPlugin {
        func optional(_ field: Substring) -> String? { field == absent ? nil : String(field) }
        let abi = fields[10].split(separator: ".")
        guard let capabilities = UInt64(fields[9]), abi.count == 2,
              let major = UInt16(abi[0]), let minor = UInt16(abi[1]) else { throw corrupt }
        return PresenterPlugin(
            id: String(fields[2]), name: String(fields[3]), version: String(fields[4]),
            description: optional(fields[5]), author: optional(fields[6]), license: optional(fields[7]),
            extends: optional(fields[8]), capabilities: .init(rawValue: capabilities),
            abiVersion: ABIVersion(major: major, minor: minor), file: file,
            hookNames: fields[11].split(separator: ",").map(String.init))
    }

    private static func identity(_ field: Substring) -> FileIdentity? {
        let numbers = field.split(separator: " ")
        guard numbers.count == 5, let device = UInt64(numbers[0]), let inode = UInt64(numbers[1]),
              let size = Int64(numbers[2]), let modified = Int64(numbers[3]), let changed = Int64(numbers[4])
        else { return nil }
        return FileIdentity(device: device, inode: inode, size: size, modified: modified, changed: changed)
    }

    private static func json(_ failure: PluginLoadFailure) -> String {
        // A Codable enum of strings and numbers: encoding cannot fail. JSON
        // escapes control characters, so the text holds no tab or newline.
        String(decoding: try! JSONEncoder().encode(failure), as: UTF8.self)
    }

    private static func decodeFailure(_ field: Substring) throws(Unreadable) -> PluginLoadFailure {
        guard let failure = try? JSONDecoder().decode(PluginLoadFailure.self, from: Data(field.utf8)) else { throw corrupt }
        return failure
    }

    // MARK: - Text

    /// `\` as `\\`, tab as `\t`, newline as `\n`.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5c || $0 == 0x09 || $0 == 0x0a }) else { return text }
        return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func unescaped(_ text: Substring) -> String {
        guard text.contains("\\") else { return String(text) }
        var result = "", escaping = false
        for character in text.unicodeScalars {
            if escaping {
                result.unicodeScalars.append(character == "t" ? "\t" : character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// FNV-1a, 64 bits.
    private static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
