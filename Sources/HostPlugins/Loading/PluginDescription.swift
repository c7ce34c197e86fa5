import HostSystem
import PresenterABI

/// What a plugin file says it holds, read as data from the file itself: its
/// description notes (ABI 1.3, presenter_abi.h "The description"), one
/// ELF note per presenter in a `PT_NOTE` segment.
///
/// A file with a description is listed, cached and checked from it: no code
/// of it runs outside the sandboxed presenter process, and no scan helper is
/// needed. That process loads the file and refuses it when its live
/// descriptors disagree with the description (``PluginLibrary``). A file
/// without one is scanned as before.
///
/// Everything here is untrusted input: every size is bounded before it is
/// used (``maxNoteBytes``, ``maxTextBytes``, at most
/// ``PluginLibrary/maxPresenters`` notes), and every field passes the rules
/// of a descriptor read in place (``DescriptorRules``).
package struct PluginDescription: Sendable, Equatable {
    /// What each descriptor index holds, as described: a presenter (no
    /// hooks, not loaded) or why its note was refused.
    package let contents: PluginLibrary.Contents

    /// The owner name of a description note, NUL included (`PRESENTER_NOTE_NAME`).
    static let noteName = Array(PRESENTER_NOTE_NAME.utf8) + [0]
    /// `PRESENTER_NOTE_TYPE`.
    static let noteType = UInt64(PRESENTER_NOTE_TYPE)
    /// The most bytes of `PT_NOTE` segments read from one file: 256
    /// presenters with every field at its limit need about 400 KiB.
    static let maxNoteBytes = 1 << 20
    /// The longest text one note may hold: every key with its longest value
    /// is under 1.5 KiB.
    static let maxTextBytes = 4096
    /// `PT_NOTE`.
    private static let noteSegment: UInt64 = 4
    /// The first minor whose header can write a description.
    private static let firstMinor: UInt16 = 3

    /// The keys a note may hold, each at most once.
    enum Key: String, CaseIterable {
        case abi, index, id, name, version, description, author, license, extends, capabilities, hooks
    }

    /// The capability names of `capabilities`, and their bits.
    static let capabilityNames: [(name: String, bits: PresenterPlugin.Capabilities)] = [
        ("messages", .messages), ("determinate", .determinate), ("one-row", .oneRow),
    ]

    // MARK: - Reading a file

    /// The description of the checked file open at `fd` (its program
    /// headers `headers`), nil when it has none; throws why a description
    /// it has cannot be read.
    static func read(_ fd: FileDescriptor, headers: ELFPrecheck.ProgramHeaders, path: String)
        throws(PluginLoadFailure) -> PluginDescription?
    {
        var segments: [(bytes: [UInt8], alignment: UInt64)] = []
        var total: UInt64 = 0
        for index in 0..<headers.count where headers.type(index) == noteSegment {
            let size = headers.fileSize(index)
            total += size  // each lies inside the file (checked): no overflow
            guard total <= maxNoteBytes else {
                throw .invalidDescription("its note segments hold more than \(maxNoteBytes >> 10) KiB")
            }
            segments.append(
                (try ELFPrecheck.read(fd, offset: headers.offset(index), count: Int(size)), headers.alignment(index)))
        }
        return try parse(segments: segments, bigEndian: headers.bigEndian, path: path)
    }

    // MARK: - Parsing

    /// The description in `segments` (the bytes of each `PT_NOTE` segment
    /// and its `p_align`), nil when none of their notes is a description.
    package static func parse(segments: [(bytes: [UInt8], alignment: UInt64)], bigEndian: Bool, path: String)
        throws(PluginLoadFailure) -> PluginDescription?
    {
        var texts: [ArraySlice<UInt8>] = []
        for segment in segments {
            try notes(in: segment.bytes, alignment: segment.alignment, bigEndian: bigEndian, into: &texts)
        }
        guard !texts.isEmpty else { return nil }
        guard texts.count <= PluginLibrary.maxPresenters else {
            throw .tooManyPresenters(limit: PluginLibrary.maxPresenters)
        }
        var byIndex = [Result<PresenterPlugin, PluginLoadFailure>?](repeating: nil, count: texts.count)
        let numbered = texts.count > 1
        for (position, text) in texts.enumerated() {
            let entries = try Entries(text, note: position)
            guard let indexText = entries[.index], let index = Int(indexText), String(index) == indexText,
                (0..<texts.count).contains(index)
            else {
                throw .invalidDescription(
                    "note \(position) has no index from 0 to \(texts.count - 1) (one note per presenter, index=N)")
            }
            guard byIndex[index] == nil else { throw .invalidDescription("two notes have index \(index)") }
            do throws(PluginLoadFailure.DescriptorProblem) {
                byIndex[index] = .success(try entries.presenter(file: path, index: index))
            } catch {
                byIndex[index] = .failure(.descriptor(index: numbered ? index : nil, id: entries.validId, error))
            }
        }
        // As many notes as indices, none twice: every index has one.
        return PluginDescription(contents: byIndex.map { $0! })
    }

    /// Appends the text of every description note in one segment.
    private static func notes(
        in bytes: [UInt8], alignment: UInt64, bigEndian: Bool, into texts: inout [ArraySlice<UInt8>]
    ) throws(PluginLoadFailure) {
        // The gABI's layout: the name follows the 12-byte header, the text
        // starts at the next multiple of the segment's alignment (4, or 8
        // in a segment aligned to 8: GNU property notes), and so does the
        // next note. Offsets are from the segment's start, which is aligned.
        let align = alignment == 8 ? 8 : 4
        func padded(_ value: Int) -> Int { (value + align - 1) / align * align }
        var offset = 0
        while bytes.count - offset >= 12 {
            let nameSize = Int(ELFPrecheck.integer(bytes, at: offset, size: 4, bigEndian: bigEndian))
            let textSize = Int(ELFPrecheck.integer(bytes, at: offset + 4, size: 4, bigEndian: bigEndian))
            let type = ELFPrecheck.integer(bytes, at: offset + 8, size: 4, bigEndian: bigEndian)
            let nameStart = offset + 12
            // 32-bit sizes on a 64-bit Int: these sums cannot overflow.
            let textStart = padded(nameStart + nameSize)
            let textEnd = textStart + textSize
            let ours =
                type == noteType && nameSize == noteName.count && nameStart + nameSize <= bytes.count
                && bytes[nameStart..<nameStart + nameSize].elementsEqual(noteName)
            guard textEnd <= bytes.count else {
                // Another owner's note that does not fit says nothing of
                // ours, and nothing can be read after it: stop there.
                guard ours else { return }
                throw .invalidDescription("a note runs past the end of its segment; the file is corrupt, rebuild it")
            }
            if ours {
                guard textSize <= maxTextBytes else {
                    throw .invalidDescription("a description note holds more than \(maxTextBytes) bytes")
                }
                texts.append(bytes[textStart..<textEnd])
                guard texts.count <= PluginLibrary.maxPresenters else {
                    throw .tooManyPresenters(limit: PluginLibrary.maxPresenters)
                }
            }
            offset = min(padded(textEnd), bytes.count)
        }
    }

    /// One note's `key=value` entries.
    private struct Entries {
        /// Each value's bytes, as the note holds them.
        private var values: [Key: ArraySlice<UInt8>] = [:]

        /// Splits `text` at NULs; the first empty entry ends it, and only
        /// NULs may follow.
        init(_ text: ArraySlice<UInt8>, note: Int) throws(PluginLoadFailure) {
            var rest = text[...]
            var number = 0
            while let first = rest.first, first != 0 {
                guard let end = rest.firstIndex(of: 0) else {
                    throw .invalidDescription("note \(note) does not end with a NUL; use PRESENTER_FIELD entries")
                }
                let entry = rest[..<end]
                rest = rest[(end + 1)...]
                guard let equals = entry.firstIndex(of: UInt8(ascii: "=")),
                    let key = Key(rawValue: String(decoding: entry[..<equals], as: UTF8.self))
                else {
                    throw .invalidDescription(
                        "entry \(number) of note \(note) is not one of \(Key.allCases.map { "\($0.rawValue)=" }.joined(separator: ", "))"
                    )
                }
                guard values[key] == nil else { throw .invalidDescription("note \(note) gives \(key.rawValue) twice") }
                values[key] = entry[(equals + 1)...]
                number += 1
            }
            guard rest.allSatisfy({ $0 == 0 }) else {
                throw .invalidDescription("note \(note) has bytes after its last entry; use PRESENTER_FIELD entries")
            }
        }

        /// The value of `key` as text (host words only: abi, index).
        subscript(key: Key) -> String? {
            values[key].map { String(decoding: $0, as: UTF8.self) }
        }

        /// The id, when it passes the id rule: error messages name it.
        var validId: String? {
            guard let id = try? string(.id, limit: DescriptorRules.Limit.id, required: true),
                (try? DescriptorRules.checkId(id, field: "id")) != nil
            else { return nil }
            return id
        }

        /// The presenter these entries describe, the `index`th of `file`,
        /// checked by the descriptor's rules.
        func presenter(file: String, index: Int) throws(PluginLoadFailure.DescriptorProblem) -> PresenterPlugin {
            let abi = try self.abi()
            let id = try string(.id, limit: DescriptorRules.Limit.id, required: true)!
            try DescriptorRules.checkId(id, field: "id")
            let name = try string(.name, limit: DescriptorRules.Limit.name, required: true)!
            let version = try string(.version, limit: DescriptorRules.Limit.version, required: true)!
            let summary = try string(.description, limit: DescriptorRules.Limit.description)
            let author = try string(.author, limit: DescriptorRules.Limit.author)
            let license = try string(.license, limit: DescriptorRules.Limit.license)
            let extends = try string(.extends, limit: DescriptorRules.Limit.id)
            if let extends { try DescriptorRules.checkId(extends, field: "extends") }
            var capabilities: PresenterPlugin.Capabilities = []
            for name in try list(.capabilities) {
                guard let known = PluginDescription.capabilityNames.first(where: { $0.name == name }) else {
                    throw .unknownName(field: "capabilities", known: PluginDescription.capabilityNames.map(\.name))
                }
                capabilities.insert(known.bits)
            }
            let hooks = try list(.hooks)
            guard hooks.allSatisfy(DescriptorRules.hookNames.contains), Set(hooks).count == hooks.count else {
                throw .unknownName(field: "hooks", known: DescriptorRules.hookNames)
            }
            return PresenterPlugin(
                id: id, name: name, version: version, description: summary, author: author, license: license,
                extends: extends, capabilities: capabilities, abiVersion: abi, file: file, index: index,
                hookNames: DescriptorRules.hookNames.filter(hooks.contains), source: .description)
        }

        /// `abi=MAJOR.MINOR`, refused as a descriptor's would be.
        private func abi() throws(PluginLoadFailure.DescriptorProblem) -> ABIVersion {
            guard let text = self[.abi] else { throw .missingField("abi") }
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let major = UInt16(parts[0]), let minor = UInt16(parts[1]) else {
                throw .unknownName(field: "abi", known: ["\(ABIVersion.host)"])
            }
            let abi = ABIVersion(major: major, minor: minor)
            try DescriptorRules.checkABI(abi)
            guard minor >= PluginDescription.firstMinor else {
                throw .unknownName(field: "abi", known: ["\(ABIVersion.host)"])
            }
            return abi
        }

        /// A text field, by the rules of the descriptor's string fields; a
        /// required one that is missing or empty is refused as a NULL or
        /// empty field of a descriptor is.
        private func string(_ key: Key, limit: Int, required: Bool = false)
            throws(PluginLoadFailure.DescriptorProblem) -> String?
        {
            guard let value = values[key] else {
                if required { throw .missingField(key.rawValue) }
                return nil
            }
            return required
                ? try DescriptorRules.requiredText(value, field: key.rawValue, limit: limit)
                : try DescriptorRules.text(value, field: key.rawValue, limit: limit)
        }

        /// A comma-separated list of names (spaces allowed around them).
        private func list(_ key: Key) throws(PluginLoadFailure.DescriptorProblem) -> [String] {
            guard let text = try string(key, limit: 256) else { return [] }
            return text.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
        }
    }
}
