import Foundation
import Glibc
import Testing
@testable import HostPlugins

/// The ABI header as a contract: it compiles as strict C11 and as C++17, and
/// its comments state the limits the loader enforces.
@Suite struct LoaderHeaderTests {
    private var header: URL { TestPaths.abiInclude.appendingPathComponent("presenter_abi.h") }

    /// Compiles a file that includes only the header, with every warning an error.
    @Test(arguments: [("cc", "c", ["-std=c11"]), ("c++", "cpp", ["-std=c++17"])])
    func theHeaderCompilesCleanly(compiler: String, suffix: String, standard: [String]) throws {
        let source = TestPaths.temporaryDirectory("header").appendingPathComponent("include_only.\(suffix)")
        // NULL too: the entry point returns it, so the header brings its definition.
        try """
        #include "presenter_abi.h"
        const presenter_descriptor *f(presenter_descriptor_fn fn) { return fn(0) ? fn(0) : NULL; }

        """.write(to: source, atomically: true, encoding: .utf8)
        let arguments =
            [compiler] + standard + [
                "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only",
                "-I", TestPaths.abiInclude.path, source.path,
            ]
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        #expect(result.status == 0, "\(arguments.joined(separator: " ")):\n\(result.stderr)")
    }

    /// A plugin author reads the limits in the header; they must be the ones enforced.
    @Test func theHeaderStatesEveryLimitTheLoaderEnforces() throws {
        let text = try String(contentsOf: header, encoding: .utf8)
        let limits = DescriptorRules.Limit.self
        for (field, bytes) in [
            ("name", limits.name), ("version", limits.version), ("description", limits.description),
            ("author", limits.author), ("license", limits.license),
        ] {
            let comment = try #require(self.comment(before: "const char *\(field);", in: text))
            #expect(comment.contains("at most \(bytes) bytes"), "\(field): \(comment)")
        }
        #expect(text.contains("#define PRESENTER_ID_MAX \(PluginLoadFailure.idMaxBytes)"))
        #expect(
            try #require(comment(before: "uint32_t struct_size;\n    /** MUST be PRESENTER_ABI_MAJOR", in: text))
                .contains("over \(DescriptorReader.maximumSize / 1024) KiB"))
        let prose = words(text)
        for rule in [
            "valid UTF-8", "without control characters", "bidirectional formatting characters", "U+202A to U+202E",
            "U+2066 to U+2069", "ignores the ones it does not know", "MAY call it from any thread",
            "in a helper process",
        ] {
            #expect(prose.contains(rule), "the header does not say: \(rule)")
        }
    }

    /// docs/ABI.md's validation table quotes the loader's reasons: each
    /// sample here must appear there verbatim, so the two cannot drift apart.
    @Test func theABIDocumentQuotesTheRealReasons() throws {
        let document = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/ABI.md"), encoding: .utf8)
        let descriptor = PluginLoadFailure.DescriptorProblem.self
        let discovery: [DiscoveryFailure] = [
            .unreadable("Permission denied"), .danglingLink(target: "TARGET"), .symlinkLoop, .nameNotUTF8, .missing,
        ]
        let loading: [PluginLoadFailure] = [
            .directory, .notRegularFile(kind: "a FIFO"), .empty, .notELF(looksLikeText: true),
            .notELF(looksLikeText: false), .notSharedObject(kind: "an executable"),
            .notSharedObject(kind: "an object file (.o)"), .wrongByteOrder(plugin: "big-endian", host: "little-endian"),
            .wrongMachine(plugin: "AArch64", host: "x86-64"),
            .dlopen("libfoo.so: cannot open shared object file: No such file or directory"),
            .crashed(signal: SIGSEGV), .exited(status: 3), .timedOut(seconds: 5),
            .noEntryPoint, .noPresenter, .tooManyPresenters(limit: PluginLibrary.maxPresenters),
            .descriptor(index: nil, id: nil, descriptor.abiMajor(plugin: ABIVersion(major: 2, minor: 0))),
            .descriptor(index: nil, id: "fancy", descriptor.abiNewerMinor(plugin: ABIVersion(major: 1, minor: 5))),
            .invalidDescription("two notes have index 0"),
            .descriptor(
                index: nil, id: "fancy",
                descriptor.unknownName(field: "capabilities", known: PluginDescription.capabilityNames.map(\.name))),
            .disagreesWithDescription(index: nil, id: "fancy", field: "name"),
            .descriptor(index: nil, id: nil, descriptor.tooSmall(size: 24, minimum: DescriptorReader.minimumSize)),
            .descriptor(index: nil, id: nil, descriptor.tooLarge(size: 100_000, limit: DescriptorReader.maximumSize)),
            .descriptor(index: nil, id: nil, descriptor.missingField("id")),
            .descriptor(index: nil, id: nil, descriptor.invalidId(field: "id", value: "'Fancy.HUD'")),
            .descriptor(index: nil, id: "fancy", descriptor.emptyField("name")),
            .descriptor(index: nil, id: "fancy", descriptor.invalidUTF8(field: "name")),
            .descriptor(index: nil, id: "fancy", descriptor.controlCharacter(field: "name")),
            .descriptor(index: nil, id: "fancy", descriptor.tooLong(field: "description", limit: 512)),
            .untrustedReport(record: 0, .field(descriptor.invalidId(field: "id", value: "'$(id>/tmp/x)'"))),
        ]
        let resolution: [ResolutionFailure] = [
            .shadowed(id: "mbhud", by: "/first/libMBHud.so"), .duplicateInLibrary(id: "fancy", index: 1, first: 0),
            .baseNotFound(id: "addbookmark", base: "mbhud"),
            .baseUnavailable(id: "c", base: "b", path: "/plugins/libb.so"),
            .extensionCycle(id: "a", cycle: ["a", "b", "a"]),
        ]
        for reason in discovery.map(\.description) + loading.map(\.description) + resolution.map(\.description) {
            #expect(document.contains("`\(reason)`"), "docs/ABI.md does not quote: \(reason)")
        }
    }

    /// The doc comment (`/** ... */`) right before `declaration`.
    private func comment(before declaration: String, in text: String) -> String? {
        guard let end = text.range(of: declaration)?.lowerBound,
            let start = text[..<end].range(of: "/**", options: .backwards)?.lowerBound
        else { return nil }
        return words(String(text[start..<end]))
    }

    /// The text with comment line prefixes (` * `) dropped and white space collapsed.
    private func words(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).filter { $0 != "*" }.joined(separator: " ")
    }
}
