import HostSystem
import HostText
#if canImport(Glibc)
    import Glibc
#endif

/// The bookmark store's file format, version 1 (docs/BOOKMARKS.md):
///
///     {"version": 1, "bookmarks": [{"url": "…", "title": "…", "added": "2026-12-01T00:57:38Z"}]}
///
/// Read strictly with `JSONReader`, so that a damaged or hand-edited file is
/// reported with the place that is wrong (and then left alone) instead of
/// being half understood and written back with something missing: unknown
/// keys, a missing or mistyped field, a repeated URL, a date that is not
/// RFC 3339 and a newer version are all errors. Written pretty-printed with
/// sorted keys, bookmarks in the order they were first added.
package struct BookmarkDocument: Equatable {
    /// The format version this presenter-host reads and writes.
    static let version = 1

    /// One bookmark and when it was first saved.
    package struct Entry: Equatable {
        package var bookmark: Bookmark
        /// RFC 3339 date-time, e.g. `2026-12-01T00:57:38Z`; kept when a later
        /// save changes the title.
        package var added: String
    }

    /// The bookmarks, oldest first; at most one per URL.
    package var entries: [Entry] = []

    /// Adds `bookmark` (dated `added`), or changes the title of the entry
    /// with the same URL. Returns whether it was new and whether anything
    /// changed (the same title again changes nothing).
    mutating func add(_ bookmark: Bookmark, added: String) -> (isNew: Bool, changed: Bool) {
        if let index = entries.firstIndex(where: { $0.bookmark.url == bookmark.url }) {
            let changed = entries[index].bookmark.title != bookmark.title
            entries[index].bookmark.title = bookmark.title
            return (false, changed)
        }
        entries.append(Entry(bookmark: bookmark, added: added))
        return (true, true)
    }

    // MARK: - Writing

    /// The file's bytes: pretty-printed (two-space indents), keys sorted, a
    /// final newline. With `path`, also a `"path"` member (what `bookmarks
    /// --json` prints).
    package func encoded(path: String? = nil) -> [UInt8] {
        var text = "{\n  \"bookmarks\": ["
        for (index, entry) in entries.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += "    {\n      \"added\": \(Self.quoted(entry.added)),\n"
            text += "      \"title\": \(Self.quoted(entry.bookmark.title)),\n"
            text += "      \"url\": \(Self.quoted(entry.bookmark.url))\n    }"
        }
        text += entries.isEmpty ? "],\n" : "\n  ],\n"
        if let path { text += "  \"path\": \(Self.quoted(path)),\n" }
        text += "  \"version\": \(Self.version)\n}\n"
        return Array(text.utf8)
    }

    /// `text` as a JSON string, written as every JSON the host writes
    /// (`JSONValue`): quotes, backslashes and controls escaped, and so are
    /// the C1 controls, bidi and other format characters (the
    /// ``ControlCharacters/escaped`` rule) as `\uXXXX`: a title is what a
    /// web page said, and the store and `bookmarks --json` may be read on a
    /// terminal. Everything else (`/`, non-ASCII) as UTF-8.
    private static func quoted(_ text: String) -> String {
        JSONValue.string(text).serialized
    }

    /// Now, as the RFC 3339 UTC date-time an entry's `added` holds.
    static func timestamp(_ seconds: time_t = WallClock.now().tv_sec) -> String {
        WallClock.iso8601(timespec(tv_sec: seconds, tv_nsec: 0), milliseconds: false)
    }

    // MARK: - Reading

    /// Parses a store's bytes; `path` names it in errors, each of which ends
    /// by saying the file was left as it is.
    static func parse(_ bytes: [UInt8], path: String) throws(BookmarkStoreError) -> BookmarkDocument {
        func corrupt(_ what: String) -> BookmarkStoreError {
            BookmarkStoreError(.corrupt, "\(path)\(what); the bookmark store was left as it is: fix it or move it away")
        }
        if let bad = JSONReader.firstInvalidUTF8(bytes) {
            throw corrupt(":\(bad.line):\(bad.column): not valid UTF-8 text")
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
            throw corrupt(": the file is empty, not a bookmark store ({\"version\": 1, \"bookmarks\": [...]})")
        }
        let root: JSONReader.Node
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw corrupt(":\(error.line):\(error.column): \(error.message)")
        }
        do {
            return try read(root)
        } catch {
            throw corrupt(": \(error.pointer): \(error.message)")
        }
    }

    /// A place in the document (a JSON Pointer, RFC 6901) and what is wrong there.
    private struct ShapeError: Error {
        var pointer: String
        var message: String
    }

    private static func read(_ root: JSONReader.Node) throws(ShapeError) -> BookmarkDocument {
        let members = try object(root, at: "", keys: ["version", "bookmarks"])
        guard let versionNode = members["version"] else { throw ShapeError(pointer: "/", message: "no \"version\"") }
        guard case .number(let number) = versionNode.value, let version = Int(number), version >= 1 else {
            throw ShapeError(
                pointer: "/version", message: "expected a format version such as 1, found \(describe(versionNode))")
        }
        guard version <= Self.version else {
            throw ShapeError(
                pointer: "/version",
                message:
                    "format version \(version) is newer than this presenter-host reads (\(Self.version)); upgrade presenter-host"
            )
        }
        guard let list = members["bookmarks"] else { throw ShapeError(pointer: "/", message: "no \"bookmarks\"") }
        guard case .array(let nodes) = list.value else {
            throw ShapeError(
                pointer: "/bookmarks", message: "expected an array of bookmarks, found \(list.value.kindDescription)")
        }
        var document = BookmarkDocument()
        var firstIndex: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            let pointer = "/bookmarks/\(index)"
            let fields = try object(node, at: pointer, keys: ["url", "title", "added"])
            func string(_ key: String) throws(ShapeError) -> String {
                guard let field = fields[key] else { throw ShapeError(pointer: pointer, message: "no \"\(key)\"") }
                guard case .string(let text) = field.value else {
                    throw ShapeError(
                        pointer: pointer + "/" + key, message: "expected a string, found \(field.value.kindDescription)"
                    )
                }
                return text
            }
            let entry = Entry(
                bookmark: Bookmark(url: try string("url"), title: try string("title")), added: try string("added"))
            guard isDateTime(entry.added) else {
                throw ShapeError(
                    pointer: pointer + "/added",
                    message:
                        "'\(PrintableText.escaping(entry.added))' is not an RFC 3339 date-time such as 2026-12-01T00:57:38Z"
                )
            }
            if let first = firstIndex[entry.bookmark.url] {
                throw ShapeError(
                    pointer: pointer + "/url", message: "the URL of /bookmarks/\(first) again (one bookmark per URL)")
            }
            firstIndex[entry.bookmark.url] = index
            document.entries.append(entry)
        }
        return document
    }

    /// The members of an object by key; an error for another kind of value,
    /// a repeated key or a key not in `keys`.
    private static func object(
        _ node: JSONReader.Node, at pointer: String,
        keys: [String]
    ) throws(ShapeError) -> [String: JSONReader.Node] {
        guard case .object(let members) = node.value else {
            throw ShapeError(
                pointer: pointer.isEmpty ? "/" : pointer,
                message: "expected an object with \(keys.joined(separator: ", ")), found \(node.value.kindDescription)")
        }
        var result: [String: JSONReader.Node] = [:]
        for member in members {
            let place = pointer + "/" + JSONReader.pointerToken(member.key)
            guard keys.contains(member.key) else {
                throw ShapeError(
                    pointer: place,
                    message:
                        "unknown key '\(PrintableText.escaping(member.key))' (expected \(keys.joined(separator: ", ")))"
                )
            }
            guard result.updateValue(member.node, forKey: member.key) == nil else {
                throw ShapeError(pointer: place, message: "'\(PrintableText.escaping(member.key))' appears twice")
            }
        }
        return result
    }

    private static func describe(_ node: JSONReader.Node) -> String {
        if case .number(let number) = node.value { return number }
        return node.value.kindDescription
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, fields in range (RFC 3339
    /// section 5.6; `t` and `z` in either case).
    static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int, _ range: ClosedRange<Int>) -> Bool {
            guard start + count <= bytes.count else { return false }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 0x30 && byte <= 0x39 else { return false }
                value = value * 10 + Int(byte - 0x30)
            }
            return range.contains(value)
        }
        func byte(_ index: Int, _ allowed: String) -> Bool {
            index < bytes.count && allowed.utf8.contains(bytes[index])
        }
        guard number(0, 4, 0...9999), byte(4, "-"), number(5, 2, 1...12), byte(7, "-"), number(8, 2, 1...31),
            byte(10, "Tt"), number(11, 2, 0...23), byte(13, ":"), number(14, 2, 0...59), byte(16, ":"),
            number(17, 2, 0...60)
        else { return false }
        var index = 19
        if byte(index, ".") {
            index += 1
            let digits = index
            while number(index, 1, 0...9) { index += 1 }
            guard index > digits else { return false }
        }
        if byte(index, "Zz") { return index + 1 == bytes.count }
        return byte(index, "+-") && number(index + 1, 2, 0...23) && byte(index + 3, ":")
            && number(index + 4, 2, 0...59) && index + 6 == bytes.count
    }
}
