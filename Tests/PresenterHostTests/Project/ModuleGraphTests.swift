import Foundation
import Testing

/// docs/ARCHITECTURE.md's module graph is Package.swift's: every target
/// (but the tests) with the dependencies Package.swift gives it, listed
/// lowest first, so the picture of the layers cannot go stale. A target
/// added, removed or given another dependency fails here until the doc's
/// block says so too (the failure prints the block as it should be).
@Suite struct ModuleGraphTests {
    /// A target's name and what it depends on.
    private struct Target: Equatable {
        var name: String
        var dependencies: [String]
    }

    private static let begin = "<!-- module graph: begin -->"
    private static let end = "<!-- module graph: end -->"

    /// The targets of Package.swift, in its order: each `.target(`,
    /// `.executableTarget(` and `.systemLibrary(` call's `name:` and the
    /// quoted names of its `dependencies:` (none when it has no such label).
    private static func packageTargets() throws -> [Target] {
        let text = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        // Comments may name targets: drop them (no string in Package.swift holds "//").
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
        var targets: [Target] = []
        var rest = Substring(code)
        while let call = rest.firstMatch(of: /\.(target|executableTarget|systemLibrary)\(/) {
            // The call's arguments: up to its closing parenthesis.
            var depth = 1
            var index = call.range.upperBound
            while depth > 0 && index < rest.endIndex {
                if rest[index] == "(" { depth += 1 } else if rest[index] == ")" { depth -= 1 }
                index = rest.index(after: index)
            }
            let arguments = rest[call.range.upperBound..<index]
            rest = rest[index...]
            guard let name = arguments.firstMatch(of: /name:\s*"([^"]+)"/)?.1 else { continue }
            var dependencies: [String] = []
            if let list = arguments.firstMatch(of: /dependencies:\s*\[([^\]]*)\]/)?.1 {
                dependencies = list.matches(of: /"([^"]+)"/).map { String($0.1) }
            }
            targets.append(Target(name: String(name), dependencies: dependencies))
        }
        return targets
    }

    /// The lines of the doc's block: `name  dependency, dependency` or
    /// `name  (none)`.
    private static func documentedTargets() throws -> [Target] {
        let text = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        guard let start = text.range(of: begin), let stop = text.range(of: end), start.upperBound < stop.lowerBound
        else { return [] }
        return text[start.upperBound..<stop.lowerBound].split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = words.first, !name.hasPrefix("```") else { return nil }
            let rest = words.count > 1 ? words[1] : ""
            let dependencies =
                rest == "(none)" ? [] : rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return Target(name: name, dependencies: dependencies)
        }
    }

    /// The block as it should read, for the failure message.
    private static func block(_ targets: [Target]) -> String {
        let width = (targets.map(\.name.count).max() ?? 0) + 2
        let lines = targets.map { target in
            target.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + (target.dependencies.isEmpty ? "(none)" : target.dependencies.joined(separator: ", "))
        }
        return ([begin, "```"] + lines + ["```", end]).joined(separator: "\n")
    }

    @Test("docs/ARCHITECTURE.md lists every target of Package.swift with its dependencies")
    func theDocShowsPackageSwiftsGraph() throws {
        let package = try Self.packageTargets()
        let documented = try Self.documentedTargets()
        // The host's modules at least: a parser that found nothing would pass.
        #expect(package.contains { $0.name == "HostSystem" } && package.contains { $0.name == "HostCommandLine" })
        let said = Dictionary(documented.map { ($0.name, Set($0.dependencies)) }, uniquingKeysWith: { a, _ in a })
        let real = Dictionary(package.map { ($0.name, Set($0.dependencies)) }, uniquingKeysWith: { a, _ in a })
        let differences = Set(said.keys).union(real.keys).sorted().compactMap { name -> String? in
            guard said[name] != real[name] else { return nil }
            let show = { (dependencies: Set<String>?) in
                dependencies.map { "[\($0.sorted().joined(separator: ", "))]" } ?? "nothing"
            }
            return "\(name): the doc says \(show(said[name])), Package.swift \(show(real[name]))"
        }
        #expect(
            differences.isEmpty,
            """
            docs/ARCHITECTURE.md's module graph is not Package.swift's (\(differences.joined(separator: "; "))); \
            it should be (lowest first):
            \(Self.block(package))
            """)
        #expect(Set(documented.map(\.name)).count == documented.count, "a target is listed twice")
    }

    @Test("the doc lists each target after everything it depends on")
    func theDocListsLowestFirst() throws {
        var seen: Set<String> = []
        for target in try Self.documentedTargets() {
            let later = target.dependencies.filter { !seen.contains($0) }
            #expect(later.isEmpty, "\(target.name) is listed before \(later.joined(separator: ", ")), which it uses")
            seen.insert(target.name)
        }
    }
}
