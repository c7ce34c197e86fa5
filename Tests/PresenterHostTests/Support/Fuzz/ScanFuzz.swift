// The fuzz target for the scan protocol (`scripts/fuzz --target scan`): the
// input is what a scan helper (or plugin code in it: a constructor can
// reach the report channel) wrote on its report channel about its one
// file, cut into lines as ScanProcess cuts them (at '\n', or after
// ScanProtocol.maxLineBytes + 1 bytes without one), and read by ScanReader
// as PluginScanner reads them, up to the line that ends the session: the
// header, the sandbox, `begin`, `result` records (LoadRecords) and `done`.
// Checked on every input: a line that parses has bytes that parse back to
// the same line; what the file gave, written again as the records a helper
// makes of it (LoadRecords.lines), reads back the same; its presenters name
// the file by its path, are not marked cached and pass the descriptor's
// rules (an id of [a-z0-9._-], no control or layout character in any text);
// a refusal's reason is one line without a control character.

#if !PRESENTER_FUZZ
    @testable import HostPlugins
    @testable import HostText
#endif

enum ScanFuzz {
    static let path = "/plugins/lib0.so"

    static func run(_ input: [UInt8]) {
        var reader = ScanReader(path: path)
        var rest = input[...]
        while true {
            let line: [UInt8]
            if let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                line = Array(rest[..<newline])
                rest = rest[(newline + 1)...]
            } else if rest.count > ScanProtocol.maxLineBytes {
                line = Array(rest.prefix(ScanProtocol.maxLineBytes + 1))
                rest = []
            } else {
                return  // the end, or a tail without its newline: the helper ended mid-line
            }
            if let parsed = ScanProtocol.Line(line[...]), ScanProtocol.Line(parsed.bytes[...]) != parsed {
                fuzzFailure("\(fuzzText(line).debugDescription) parsed as \(parsed), whose bytes do not")
            }
            switch reader.read(line[...]) {
            case .more: continue
            case .broken: return
            case .loaded(let contents):
                check(contents)
                return
            }
        }
    }

    private static func check(_ contents: PluginLibrary.Outcome) {
        let records = LoadRecords.lines(contents).map { Array($0.utf8)[...] }
        guard (try? LoadRecords.outcome(records, file: path, cached: false)) == contents else {
            fuzzFailure("the file gave \(contents), whose records \(records.map(fuzzText)) give otherwise")
        }
        checkRules(contents)
        guard case .success(let results) = contents else { return }
        for case .success(let plugin) in results where plugin.file != path || plugin.cached {
            fuzzFailure("the file (\(path)) gave \(plugin)")
        }
    }

    /// What a file gave passes the rules of a descriptor read in place: ids
    /// of [a-z0-9._-], no control or layout character in a presenter's
    /// texts, a refusal's reason one line.
    static func checkRules(_ contents: PluginLibrary.Outcome) {
        let results: PluginLibrary.Contents
        switch contents {
        case .failure(let failure):
            fuzzCheckOneLine(failure.description, "a refused file")
            return
        case .success(let all): results = all
        }
        for result in results {
            switch result {
            case .failure(let failure):
                fuzzCheckOneLine(failure.description, "a refused descriptor")
            case .success(let plugin):
                let texts =
                    [plugin.name, plugin.version]
                    + [plugin.description, plugin.author, plugin.license]
                    .compactMap { $0 }
                if texts.contains(where: { $0.unicodeScalars.contains(where: ControlCharacters.all.matches) }) {
                    fuzzFailure("a presenter with a control or layout character: \(plugin)")
                }
                for id in [plugin.id] + [plugin.extends].compactMap({ $0 })
                where id.isEmpty || id.utf8.count > 64 || !id.utf8.allSatisfy(isIdByte) {
                    fuzzFailure("a presenter with the id \(id.debugDescription): \(plugin)")
                }
            }
        }
    }

    private static func isIdByte(_ byte: UInt8) -> Bool {
        (0x61...0x7a).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2e || byte == 0x5f || byte == 0x2d
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        func stream(_ lines: [ScanProtocol.Line]) -> [UInt8] { lines.flatMap { $0.bytes + [0x0a] } }
        func raw(_ lines: [String]) -> ScanProtocol.Line { .result(Array(lines.joined(separator: "\t").utf8)[...]) }
        // What ScanHelper sends about its file: the header, then begin, its records and done.
        func file(_ contents: PluginLibrary.Outcome) -> [ScanProtocol.Line] {
            [header, .begin] + LoadRecords.lines(contents).map { .result(Array($0.utf8)[...]) } + [.done]
        }
        let header = ScanProtocol.Line.header(version: ScanProtocol.version)
        let records = RegistryCacheFuzz.contents
        let presenter = [
            "P", "0", "forger.self", "Name", "1.0", "\u{1}", "\u{1}", "\u{1}", "\u{1}", "3", "1.2", "show",
        ]
        func forged(_ index: Int, _ value: String) -> ScanProtocol.Line {
            var fields = presenter
            fields[index] = value
            return raw(fields)
        }
        let hostile = "\u{1B}]0;title\u{07}\u{1B}[2J\u{202E}\u{9B}x"
        return [
            ("session", stream(file(records[0]))),
            ("crashed", stream(file(records[1]))),
            ("failure", stream(file(records[4]))),
            ("killed", stream([header, .begin, .result(Array("P\t0".utf8)[...])])),
            ("other-version", stream([.header(version: 3), .begin, .done])),
            ("forged-id", stream([header, .begin, forged(2, "$(id>/tmp/x)"), .done])),
            ("forged-text", stream([header, .begin] + (3...8).map { forged($0, hostile) } + [.done])),
            ("forged-abi", stream([header, .begin, forged(10, "2.0"), .done])),
            ("forged-hooks", stream([header, .begin, forged(11, "render,show,exec"), .done])),
            (
                "forged-failure",
                stream([header, .begin, raw(["X", #"{"dlopen":{"_0":"\u001b]52;c;eA==\u0007"}}"#]), .done])
            ),
            ("next-file", Array("presenter-host-scan 4\nbegin\ndone\nbegin 1\nresult 1 P\t0\tx\ndone 1\n".utf8)),
            ("too-many", stream([header, .begin] + Array(repeating: raw(presenter), count: 257) + [.done])),
            ("long", stream([header, .begin]) + Array(repeating: UInt8(ascii: "x"), count: 70_000)),
            (
                "noise",
                Array(
                    "presenter-host-scan 4\nsandbox seccomp on x\nbegin -1\ndone 18446744073709551616\nbegin  2\nresult \n\r\n"
                        .utf8)
            ),
        ]
    }
}
