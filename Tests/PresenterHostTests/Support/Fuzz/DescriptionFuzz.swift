// The fuzz target for a plugin's description (`scripts/fuzz --target
// description`): the input is the bytes of one PT_NOTE segment, as
// PluginDescription reads them from a file (the host's byte order), read
// twice: as a segment aligned to 4 bytes and as one aligned to 8 (GNU
// property notes). Oracles: every presenter it accepts passes the descriptor's
// rules (an id of the id rule, texts without a control or bidirectional
// character, at most 256 presenters, indices 0 to n-1), and every refusal
// is one line without a control character.

import Foundation
#if !PRESENTER_FUZZ
    @testable import HostPlugins
    @testable import HostText
#endif

enum DescriptionFuzz {
    static func run(_ input: [UInt8]) {
        run(input, alignment: 4)
        run(input, alignment: 8)
    }

    private static func run(_ input: [UInt8], alignment: UInt64) {
        let description: PluginDescription?
        do throws(PluginLoadFailure) {
            description = try PluginDescription.parse(
                segments: [(input, alignment)], bigEndian: false, path: "/fuzz/lib.so")
        } catch {
            fuzzCheckOneLine(error.description, "a refused description")
            return
        }
        guard let description else { return }
        guard (1...256).contains(description.contents.count) else {
            fuzzFailure("a description of \(description.contents.count) presenters was accepted")
        }
        for result in description.contents {
            switch result {
            case .failure(let failure):
                fuzzCheckOneLine(failure.description, "a refused note")
            case .success(let plugin):
                let idRule = plugin.id.utf8.allSatisfy { byte in
                    (0x61...0x7a).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2e || byte == 0x5f
                        || byte == 0x2d
                }
                guard idRule, (1...64).contains(plugin.id.utf8.count) else {
                    fuzzFailure("the id \(plugin.id.debugDescription) was accepted")
                }
                let texts =
                    [plugin.name, plugin.version]
                    + [plugin.description, plugin.author, plugin.license].compactMap { $0 }
                for text in texts where text.unicodeScalars.contains(where: ControlCharacters.all.matches) {
                    fuzzFailure("the text \(text.debugDescription) was accepted")
                }
            }
        }
    }
}

// MARK: - Seeds

extension DescriptionFuzz {
    /// One description note holding `entries` (`key=value` each).
    /// With `alignment` 8, the name and the text are padded as the gABI
    /// pads them in a segment aligned to 8: the text starts at the next
    /// multiple of 8 after the name, and so does the next note.
    static func note(_ entries: [String], name: String = "presenter", type: UInt32 = 1, alignment: Int = 4)
        -> [UInt8]
    {
        func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func padded(_ bytes: [UInt8]) -> [UInt8] {
            bytes + [UInt8](repeating: 0, count: (alignment - bytes.count % alignment) % alignment)
        }
        let owner: [UInt8] = Array(name.utf8) + [0]
        let text: [UInt8] = entries.flatMap { (entry: String) -> [UInt8] in Array(entry.utf8) + [0] }
        let header: [UInt8] = le(owner.count) + le(text.count) + le(Int(type))
        return padded(header + owner) + padded(text)
    }

    static func presenter(_ index: Int, _ id: String, extra: [String] = []) -> [UInt8] {
        note(["abi=\(ABIVersion.host)", "index=\(index)", "id=\(id)", "name=Name \(index)", "version=1.0"] + extra)
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let full = [
            "description=One line", "author=Someone", "license=MIT", "extends=mbhud",
            "capabilities=messages,determinate", "hooks=create,destroy,show,hide,progress,render,key",
        ]
        return [
            ("one", presenter(0, "one", extra: full)),
            ("two", presenter(1, "second") + presenter(0, "first")),
            ("gnu-then-ours", note(["\u{4}"], name: "GNU", type: 3) + presenter(0, "after-gnu")),
            (
                "escape-in-name",
                note(["abi=\(ABIVersion.host)", "index=0", "id=esc", "name=a\u{1b}]2;x\u{7}", "version=1"])
            ),
            ("bad-id", note(["abi=\(ABIVersion.host)", "index=0", "id=$(id)", "name=n", "version=1"])),
            ("duplicate-index", presenter(0, "a") + presenter(0, "b")),
            ("gap", presenter(0, "a") + presenter(2, "c")),
            ("unknown-key", presenter(0, "a", extra: ["colour=red"])),
            ("old-abi", note(["abi=1.2", "index=0", "id=old", "name=n", "version=1"])),
            ("truncated", Array(presenter(0, "cut").dropLast(7))),
            ("huge-size", [10, 0, 0, 0, 255, 255, 255, 255, 1, 0, 0, 0] + Array("presenter\0\0\0".utf8)),
            (
                "gnu-property-then-ours-8",
                note(
                    ["\u{2}\u{0}\u{0}\u{c0}\u{4}\u{0}\u{0}\u{0}\u{3}\u{0}\u{0}\u{0}"], name: "GNU", type: 5,
                    alignment: 8)
                    + note(["abi=\(ABIVersion.host)", "index=0", "id=eight", "name=N", "version=1"], alignment: 8)
            ),
        ]
    }
}
