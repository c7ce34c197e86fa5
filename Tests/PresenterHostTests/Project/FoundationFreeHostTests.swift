import Foundation
import Testing

/// The host starts without Foundation (issue 33): FoundationEssentials
/// cost some 1 ms and 3 MiB a process, for a URL parser and a JSON coder
/// the host now has of its own. Only presenter-host-fetch, a process of
/// its own for networking, imports Foundation.
@Suite("The host links no Foundation")
struct FoundationFreeHostTests {
    /// The host's modules and executables: every folder of Sources/ named
    /// Host… or presenter-host…, but the fetcher.
    static var hostFolders: [URL] {
        get throws {
            let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
            return try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
                .filter { ($0.hasPrefix("Host") || $0.hasPrefix("presenter-host")) && $0 != "presenter-host-fetch" }
                .map { sources.appendingPathComponent($0) }
        }
    }

    @Test func noHostModuleImportsFoundation() throws {
        let folders = try Self.hostFolders
        #expect(folders.count >= 9, "\(folders.map(\.lastPathComponent))")
        var imports: [String] = []
        for folder in folders {
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n")
                where line.range(of: #"^\s*(@\w+\s+)*import\s+(\w+\s+)?Foundation"#, options: .regularExpression) != nil
                {
                    imports.append("\(folder.lastPathComponent)/\(file): \(line)")
                }
            }
        }
        #expect(imports.isEmpty, "give the host a few lines of its own instead: \(imports)")
    }

    /// The binary itself: no Foundation library needed, and no symbol of
    /// FoundationEssentials in it (linked statically, a module would leave
    /// no NEEDED entry, but its symbols).
    @Test func thePresenterHostBinaryHasNoFoundation() throws {
        let binary = TestPaths.binary.path
        let needed = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", binary])
        #expect(needed.status == 0 && needed.stdout.contains("(NEEDED)"), "\(needed.stderr)")
        let libraries = needed.stdout.split(separator: "\n").filter {
            $0.contains("(NEEDED)") && $0.contains("Foundation")
        }
        #expect(libraries.isEmpty, "\(libraries)")
        for flags in [[], ["-D"]] {
            let symbols = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/nm"), flags + [binary])
            #expect(symbols.status == 0 && !symbols.stdout.isEmpty, "\(symbols.stderr)")
            // A Swift symbol names its module by length and name: "20FoundationEssentials", "10Foundation".
            let foundation = symbols.stdout.split(separator: "\n").filter {
                $0.range(of: #"[0-9]{2}Foundation"#, options: .regularExpression) != nil
            }
            #expect(foundation.isEmpty, "nm \(flags) \(binary): \(foundation.prefix(5))")
        }
    }
}
