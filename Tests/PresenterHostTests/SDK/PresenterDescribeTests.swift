import Foundation
import Testing

/// presenter-describe, the tool of the SDK's PresenterDescription build
/// plugin: a `.presenters` file becomes Swift that holds each presenter's
/// description note and its `PresenterInfo`; a mistake fails the build with
/// the file and line, as a compiler's error does.
@Suite struct PresenterDescribeTests {
    private static let tool = TestPaths.products.appendingPathComponent("presenter-describe")

    /// Runs the tool on `manifest`; its status, stderr and the Swift it wrote.
    private func describe(_ manifest: String) throws -> (status: Int32, stderr: String, swift: String) {
        let folder = TestPaths.temporaryDirectory("describe")
        let input = folder.appendingPathComponent("x.presenters")
        let output = folder.appendingPathComponent("PresenterDescription.swift")
        try manifest.write(to: input, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(Self.tool, [input.path, output.path])
        let swift = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (result.status, result.stderr.replacingOccurrences(of: input.path, with: "x.presenters"), swift)
    }

    @Test func eachSectionBecomesANoteAndAPresenterInfo() throws {
        let (status, stderr, swift) = try describe(
            """
            # two presenters
            [me.first-one]
            name = First "One"
            version = 1.0
            capabilities = determinate, messages
            hooks = render, show

            [second]
            name = Second
            version = 2.0
            extends = me.first-one
            """)
        #expect(status == 0, "\(stderr)")
        #expect(swift.contains("private let presenterDescriptionNote0:"))
        #expect(swift.contains("private let presenterDescriptionNote1:"))
        #expect(swift.contains(#"static let `meFirstOne` = PresenterInfo("#))
        #expect(swift.contains(#"id: "me.first-one", name: "First \"One\"", version: "1.0","#))
        #expect(swift.contains("capabilities: [.messages, .determinate],\n        hooks: [.show, .render])"))
        #expect(
            swift.contains(
                "extends: \"me.first-one\", capabilities: [],\n        hooks: [.show, .hide, .progress, .render, .key])"
            ))
        // The note's text, as bytes: abi, index, id, ..., and the SDK's create and destroy.
        let text = Array("abi=1.4\0index=0\0id=me.first-one\0name=First \"One\"\0version=1.0\0".utf8)
        #expect(swift.contains(text.map { "0x" + String($0, radix: 16) }.joined(separator: ", ")))
        let hooks = Array("hooks=create,destroy,show,render\0".utf8)
        #expect(swift.contains(hooks.map { "0x" + String($0, radix: 16) }.joined(separator: ", ")))
    }

    @Test(arguments: [
        (
            "[a]\nname = A\nversion = 1\ncolour = red\n",
            "x.presenters:4: error: 'colour' is not a key; use name, version"
        ),
        ("[a]\nversion = 1\n", "x.presenters:1: error: presenter 'a' has no name"),
        (
            "[Not An Id]\n",
            "x.presenters:1: error: the section's id must be 1 to 64 bytes of a-z, 0-9, '.', '_' and '-'"
        ),
        (
            "[a]\nname = A\u{1b}[2J\nversion = 1\n",
            "x.presenters:2: error: name holds a control or bidirectional formatting character"
        ),
        (
            "[a]\nname = A\u{202e}\nversion = 1\n",
            "x.presenters:2: error: name holds a control or bidirectional formatting character"
        ),
        (
            "[a]\nname = A\nversion = 1\nhooks = show, draw\n",
            "x.presenters:4: error: 'draw' is not one of the hooks: show, hide, progress, render, key"
        ),
        ("[a]\nname = A\nname = B\n", "x.presenters:3: error: name is given twice"),
        ("name = A\n", "x.presenters:1: error: comes before the first [id] line"),
        ("# nothing\n", "x.presenters:1: error: describes no presenter; add an [id] section"),
        (
            "[a]\nname = A\nversion = 1\n[a]\nname = B\nversion = 1\n",
            "x.presenters:4: error: presenter 'a' is described twice"
        ),
    ])
    func aMistakeFailsTheBuildWithItsLine(manifest: String, error: String) throws {
        let (status, stderr, _) = try describe(manifest)
        #expect(status == 1)
        #expect(stderr.hasPrefix(error), "\(stderr)")
        #expect(stderr.filter { $0 == "\n" }.count == 1, "one line: \(stderr)")
    }
}
