import Foundation
import Testing

/// Every public symbol of the library modules has a doc comment where DocC
/// reads it: `///` (or a `/** */` block) directly above the declaration,
/// with only attributes and plain `//` comments (a "Safe:" note) between.
/// A doc comment above an `import`, or cut off by a blank line, is none:
/// DocC shows nothing for the symbol. Read from the sources, so it is fast
/// and needs no build; the scan is tested on small texts it must judge.
@Suite struct DocCommentTests {
    /// The folders of Sources/ that are no library module: the executables
    /// and the build plugin, whose declarations no one imports.
    private static let notLibraries: Set<String> = [
        "presenter-host", "presenter-host-fetch", "presenter-describe", "PresenterDescription",
    ]

    @Test func everyPublicDeclarationOfTheLibrariesHasADocComment() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { !Self.notLibraries.contains($0) }.sorted()
        var missing: [String] = []
        var scanned = 0
        for module in modules {
            let folder = sources.appendingPathComponent(module)
            let files =
                FileManager.default.enumerator(atPath: folder.path)?
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                missing += DocCommentScan.undocumented(in: text).map { "Sources/\(module)/\(file):\($0)" }
                scanned += 1
            }
        }
        #expect(scanned > 100, "found only \(scanned) Swift files under \(sources.path)")
        #expect(
            missing == [],
            Comment(
                rawValue: "public declarations with no doc comment directly above them (say why, briefly):\n"
                    + missing.joined(separator: "\n")))
    }

    @Test func theScanFindsAPublicDeclarationWithNoDocCommentAboveIt() {
        let text = """
            /// Documented, with a note and an attribute between.
            // Safe: immutable.
            @frozen
            public struct Kept: Sendable {
                /// Documented.
                public let name: String
                public var bare: Int
                let internalNeedsNone: Int
                @discardableResult
                public static func run() -> Int { 0 }
                /** A block comment counts. */
                public init() {}
                public static func == (a: Kept, b: Kept) -> Bool { true }
                public var description: String { "" }
            }

            /// Cut off by the blank line below: DocC drops it.

            open class Lost {
                open func draw() {}
                public private(set) var count = 0
                private func hidden() {}
                let text = \"""
                    public func notCode()
                    \"""
            }

            /// Above an import: DocC drops it.
            import Foundation

            public enum Choice {
                /// Documented.
                case one
                case two(Int)
                func internalNeedsNone() {
                    switch self {
                    case .one: break
                    case .two: break
                    }
                }
            }

            /// Its requirements are public without the word.
            public protocol Drawn {
                /// Documented.
                func draw()
                var size: Int { get }
            }

            enum Internal {
                case any
            }

            """
        #expect(
            DocCommentScan.undocumented(in: text) == [
                "7 var bare", "10 func run", "19 class Lost", "20 func draw", "21 var count", "31 enum Choice",
                "34 case two", "47 var size",
            ])
    }
}

/// Finds the public declarations of a Swift file that have no doc comment
/// directly above them: those marked `public` or `open`, and those public
/// without the word (the requirements of a public protocol, the cases of a
/// public enum). Line by line, as the formatter lays code out (one
/// declaration a line, four spaces a level); text in a multi-line string is
/// skipped. Implementations of the standard library's requirements (`==`,
/// `description`, `rawValue`...) need none: DocC shows the standard
/// library's.
enum DocCommentScan {
    private static let modifiers: Set<String> = [
        "public", "open", "package", "internal", "fileprivate", "private", "final", "static", "class", "override",
        "mutating", "nonmutating", "convenience", "required", "indirect", "lazy", "weak", "unowned", "nonisolated",
        "dynamic", "optional", "prefix", "postfix", "infix", "consuming", "borrowing",
    ]
    private static let keywords: Set<String> = [
        "func", "var", "let", "init", "subscript", "struct", "class", "enum", "protocol", "typealias", "case",
        "actor", "associatedtype", "macro",
    ]
    private static let standardRequirements: Set<String> = [
        "==", "<", "description", "debugDescription", "hash", "rawValue", "init(rawValue:",
    ]

    /// A declaration's modifiers, keyword and name, or nil for a line that
    /// declares nothing.
    private struct Declaration {
        var modifiers: [String]
        var keyword: String
        var name: String
        var isPublic: Bool { modifiers.contains("public") || modifiers.contains("open") }
    }

    /// `file:line keyword name` (the line 1-based) for each undocumented
    /// public declaration of `text`.
    static func undocumented(in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [String] = []
        var inString = false
        // Public protocols and enums still open: their indent, and whether a protocol.
        var scopes: [(indent: Int, isProtocol: Bool)] = []
        for (index, line) in lines.enumerated() {
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
                inString.toggle()
                continue
            }
            let indent = line.prefix { $0 == " " }.count
            let code = line.dropFirst(indent)
            if inString || code.isEmpty { continue }
            while let scope = scopes.last, indent <= scope.indent, code.hasPrefix("}") || indent < scope.indent {
                scopes.removeLast()
            }
            guard let declaration = declaration(code) else { continue }
            var isPublic = declaration.isPublic
            if let scope = scopes.last, indent == scope.indent + 4 {
                isPublic = isPublic || scope.isProtocol || declaration.keyword == "case"
            }
            if declaration.isPublic, ["protocol", "enum"].contains(declaration.keyword), code.hasSuffix("{") {
                scopes.append((indent, declaration.keyword == "protocol"))
            }
            if isPublic, !standardRequirements.contains(declaration.name), !hasDocComment(above: index, in: lines) {
                let name = declaration.name
                found.append(
                    "\(index + 1) \(name.hasPrefix(declaration.keyword) ? "" : declaration.keyword + " ")\(name)")
            }
        }
        return found
    }

    /// Whether `///` or a `/** */` block ends directly above line `index`,
    /// past attributes and plain `//` comments.
    private static func hasDocComment(above index: Int, in lines: [String]) -> Bool {
        var above = index - 1
        while above >= 0 {
            let code = lines[above].drop { $0 == " " }
            if code.hasPrefix("///") || code.hasSuffix("*/") { return true }
            guard code.hasPrefix("@") || code.hasPrefix("//") else { return false }
            above -= 1
        }
        return false
    }

    /// The declaration `code` (a line without its indent) begins, if any.
    private static func declaration(_ code: Substring) -> Declaration? {
        var rest = code
        // Attributes, with their arguments: `@available(*, deprecated)`.
        while rest.hasPrefix("@") {
            var depth = 0
            var end = rest.index(after: rest.startIndex)
            while end < rest.endIndex, depth > 0 || !(rest[end] == " " || rest[end] == "\t") {
                if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            rest = rest[end...].drop { $0 == " " }
        }
        let words = rest.split(separator: " ", omittingEmptySubsequences: true)
        var modifiers: [String] = []
        for (position, word) in words.enumerated() {
            // `private(set)`, `nonisolated(unsafe)`: the modifier before its parenthesis.
            let bare = String(word.prefix { $0 != "(" })
            let next = position + 1 < words.count ? String(words[position + 1].prefix { $0 != "(" }) : ""
            if keywords.contains(bare), !(bare == "class" && keywords.contains(next)) {
                // `init(rawValue:` and `subscript(_:` name themselves; others the word after.
                if word != bare { return Declaration(modifiers: modifiers, keyword: bare, name: String(word)) }
                let after = position + 1 < words.count ? words[position + 1] : ""
                // An operator (`==`, `<`) is its name whole.
                let isOperator = after.first.map { "=<>!+-*/%&|^~".contains($0) } ?? false
                let name = isOperator ? String(after) : String(after.prefix { !"(<:=,{".contains($0) })
                return Declaration(modifiers: modifiers, keyword: bare, name: name.isEmpty ? bare : name)
            }
            guard Self.modifiers.contains(bare) else { return nil }
            modifiers.append(bare)
        }
        return nil
    }
}
