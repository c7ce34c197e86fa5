import HostSystem
import Dispatch
import HostBookmarks
import HostText

/// `presenter-host bookmarks [--json] [--store FILE]`: what the Add Bookmark
/// screen saved, as a table (date added, title, URL) or as JSON.
///
/// Reading never creates or changes the store; a missing store lists
/// nothing. Titles and URLs are escaped to one line each (a title is
/// whatever a web page said), and columns are measured in display columns.
/// A URL's user name and password (in a store an older presenter-host
/// saved) are never listed.
enum BookmarksCommand {
    /// Lists the store at `store` (else the default one); returns the exit status.
    static func execute(
        store: String?, json: Bool, environment: [String: String]
    ) -> Int32 {
        do throws(CommandError) {
            let store = BookmarkStore(path: BookmarkStore.path(store: store, environment: environment))
            let document: BookmarkDocument
            do {
                document = try store.document()
            } catch {
                throw error.commandError
            }
            var listed = document
            for index in listed.entries.indices {
                listed.entries[index].bookmark.url = WebTitle.withoutUserInfo(listed.entries[index].bookmark.url)
            }
            let text = json ? self.json(listed, path: store.path) : table(listed, path: store.path)
            try PresenterHostCommand.writeStandardOutput(text)
            return ExitCode.success.rawValue
        } catch {
            return PresenterHostCommand.report(error)
        }
    }

    /// `--store`'s value, checked: a file's path.
    static func checkStore(_ name: String, _ value: String) throws(CommandError) {
        guard !value.isEmpty, !value.hasSuffix("/") else {
            throw .usage(
                "'\(name) \(PrintableText.escaping(value))' is not a file's path; give the bookmark store's file, e.g. \(name) ~/bookmarks.json"
            )
        }
    }

    /// One row per bookmark: the day it was added, its title, its URL.
    static func table(_ document: BookmarkDocument, path: String) -> String {
        guard !document.entries.isEmpty else {
            return "No bookmarks saved yet in \(PrintableText.escaping(path)).\n"
        }
        let rows =
            [["ADDED", "TITLE", "URL"]]
            + document.entries.map { entry in
                [
                    String(entry.added.prefix(10)), PrintableText.escaping(entry.bookmark.title),
                    PrintableText.escaping(entry.bookmark.url),
                ]
            }
        let widths = (0..<2).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return rows.map { row in
            row[0].padded(toColumns: widths[0]) + "  " + row[1].padded(toColumns: widths[1]) + "  " + row[2] + "\n"
        }.joined()
    }

    /// The store's document with its `path`, keys sorted.
    static func json(_ document: BookmarkDocument, path: String) -> String {
        String(decoding: document.encoded(path: path), as: UTF8.self)
    }
}

extension BookmarkStoreError {
    /// The command-line error for this store error: 66 (cannot read), 65
    /// (not a bookmark store) or 73 (cannot write).
    var commandError: CommandError {
        switch kind {
        case .unreadable: return .noInput(reason)
        case .corrupt: return .dataError(reason)
        case .unwritable, .interrupted: return .cannotCreate(reason)
        }
    }
}
