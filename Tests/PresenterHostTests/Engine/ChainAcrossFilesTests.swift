import Foundation
import Testing

/// A chain whose presenters sit in two files, its top in the file of its
/// bottom: the presenter process numbers what a `load` asks for in the
/// message's order (file by file), and the host must name the same
/// presenters by the same handles in `attach`, or the chain is built
/// with its bases swapped (protocol 4). In a terminal, where the presenter
/// runs (plain mode runs none).
@Suite("a chain across files")
struct ChainAcrossFilesTests {
    @Test(arguments: [false, true])
    func eachBaseIsTheOneItExtends(inProcess: Bool) throws {
        let plugins = try FixtureBuilder.directory([.chainOne, .chainTwo])
        let result = try ProcessRunner.hostInTerminal(
            ["--plugin-dir", plugins.path, "--no-cache", "run", "-v", "--presenter", "fixture.chain-c"]
                + (inProcess ? ["--in-process"] : []) + ["--working", "Working", "--", "true"],
            environment: ["LANG": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        let shows = result.textLines.compactMap { line in
            line.range(of: "show in ").map { String(line[$0.upperBound...]) }
        }
        #expect(shows == ["fixture.chain-c", "fixture.chain-b", "fixture.chain-a"], "\(result.stderr)")
    }
}
