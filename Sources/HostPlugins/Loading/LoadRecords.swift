import HostSandbox
import HostText

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
/// (`DescriptorRules` refuses control characters) and an absent one is
/// written as U+0001. No line holds the file's path.
///
/// Records are read as input that plugin code may have written (a
/// constructor can reach the scan helper's report channel): every field of
/// a `P` record passes the rules of a descriptor read in place
/// (`DescriptorRules`), a refusal's texts hold no control or layout
/// character, a record is at most ``maxRecordBytes`` and a file has at most
/// `PluginLibrary.maxPresenters` of them. What the host writes always passes.
enum LoadRecords {
    private static let absent = "\u{1}"

    /// The longest record: one with every string at its limit is under
    /// 1.5 KiB, a refusal with every text at ``maxFailureTextBytes`` under 4 KiB.
    static let maxRecordBytes = 4096
    /// The longest text a refusal's record holds: a longer one (a
    /// dependency's name in `dlopen`'s message, a link's target) is cut.
    static let maxFailureTextBytes = 512

    /// Records that are not what the host's loader gives: which one (nil
    /// for the whole), and what is wrong.
    struct Invalid: Error, Equatable {
        let record: Int?
        let problem: PluginLoadFailure.ReportProblem

        /// The file's refusal for a scan helper's report of it.
        var failure: PluginLoadFailure { .untrustedReport(record: record, problem) }
    }

    /// The record lines (without newlines) of `outcome`.
    static func lines(_ outcome: PluginLibrary.Outcome) -> [String] {
        switch outcome {
        case .failure(let failure):
            return ["X\t\(json(printable(failure)))"]
        case .success(let results):
            return results.enumerated().map { index, result in
                switch result {
                case .success(let plugin): return presenterLine(index, plugin)
                case .failure(let failure): return "D\t\(index)\t\(json(printable(failure)))"
                }
            }
        }
    }

    /// What loading the file at the real path `file` gave, from its record
    /// lines (without newlines), each checked; its presenters are marked
    /// `cached` as said. Only the host finds how a scan helper ended (a
    /// crash, a timeout...): a record of one is refused unless `cached`.
    static func outcome(_ records: [ArraySlice<UInt8>], file: String, cached: Bool) throws(Invalid)
        -> PluginLibrary.Outcome
    {
        guard !records.isEmpty else { throw Invalid(record: nil, problem: .notTheProtocol) }
        guard records.count <= PluginLibrary.maxPresenters else {
            throw Invalid(record: nil, problem: .tooManyRecords(limit: PluginLibrary.maxPresenters))
        }
        var results: PluginLibrary.Contents = []
        results.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            do throws(PluginLoadFailure.ReportProblem) {
                guard record.count <= maxRecordBytes else { throw .lineTooLong(limit: maxRecordBytes) }
                let fields = Self.fields(record)
                switch (fields.first.map(text), fields.count) {
                case ("X", 2) where records.count == 1:
                    let failure = try decodeFailure(fields[1])
                    if case .descriptor = failure { throw .malformed }
                    try check(failure, cached: cached)
                    return .failure(failure)
                case ("D", 3) where number(fields[1]) == UInt64(index):
                    let failure = try decodeFailure(fields[2])
                    guard case .descriptor(let inner, let id, _) = failure,
                        inner == (records.count > 1 ? index : nil)
                    else { throw .malformed }
                    if let id { try field { () throws(PluginLoadFailure.DescriptorProblem) in try checkedId(id) } }
                    try check(failure, cached: cached)
                    results.append(.failure(failure))
                case ("P", 12) where number(fields[1]) == UInt64(index):
                    results.append(
                        .success(try presenter(fields, file: file, index: index, source: cached ? .cache : .scan)))
                default:
                    throw .malformed
                }
            } catch {
                throw Invalid(record: index, problem: error)
            }
        }
        return .success(results)
    }

    /// One line's fields (split at tabs).
    static func fields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        // A presenter's record has 12 fields: one allocation, not five as it grows.
        var fields: [ArraySlice<UInt8>] = []
        fields.reserveCapacity(12)
        var start = line.startIndex
        while let tab = line[start...].firstIndex(of: 0x09) {
            fields.append(line[start..<tab])
            start = tab + 1
        }
        fields.append(line[start...])
        return fields
    }

    // MARK: - Presenters

    private static func presenterLine(_ index: Int, _ plugin: PresenterPlugin) -> String {
        let fields = [
            String(index), plugin.id, plugin.name, plugin.version, plugin.description ?? absent,
            plugin.author ?? absent, plugin.license ?? absent, plugin.extends ?? absent,
            String(plugin.capabilities.rawValue), "\(plugin.abiVersion.major).\(plugin.abiVersion.minor)",
            plugin.hookNames.joined(separator: ","),
        ]
        return "P\t" + fields.joined(separator: "\t")
    }

    /// A presenter's record, its fields checked by the descriptor's rules
    /// (the rule of a field the record leaves absent is that of a NULL).
    private static func presenter(
        _ fields: [ArraySlice<UInt8>], file: String, index: Int, source: PresenterPlugin.Source
    )
        throws(PluginLoadFailure.ReportProblem) -> PresenterPlugin
    {
        typealias Limit = DescriptorRules.Limit
        func optional(_ index: Int, _ name: String, limit: Int) throws(PluginLoadFailure.ReportProblem) -> String? {
            if fields[index].elementsEqual(absent.utf8) { return nil }
            return try field { () throws(PluginLoadFailure.DescriptorProblem) in
                try DescriptorRules.text(fields[index], field: name, limit: limit)
            }
        }
        func required(_ index: Int, _ name: String, limit: Int) throws(PluginLoadFailure.ReportProblem) -> String {
            try field { () throws(PluginLoadFailure.DescriptorProblem) in
                try DescriptorRules.requiredText(fields[index], field: name, limit: limit)
            }
        }
        let id = try required(2, "id", limit: Limit.id)
        try field { () throws(PluginLoadFailure.DescriptorProblem) in try DescriptorRules.checkId(id, field: "id") }
        let name = try required(3, "name", limit: Limit.name)
        let version = try required(4, "version", limit: Limit.version)
        let description = try optional(5, "description", limit: Limit.description)
        let author = try optional(6, "author", limit: Limit.author)
        let license = try optional(7, "license", limit: Limit.license)
        let extends = try optional(8, "extends", limit: Limit.id)
        if let extends {
            try field { () throws(PluginLoadFailure.DescriptorProblem) in
                try DescriptorRules.checkId(extends, field: "extends")
            }
        }
        // Any bits: the host ignores those it does not know (`--list` shows them in hex).
        guard let capabilities = number(fields[9], digits: 20) else { throw .malformed }
        let abiParts = fields[10].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard abiParts.count == 2, let major = number(abiParts[0], digits: 5).flatMap(UInt16.init(exactly:)),
            let minor = number(abiParts[1], digits: 5).flatMap(UInt16.init(exactly:))
        else { throw .malformed }
        let abi = ABIVersion(major: major, minor: minor)
        try field { () throws(PluginLoadFailure.DescriptorProblem) in try DescriptorRules.checkABI(abi) }
        let hookNames =
            fields[11].isEmpty
            ? [] : fields[11].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(text)
        guard DescriptorRules.areHookNames(hookNames) else { throw .hooks }
        return PresenterPlugin(
            id: id, name: name, version: version, description: description, author: author, license: license,
            extends: extends, capabilities: .init(rawValue: capabilities), abiVersion: abi, file: file, index: index,
            hookNames: hookNames, source: source)
    }

    /// A descriptor rule's verdict, as a record's problem.
    private static func field<T>(_ rule: () throws(PluginLoadFailure.DescriptorProblem) -> T)
        throws(PluginLoadFailure.ReportProblem) -> T
    {
        do throws(PluginLoadFailure.DescriptorProblem) {
            return try rule()
        } catch {
            throw .field(error)
        }
    }

    /// `id` by the id's rules: its length, its characters.
    private static func checkedId(_ id: String) throws(PluginLoadFailure.DescriptorProblem) {
        _ = try DescriptorRules.requiredText(id.utf8, field: "id", limit: DescriptorRules.Limit.id)
        try DescriptorRules.checkId(id, field: "id")
    }

    /// A decimal number of 1 to `digits` ASCII digits, nothing else, that
    /// fits 64 bits (a record's index has at most 3 digits: 256 records).
    private static func number(_ bytes: ArraySlice<UInt8>, digits: Int = 3) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= digits else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflowed && !carried else { return nil }
            value = sum
        }
        return value
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - Refusals

    /// `failure` with the texts that come from outside the host (a loader's
    /// message, a link's target, an owner's name, a file's toolchain)
    /// escaped and cut to ``maxFailureTextBytes``: what the host writes
    /// passes the rule it reads by, and reads back as what it wrote.
    private static func printable(_ failure: PluginLoadFailure) -> PluginLoadFailure {
        func cut(_ text: String) -> String {
            let escaped = PrintableText.escaping(text)
            guard escaped.utf8.count > maxFailureTextBytes else { return escaped }
            var kept = String.UnicodeScalarView(), count = 0
            for scalar in escaped.unicodeScalars {
                count += UTF8.width(scalar)
                guard count <= maxFailureTextBytes - 3 else { break }
                kept.append(scalar)
            }
            return String(kept) + "…"
        }
        switch failure {
        case .dlopen(let message): return .dlopen(cut(message))
        case .otherSwiftToolchain(let plugin, let runtime, let swift):
            return .otherSwiftToolchain(plugin: cut(plugin), runtime: cut(runtime), swift: cut(swift))
        case .file(.danglingLink(let target)): return .file(.danglingLink(target: cut(target)))
        case .file(.linkOutsideDirectory(let target)): return .file(.linkOutsideDirectory(target: cut(target)))
        case .file(.unreadable(let reason)): return .file(.unreadable(cut(reason)))
        case .file(.insecure(.foreignOwner(let path, let isDirectory, let owner))):
            return .file(.insecure(.foreignOwner(path: cut(path), isDirectory: isDirectory, owner: cut(owner))))
        case .file(.insecure(.writable(let path, let isDirectory, let who, let mode))):
            return .file(.insecure(.writable(path: cut(path), isDirectory: isDirectory, who: who, mode: mode)))
        case .invalidDescription(let reason): return .invalidDescription(cut(reason))
        case .disagreesWithDescription(let index, let id, let field):
            return .disagreesWithDescription(index: index, id: id.map(cut), field: cut(field))
        default: return failure
        }
    }

    /// A refusal's rules: its texts are as the host writes them (escaped,
    /// cut), what the user reads of it holds no control or layout
    /// character, and a helper reports no finding of the host's.
    private static func check(_ failure: PluginLoadFailure, cached: Bool) throws(PluginLoadFailure.ReportProblem) {
        if !cached && failure.isHostFinding { throw .hostFinding }
        guard printable(failure) == failure else { throw .failureText }
        var texts = [failure.description]
        if case .stopped(let violation) = failure { texts.append(violation.call) }
        if texts.contains(where: { $0.unicodeScalars.contains(where: ControlCharacters.all.matches) }) {
            throw .failureText
        }
    }

    private static func json(_ failure: PluginLoadFailure) -> String {
        // A Codable enum of strings and numbers: encoding cannot fail; were
        // it to, `{}` is a record every reader refuses as malformed (the
        // cache entry is dropped and the file scanned again), not a crash.
        // JSON escapes control characters, so the text holds no tab or newline.
        // Sorted keys: the same outcome makes the same line (the
        // registry-cache fuzz target's oracle found a case's fields in
        // another order each write: Fixtures/fuzz/registry-cache/regression-json-key-order).
        (try? JSONCoding.encode(failure)) ?? "{}"
    }

    private static func decodeFailure(_ field: ArraySlice<UInt8>) throws(PluginLoadFailure.ReportProblem)
        -> PluginLoadFailure
    {
        guard let failure = try? JSONCoding.decode(PluginLoadFailure.self, from: Array(field)) else {
            throw .malformed
        }
        return failure
    }
}

extension PluginLoadFailure {
    /// This refusal of a whole file as one record (`X`), as a scan helper
    /// reports it: what the presenter process answers when a file it was
    /// passed does not load, so that its refusal crosses as data, not words.
    package var record: [UInt8] { Array(LoadRecords.lines(.failure(self))[0].utf8) }

    /// The refusal of a whole file that `record` holds, checked as a scan
    /// helper's report is (its texts as the host writes them, no finding
    /// only the host makes): it comes from a process plugin code ran in.
    package init(record: [UInt8]) throws(PluginLoadFailure.ReportProblem) {
        let outcome: PluginLibrary.Outcome
        do throws(LoadRecords.Invalid) {
            outcome = try LoadRecords.outcome([record[...]], file: "", cached: false)
        } catch {
            throw error.problem
        }
        guard case .failure(let failure) = outcome else { throw .malformed }
        self = failure
    }
}
