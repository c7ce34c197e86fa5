import Dispatch
import FoundationEssentials
import Glibc

/// `presenter-host bookmarks [--json] [--store FILE]`: what the Add Bookmark
/// screen saved, as a table (date added, title, URL) or as JSON.
///
/// Reading never creates or changes the store; a missing store lists
/// nothing. Titles and URLs are escaped to one line each (a title is
/// whatever a web page said), and columns are measured in display columns.
enum BookmarksCommand {
    /// The usage line, shown after a usage error and in the help.
    static let usage = "Usage: presenter-host bookmarks [--json] [--store <file>]"

    /// `bookmarks --help`.
    static let help = """
        presenter-host bookmarks: list the bookmarks the Add Bookmark screen saved.

        \(usage)

        Options:
          --json          Print the store's document for scripts: {"version": 1, "path": ...,
                          "bookmarks": [{"url", "title", "added"}]} (see docs/BOOKMARKS.md).
          --store <file>  The store to read. Default: $\(BookmarkStore.environmentVariable), else
                          $XDG_DATA_HOME/presenter-host/bookmarks.json (~/.local/share/...).
          -h, --help      Show this help.

        Exit status: 0 (also when nothing is saved yet); 64 for a usage error; 65 for a
        store that is not a bookmark store; 66 for a store that cannot be read.

        """

    /// What the arguments ask for.
    enum Invocation: Equatable {
        case help
        case list(json: Bool, store: String?)
    }

    /// Lists the store chosen by `arguments` (those after `bookmarks`);
    /// returns the exit status.
    static func execute(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Int32
    {
        do {
            return try run(arguments, environment: environment)
        } catch {
            return PresenterHostCommand.report(error, usage: usage + "\nSee 'presenter-host bookmarks --help'.\n")
        }
    }

    private static func run(_ arguments: [String], environment: [String: String]) throws(CommandError) -> Int32 {
        switch try parse(arguments) {
        case .help:
            try PresenterHostCommand.writeStandardOutput(help)
        case let .list(json, store):
            let store = BookmarkStore(path: BookmarkStore.path(store: store, environment: environment))
            let document: BookmarkDocument
            do {
                document = try store.document()
            } catch {
                throw error.commandError
            }
            let text = json ? self.json(document, path: store.path) : table(document, path: store.path)
            try PresenterHostCommand.writeStandardOutput(text)
        }
        return ExitCode.success.rawValue
    }

    /// Parses the arguments after `bookmarks`.
    static func parse(_ arguments: [String]) throws(CommandError) -> Invocation {
        var json = false
        var store: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-h", "--help":
                return .help
            case "--json":
                json = true
            case "--store":
                guard index < arguments.endIndex else { throw .usage("Missing value for '--store <file>'") }
                store = try storeFile(arguments[index])
                index += 1
            case _ where argument.hasPrefix("--store="):
                store = try storeFile(String(argument.dropFirst("--store=".count)))
            case _ where argument.hasPrefix("-"):
                throw .usage("Unknown option '\(argument)' for 'bookmarks'")
            default:
                throw .usage("Unexpected argument '\(argument)' for 'bookmarks'")
            }
        }
        return .list(json: json, store: store)
    }

    private static func storeFile(_ value: String) throws(CommandError) -> String {
        guard !value.isEmpty, !value.hasSuffix("/") else {
            throw .usage(
                "'--store \(value)' is not a file's path; give the bookmark store's file, e.g. --store ~/bookmarks.json"
            )
        }
        return value
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
        case .unwritable: return .cannotCreate(reason)
        }
    }
}
