// The fuzz target for the scan protocol (`scripts/fuzz --target scan`): the
// input is what a scan helper wrote on its report channel about three
// files, cut into lines as ScanProcess cuts them (at '\n'; a tail without
// one only when longer than ScanProtocol.maxLineBytes), and read by
// ScanReader as PluginScanner reads them, up to the first line it refuses:
// the header, then each file's `begin`, `result` records (LoadRecords)
// and `done`.
// Checked on every input: a line that parses has a text that parses back
// to the same line; what a file's records gave, sent again as the records
// a helper makes of it (LoadRecords.lines), gives the same; its
// presenters name the file by its path and are not marked cached.

#if !PRESENTER_FUZZ
    @testable import HostPlugins
#endif

enum ScanFuzz {
    static let paths = ["/plugins/lib0.so", "/plugins/lib1.so", "/plugins/lib2.so"]

    static func run(_ input: [UInt8]) {
        var reader = ScanReader(paths: paths)
        var reading = true
        var rest = input[...]
        while let end = rest.firstIndex(of: UInt8(ascii: "\n"))
            ?? (rest.count > ScanProtocol.maxLineBytes ? rest.endIndex : nil)
        {
            let text = fuzzText(rest[..<end])
            rest = rest[min(rest.endIndex, end + 1)...]
            if let line = ScanProtocol.Line(Substring(text)), ScanProtocol.Line(Substring(line.text)) != line {
                fuzzFailure(
                    "\(text.debugDescription) parsed as \(line), whose text \(line.text.debugDescription) does not")
            }
            guard reading else { continue }
            switch reader.read(Substring(text)) {
            case .more: break
            case .broken: reading = false
            case .loaded(let index, let contents): check(contents, of: index)
            }
        }
    }

    private static func check(_ contents: PluginLibrary.Outcome, of index: Int) {
        let records = LoadRecords.lines(contents).map { LoadRecords.fields($0.utf8) }
        guard (try? LoadRecords.outcome(records, file: paths[index], cached: false)) == contents else {
            fuzzFailure("file \(index) gave \(contents), whose records \(records) give otherwise")
        }
        guard case .success(let results) = contents else { return }
        for case .success(let plugin) in results where plugin.file != paths[index] || plugin.cached {
            fuzzFailure("file \(index) (\(paths[index])) gave \(plugin)")
        }
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        func stream(_ lines: [ScanProtocol.Line]) -> [UInt8] { Array(lines.map { $0.text + "\n" }.joined().utf8) }
        // What ScanHelper sends about a file: its records, then done.
        func file(_ index: Int, _ contents: PluginLibrary.Outcome) -> [ScanProtocol.Line] {
            [.begin(index)] + LoadRecords.lines(contents).map { .result(index, $0) } + [.done(index)]
        }
        let header = ScanProtocol.Line.header(version: ScanProtocol.version)
        let records = RegistryCacheFuzz.contents
        return [
            ("session", stream([header] + file(0, records[0]) + file(1, records[1]) + file(2, records[2]))),
            ("killed", stream([header] + file(0, records[3]) + [.begin(1), .result(1, "P\t0")])),
            ("failures", stream([header] + file(0, records[4]) + file(1, records[5]))),
            ("other-version", stream([.header(version: 1), .begin(0), .done(0)])),
            (
                "noise",
                Array(
                    "presenter-host-scan 3\nsandbox seccomp on x\nbegin -1\ndone 18446744073709551616\nbegin  2\nresult 0 \n\r\n"
                        .utf8)
            ),
            ("long", Array(String(repeating: "begin 1", count: 60).utf8)),
        ]
    }
}
