import Foundation
import PresenterABI
import Testing

/// ABI 1.0 is frozen: its layout, as literal numbers (so a reordered field
/// fails here as well as in the ABI target's _Static_asserts), and a plugin
/// built against the frozen copy of the 1.0 header
/// (Fixtures/abi-1.0/presenter_abi.h), which every later host must load and run.
@Suite struct ABIFrozenTests {
    private static let frozen = TestPaths.packageRoot.appendingPathComponent(
        "Tests/PresenterHostTests/Fixtures/abi-1.0")

    @Test func theDescriptorLayoutIsFrozen() {
        typealias D = presenter_descriptor
        #expect(MemoryLayout<D>.size == 128)
        #expect(MemoryLayout<D>.offset(of: \D.struct_size) == 0)
        #expect(MemoryLayout<D>.offset(of: \D.abi_major) == 4)
        #expect(MemoryLayout<D>.offset(of: \D.abi_minor) == 6)
        #expect(MemoryLayout<D>.offset(of: \D.id) == 8)
        #expect(MemoryLayout<D>.offset(of: \D.name) == 16)
        #expect(MemoryLayout<D>.offset(of: \D.version) == 24)
        #expect(MemoryLayout<D>.offset(of: \D.description) == 32)
        #expect(MemoryLayout<D>.offset(of: \D.author) == 40)
        #expect(MemoryLayout<D>.offset(of: \D.license) == 48)
        #expect(MemoryLayout<D>.offset(of: \D.extends) == 56)
        #expect(MemoryLayout<D>.offset(of: \D.capabilities) == 64)
        #expect(MemoryLayout<D>.offset(of: \D.create) == 72)
        #expect(MemoryLayout<D>.offset(of: \D.destroy) == 80)
        #expect(MemoryLayout<D>.offset(of: \D.show) == 88)
        #expect(MemoryLayout<D>.offset(of: \D.hide) == 96)
        #expect(MemoryLayout<D>.offset(of: \D.progress) == 104)
        #expect(MemoryLayout<D>.offset(of: \D.render) == 112)
        #expect(MemoryLayout<D>.offset(of: \D.key) == 120)
    }

    @Test func theHostTableLayoutIsFrozen() {
        typealias H = presenter_host
        #expect(MemoryLayout<H>.offset(of: \H.draw_cycle) == 136)  // Since 1.2.
        #expect(MemoryLayout<H>.size == 144)
        #expect(MemoryLayout<H>.offset(of: \H.struct_size) == 0)
        #expect(MemoryLayout<H>.offset(of: \H.abi_major) == 4)
        #expect(MemoryLayout<H>.offset(of: \H.abi_minor) == 6)
        #expect(MemoryLayout<H>.offset(of: \H.log) == 8)
        #expect(MemoryLayout<H>.offset(of: \H.set_error) == 16)
        #expect(MemoryLayout<H>.offset(of: \H.now_ns) == 24)
        #expect(MemoryLayout<H>.offset(of: \H.request_frame) == 32)
        #expect(MemoryLayout<H>.offset(of: \H.option) == 40)
        #expect(MemoryLayout<H>.offset(of: \H.base_show) == 48)
        #expect(MemoryLayout<H>.offset(of: \H.base_hide) == 56)
        #expect(MemoryLayout<H>.offset(of: \H.base_progress) == 64)
        #expect(MemoryLayout<H>.offset(of: \H.base_render) == 72)
        #expect(MemoryLayout<H>.offset(of: \H.base_key) == 80)
        #expect(MemoryLayout<H>.offset(of: \H.view_size) == 88)
        #expect(MemoryLayout<H>.offset(of: \H.view_flags) == 96)
        #expect(MemoryLayout<H>.offset(of: \H.text_width) == 104)
        #expect(MemoryLayout<H>.offset(of: \H.draw_text) == 112)
        #expect(MemoryLayout<H>.offset(of: \H.draw_box) == 120)
        #expect(MemoryLayout<H>.offset(of: \H.element) == 128)
    }

    @Test func theInteractorAndFailureLayoutsAreFrozen() {
        typealias I = presenter_interactor
        #expect(MemoryLayout<I>.offset(of: \I.message) == 40)  // Since 1.1.
        #expect(MemoryLayout<I>.offset(of: \I.started_ns) == 48)  // Since 1.4.
        #expect(MemoryLayout<I>.offset(of: \I.done) == 56)
        #expect(MemoryLayout<I>.offset(of: \I.total) == 64)
        #expect(MemoryLayout<I>.offset(of: \I.rate) == 72)
        #expect(MemoryLayout<I>.offset(of: \I.eta_s) == 80)
        #expect(MemoryLayout<I>.size == 88)
        #expect(MemoryLayout<I>.offset(of: \I.struct_size) == 0)
        #expect(MemoryLayout<I>.offset(of: \I.reserved) == 4)
        #expect(MemoryLayout<I>.offset(of: \I.type_name) == 8)
        #expect(MemoryLayout<I>.offset(of: \I.action) == 16)
        #expect(MemoryLayout<I>.offset(of: \I.id) == 24)
        #expect(MemoryLayout<I>.offset(of: \I.progress) == 32)
        typealias F = presenter_failure
        #expect(MemoryLayout<F>.size == 32)
        #expect(MemoryLayout<F>.offset(of: \F.struct_size) == 0)
        #expect(MemoryLayout<F>.offset(of: \F.reserved) == 4)
        #expect(MemoryLayout<F>.offset(of: \F.code) == 8)
        #expect(MemoryLayout<F>.offset(of: \F.domain) == 16)
        #expect(MemoryLayout<F>.offset(of: \F.message) == 24)
    }

    /// The ABI target's _Static_asserts hold for the frozen header too: the
    /// numbers there are 1.0's, not whatever the current header says.
    @Test func theFrozenHeaderMatchesTheStaticAsserts() throws {
        try Toolchain.compile([
            "cc", "-std=c11", "-Wall", "-Werror", "-fsyntax-only", "-I", Self.frozen.path,
            TestPaths.packageRoot.appendingPathComponent("Sources/PresenterABI/presenter_abi.c").path,
        ])
        let header = try String(contentsOf: Self.frozen.appendingPathComponent("presenter_abi.h"), encoding: .utf8)
        #expect(header.contains("#define PRESENTER_ABI_MAJOR 1\n"))
        #expect(header.contains("#define PRESENTER_ABI_MINOR 0\n"))
    }

    /// Every struct field the frozen 1.0 header lacks (a later minor's) says
    /// "Since 1.x." in its comment, and no 1.0 field is gone or moved.
    @Test func everyFieldAfter1_0IsMarkedSince() throws {
        let current = try String(
            contentsOf: TestPaths.abiInclude.appendingPathComponent("presenter_abi.h"), encoding: .utf8)
        let frozen = try String(contentsOf: Self.frozen.appendingPathComponent("presenter_abi.h"), encoding: .utf8)
        let old = Self.fields(frozen), new = Self.fields(current)
        #expect(
            Set(old.keys) == ["presenter_interactor", "presenter_failure", "presenter_host", "presenter_descriptor"])
        for (name, frozenFields) in old {
            let fields = try #require(new[name], "\(name) is gone")
            #expect(
                Array(fields.map(\.declaration).prefix(frozenFields.count)) == frozenFields.map(\.declaration),
                "\(name): the 1.0 fields changed")
            for field in fields.dropFirst(frozenFields.count) {
                #expect(
                    field.comment.contains("Since 1."), "\(name): '\(field.declaration)' is not marked 'Since 1.x.'")
            }
        }
    }

    /// The fields of each `typedef struct NAME { ... } NAME;` in `header`:
    /// each declaration (white space collapsed) and the comment before it.
    private static func fields(_ header: String) -> [String: [(declaration: String, comment: String)]] {
        var result: [String: [(declaration: String, comment: String)]] = [:]
        var current: String?, comment = "", inComment = false
        for rawLine in header.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if line.hasPrefix("typedef struct "), line.hasSuffix("{") {
                    current = String(line.dropFirst("typedef struct ".count).dropLast()).trimmingCharacters(
                        in: .whitespaces)
                    result[current!] = []
                }
                continue
            }
            if line.hasPrefix("}") { current = nil; continue }
            if line.hasPrefix("/*") { inComment = true; comment = "" }
            if inComment {
                comment += " " + line
                if line.hasSuffix("*/") { inComment = false }
                continue
            }
            guard !line.isEmpty else { continue }
            // A declaration may span lines (function pointers): join until ';'.
            if var last = result[current!]?.last, !last.declaration.hasSuffix(";") {
                last.declaration += " " + line
                result[current!]![result[current!]!.count - 1] = last
            } else {
                result[current!]!.append((line, comment))
                comment = ""
            }
        }
        return result.mapValues {
            $0.map { (String($0.declaration.split(whereSeparator: \.isWhitespace).joined(separator: " ")), $0.comment) }
        }
    }

    /// A plugin compiled against the frozen 1.0 header loads, is listed, and
    /// runs in `presenter-host run` (every hook it logs from is reached),
    /// passes `check`, and draws through this host's services.
    @Test func aPluginBuiltAgainstTheFrozenHeaderLoadsAndRuns() throws {
        let directory = TestPaths.temporaryDirectory("abi-1.0")
        let library = directory.appendingPathComponent("libpresenter_1_0.so")
        try Toolchain.compile([
            "cc", "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic",
            "-I", Self.frozen.path, "-o", library.path,
            Self.frozen.appendingPathComponent("presenter_1_0.c").path,
        ])

        let list = try ProcessRunner.host(["--plugin-dir", directory.path, "--list", "-v"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("fixture.abi-1-0"), "\(list.stdout)")
        #expect(list.stderr.isEmpty, "\(list.stderr)")

        // In a terminal, where the presenter runs (plain mode runs none).
        let run = try ProcessRunner.hostInTerminal([
            "--plugin-dir", directory.path, "run", "-v", "--presenter", "fixture.abi-1-0",
            "--working", "Working", "--failure", "Failed", "--", "sh", "-c", "exit 3",
        ])
        #expect(run.status == 3)
        let stderr = run.textLines.joined(separator: "\n")
        #expect(stderr.contains("fixture.abi-1-0: info: showing Working"), "\(stderr)")
        #expect(stderr.contains("fixture.abi-1-0: info: hidden Failed process: exit status 3"), "\(stderr)")

        // A budget of its own: under a loaded parallel test run a hook can
        // take more than half the usual 250 ms, and "budget" would WARN for
        // the machine, not the presenter (the budget check has its own tests).
        let check = try ProcessRunner.host(["check", "--hook-timeout", "10", library.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // Its one WARN: a 1.0 plugin cannot describe itself (1.3).
        #expect(check.stdout.hasSuffix(" 0 failed, 1 warned\n"), "\(check.stdout)")
        #expect(check.stdout.contains("  WARN  description: it has no description"), "\(check.stdout)")

        let presenter = try PluginInstance(LoadedPlugin.load(file: library).descriptor)
        let view = FakeView(cols: 20, rows: 3)
        presenter.show(view, "Saving", id: 1)
        presenter.progress(view, id: 1, 0.5)
        presenter.render(view)
        #expect(view.visibleLines == ["┌────────┐", "│ Saving │", "└────────┘"])
        #expect(presenter.key(view, 27) == 1)
        #expect(presenter.host.logs.map(\.message) == ["showing Saving", "progress 0.50", "key 27"])
    }
}
