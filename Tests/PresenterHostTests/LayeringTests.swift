import Foundation
import Testing
@testable import PresenterHost

/// `scripts/layers`: the folders of Sources/PresenterHost flow one way
/// (discovery → loading → registry); code in a folder never names what a
/// later folder declares, and the foundation below them (Process/, Text/)
/// names none of them. Run on the real tree, and on a small tree whose
/// three violations it must find, and nothing else.
@Suite struct LayeringTests {
    private let script = TestPaths.packageRoot.appendingPathComponent("scripts/layers")

    @Test func theSourcesFlowOneWay() throws {
        let result = try ProcessRunner.run(script, [])
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test func aLowerFolderNamingAHigherFoldersTypeFails() throws {
        let root = TestPaths.temporaryDirectory("layers")
        let files = [
            "Process/Write.swift": "func writeAll() {}\nfunc found() -> Found? { nil }\n",
            "Discovery/Found.swift": """
            /// Not `Loaded`: a comment may name a later layer.
            struct Found {
                let label = "Loaded"  // nor does a string's text count
                func write() { writeAll() }  // the foundation is below every layer
                func up() -> String { "\\(Loaded.self)" }  // an interpolation is code
            }

            """,
            "Loading/Loaded.swift": "struct Loaded {\n    let found: Found\n}\n",
            "Registry/Catalog.swift": "struct Catalog {\n    let loaded: Loaded\n    let thing: Thing\n}\n",
            "Runtime/Thing.swift": "struct Thing {}\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let result = try ProcessRunner.run(script, ["--root", root.path])
        let errors = result.stderr.split(separator: "\n")
        #expect(result.status == 1)
        #expect(errors.count == 3, "\(result.stderr)")
        #expect(errors.first?.hasPrefix("Error: Process/Write.swift:2: Process/ names Found from Discovery/") == true)
        #expect(
            errors.dropFirst().first?.hasPrefix("Error: Discovery/Found.swift:5: Discovery/ names Loaded from Loading/")
                == true)
        #expect(errors.last?.hasPrefix("Error: Registry/Catalog.swift:3: Registry/ names Thing from Runtime/") == true)
    }
}
