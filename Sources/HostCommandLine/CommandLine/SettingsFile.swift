import Glibc
import HostSystem
import HostText

/// The user's settings file, `$XDG_CONFIG_HOME/presenter-host/config`
/// (`~/.config/presenter-host/config` when that is unset or relative): the
/// default presenter, and options for presenters, one `key = value` a line.
///
///     # the presenter of run and drive when --presenter does not say
///     presenter = line
///     # an option of one presenter (as --option spinner=moon)
///     line.spinner = moon
///
/// Blank lines and lines starting with `#` are skipped. The format is
/// strict, so that a typo is told rather than guessed at: a line that is
/// not one of these, a key given twice, an id or option name with other
/// characters than `a-z 0-9 . _ -`, one of the host's own options
/// (``keyProblem(_:)``), a value that is long or holds a control or bidi
/// character (``valueProblem(_:of:)``; `--option` is held to the same), a
/// file over ``largestFile``, or a file or folder another account could
/// have written makes the whole file ignored, with one line naming the
/// file and the line (the command goes on with the built-in defaults).
struct SettingsFile: Equatable {
    /// `presenter = <id>`.
    var presenter: String?
    /// `<id>.<option> = <value>`, keyed as the host's options are
    /// ("line.spinner"), which presenters read through `option`.
    var presenterOptions: [String: String] = [:]

    /// A line that breaks the format, or a file that cannot be read.
    struct Problem: Error, Equatable {
        /// The one line said: the file (and line), what is wrong, what to do.
        let message: String
    }

    /// The largest file read: settings are a few lines.
    static let largestFile = 65536
    /// The longest value, in bytes.
    static let longestValue = 1024

    /// The file's path for `environment`, or nil without any home.
    static func path(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return PathName.trimmed(xdg) + "/presenter-host/config"
        }
        return XDGDirectories.home(environment).map { $0 + "/.config/presenter-host/config" }
    }

    /// The settings in the file at `path`; empty when it does not exist.
    /// The file and its folder must be the user's (or root's) and written
    /// by no one else, as the plugins' rules say (``PluginPolicy``): another
    /// account must not choose the presenter, or its options, for this one.
    /// - Throws: the file cannot be read, is not the user's, is too large,
    ///   or breaks the format.
    static func load(path: String) throws(Problem) -> SettingsFile {
        let folder = PathName(path).parent
        let read: Read
        do {
            read = try FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY | O_NOCTTY).closeAfter {
                folderFD throws(Errno) in
                if let refused = refusal(try folderFD.status(), of: folder, what: "folder") { return .refused(refused) }
                // Non-blocking: a FIFO put there must not hold the command up.
                let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW
                return try folderFD.open(named: String(PathName(path).lastComponent), flags).closeAfter {
                    fd throws(Errno) in
                    let info = try fd.status()
                    guard info.st_mode & S_IFMT == S_IFREG else { return .notRegular }
                    if let refused = refusal(info, of: path, what: "file") { return .refused(refused) }
                    return .bytes(try fd.read(count: largestFile + 1, at: 0))
                }
            }
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return SettingsFile() }
            if error.code == ELOOP {
                throw Problem(
                    message: "\(path): the settings file is a symbolic link; put the file itself there, or remove it")
            }
            throw Problem(
                message:
                    "\(path): cannot read the settings file: \(errnoText(error.code)); fix its permissions or remove it"
            )
        }
        let bytes: [UInt8]
        switch read {
        case .refused(let message): throw Problem(message: message)
        case .notRegular:
            throw Problem(message: "\(path): the settings file is not a regular file; make it one or remove it")
        case .bytes(let read): bytes = read
        }
        guard bytes.count <= largestFile else {
            throw Problem(
                message:
                    "\(path): the settings file is over \(largestFile / 1024) KiB; settings are a few lines: shorten it"
            )
        }
        return try parse(bytes, name: path)
    }

    /// What opening the file found.
    private enum Read {
        case bytes([UInt8])
        case notRegular
        /// The file or its folder is another account's, or others may write it: the line that says so.
        case refused(String)
    }

    /// Why the settings `what` ("file", "folder") at `path`, of status
    /// `info`, is not to be read: owned by neither the user nor root, or
    /// writable by group or others; nil when it is fine.
    private static func refusal(_ info: stat, of path: String, what: String) -> String? {
        let shown = PrintableText.escaping(path)
        if info.st_uid != 0 && info.st_uid != UserAccount.effectiveUserID {
            let owner = UserAccount.name(of: info.st_uid) ?? "uid \(info.st_uid)"
            let you = UserAccount.name(of: UserAccount.effectiveUserID) ?? "$(id -u)"
            return
                "\(shown): the settings \(what) is owned by \(owner), not by you or root: chown \(you) \(shown), or remove it"
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            return "\(shown): the settings \(what) is writable by group or others: chmod go-w \(shown)"
        }
        return nil
    }

    /// The settings `bytes` say; `name` is the file's, for messages.
    static func parse(_ bytes: [UInt8], name: String) throws(Problem) -> SettingsFile {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem(message: "\(name): the settings file is not UTF-8 text; write it as UTF-8")
        }
        var settings = SettingsFile()
        var seen: Set<String> = []
        // Split on the byte: "\r\n" is one Character, which "\n" would not split.
        for (index, raw) in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let at = "\(name):\(index + 1)"
            let line = trimmed(String(decoding: raw, as: UTF8.self)[...])
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(
                    message:
                        "\(at): expected 'key = value' or a # comment; write presenter = <id> or <id>.<option> = <value>"
                )
            }
            let key = String(trimmed(line[..<equals]))
            let value = String(trimmed(line[line.index(after: equals)...]))
            guard !seen.contains(key) else {
                throw Problem(message: "\(at): '\(quoted(key))' is set twice; keep one of the two lines")
            }
            seen.insert(key)
            if let problem = keyProblem(key) ?? valueProblem(value, of: key) {
                throw Problem(message: "\(at): \(problem)")
            }
            if key == "presenter" {
                guard isName(value) else {
                    throw Problem(
                        message:
                            "\(at): '\(quoted(value))' is not a presenter id (1 to 64 of a-z 0-9 . _ -); see presenter-host --list --ids"
                    )
                }
                settings.presenter = value
            } else if let dot = key.lastIndex(of: "."), isName(String(key[..<dot])),
                isName(String(key[key.index(after: dot)...]))
            {
                settings.presenterOptions[key] = value
            } else {
                throw Problem(
                    message: "\(at): '\(quoted(key))' is not a setting; use presenter = <id> or <id>.<option> = <value>"
                )
            }
        }
        return settings
    }

    /// Why a user may not set the presenter option `key` (`spinner`,
    /// `line.spinner`): one of the host's own, which the engine would look
    /// up as `<id>.<key>` before the host's value; nil when they may.
    static func keyProblem(_ key: String) -> String? {
        let name = key.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? key
        guard PresenterSession.pluginOptions(minShow: 0, grace: 0)[name] != nil else { return nil }
        guard let flag = PresenterSession.hostOptionFlags[name] else {
            return "'\(quoted(key))' is the host's own option, which no setting changes; remove it"
        }
        return "'\(quoted(key))' is the host's own option; set it with \(flag)"
    }

    /// Why `value` cannot be the value of the presenter option `key`: it is
    /// text a presenter may draw, so no control or bidi character
    /// (``ControlCharacters/all``, as everything the host shows), and a
    /// few words, not a file; nil when it can.
    static func valueProblem(_ value: String, of key: String) -> String? {
        if value.utf8.count > longestValue {
            return "the value of '\(quoted(key))' is over \(longestValue) bytes; shorten it"
        }
        if let control = value.unicodeScalars.first(where: ControlCharacters.all.matches) {
            return
                "the value of '\(quoted(key))' has a control or bidi character (\(PrintableText.escaping(String(control)))); remove it"
        }
        return nil
    }

    /// The most bytes of the user's text a message quotes: a value is
    /// named, not shown whole (a 20 KB value is not a line).
    static let longestQuote = 64

    /// `text` as a message quotes it: cut to ``longestQuote`` bytes (with
    /// `…`), then escaped, so it stays one short line.
    static func quoted(_ text: String) -> String {
        PrintableText.escaping(DisplayText.cut(text, toBytes: longestQuote))
    }

    /// An id or option name: 1 to 64 bytes of `a-z`, `0-9`, `.`, `_`, `-`.
    static func isName(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D
            }
    }

    /// `text` without the spaces, tabs and carriage return around it.
    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) })
        else { return "" }
        return text[first...last]
    }
}
