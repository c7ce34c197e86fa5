import Glibc
import HostRuntime
import HostSystem
import HostText

/// The messages of `run --messages FILE`: a JSON object of actions, each an
/// object of statuses (`working`, `success`, `failure`) whose values are
/// strings, e.g. `{"run": {"working": "Building...", "success": "Built!"}}`.
///
/// Errors name the file and where in it: `messages.json:3:14: expected ','
/// or '}', found '"'` for malformed JSON, `messages.json: /run/workin: unknown
/// status 'workin' (expected working, success, failure)` for bad data (the
/// place written as a JSON Pointer, RFC 6901).
package struct MessagesFile: Equatable, Sendable {
    /// The messages of one action; `nil` where the file has none.
    package struct Messages: Equatable, Sendable {
        /// Shown while the action runs.
        package var working: String?
        /// Shown when it succeeds.
        package var success: String?
        /// Shown when it fails.
        package var failure: String?

        /// Messages with the given texts.
        package init(working: String? = nil, success: String? = nil, failure: String? = nil) {
            self.working = working
            self.success = success
            self.failure = failure
        }
    }

    /// The statuses a file may name, in the order error messages list them.
    package static let statuses = ["working", "success", "failure"]

    /// Messages by action name.
    package var actions: [String: Messages]

    /// A file's content: messages by action name.
    package init(actions: [String: Messages]) {
        self.actions = actions
    }

    /// The largest messages file read: 1 MiB, room for hundreds of actions'
    /// messages (each is cut at ``DisplayText/longestMessage`` bytes when
    /// shown). Read no further: `--messages /dev/zero` is refused at once.
    package static let largestFile = 1 << 20

    /// Reads and parses the file at `path`.
    /// - Throws: `.noInput` when it cannot be read, `.dataError` when its
    ///   content is wrong or it is larger than ``largestFile``.
    package static func load(path: String) throws(CommandError) -> MessagesFile {
        let bytes: [UInt8]
        do throws(Errno) {
            bytes = try readFile(path)
        } catch {
            throw .noInput(
                "\(path): cannot read the messages file: \(errnoText(error.code)); check the path given to --messages")
        }
        guard bytes.count <= largestFile else {
            throw .dataError(
                "\(path): the messages file is larger than \(largestFile >> 20) MiB; keep only the messages in it (a few kilobytes)"
            )
        }
        return try parse(bytes, name: path)
    }

    /// Parses `bytes`; `name` is the file name used in error messages.
    package static func parse(_ bytes: [UInt8], name: String) throws(CommandError) -> MessagesFile {
        if let bad = JSONReader.firstInvalidUTF8(bytes) {
            throw .dataError("\(name):\(bad.line):\(bad.column): not valid UTF-8 text; save the file as UTF-8")
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
            throw .dataError("\(name): the file is empty; expected an object such as {\"run\": {\"working\": \"...\"}}")
        }
        let root: JSONReader.Node
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw .dataError("\(name):\(error.line):\(error.column): \(error.message)")
        }
        guard case .object(let actionMembers) = root.value else {
            throw .dataError("\(name): /: expected an object of actions, found \(root.value.kindDescription)")
        }
        var actions: [String: Messages] = [:]
        for action in actionMembers {
            let actionPath = "/" + JSONReader.pointerToken(action.key)
            guard actions[action.key] == nil else {
                throw .dataError("\(name): \(actionPath): action '\(PrintableText.escaping(action.key))' appears twice")
            }
            guard case .object(let statusMembers) = action.node.value else {
                throw .dataError(
                    "\(name): \(actionPath): expected an object of messages, found \(action.node.value.kindDescription)"
                )
            }
            var messages = Messages()
            var seen: Set<String> = []
            for status in statusMembers {
                let path = actionPath + "/" + JSONReader.pointerToken(status.key)
                guard statuses.contains(status.key) else {
                    throw .dataError(
                        "\(name): \(path): unknown status '\(PrintableText.escaping(status.key))' (expected \(statuses.joined(separator: ", ")))"
                    )
                }
                guard seen.insert(status.key).inserted else {
                    throw .dataError("\(name): \(path): status '\(PrintableText.escaping(status.key))' appears twice")
                }
                guard case .string(let text) = status.node.value else {
                    throw .dataError("\(name): \(path): expected a string, found \(status.node.value.kindDescription)")
                }
                switch status.key {
                case "working": messages.working = text
                case "success": messages.success = text
                default: messages.failure = text
                }
            }
            actions[action.key] = messages
        }
        return MessagesFile(actions: actions)
    }

    /// The file, up to one byte more than ``largestFile`` (so a larger
    /// one is told apart without reading it whole).
    /// - Throws: the call that failed (`read` and EISDIR for a directory).
    private static func readFile(_ path: String) throws(Errno) -> [UInt8] {
        try FileDescriptor.open(path, O_RDONLY).closeAfter { fd throws(Errno) in
            if try fd.status().st_mode & S_IFMT == S_IFDIR { throw Errno(call: "read", code: EISDIR) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while bytes.count <= largestFile {
                let n = try fd.read(into: &buffer)
                if n == 0 { break }
                bytes.append(contentsOf: buffer[..<n])
            }
            return bytes
        }
    }
}

extension MessagesFile {
    /// The file's table as a view's messages, as written: an action it
    /// lacks falls back to its "default" action, one without a working
    /// message shows nothing.
    package var progressMessages: [String: ProgressMessages] {
        actions.mapValues { entry in
            var messages: ProgressMessages = [:]
            messages[.working] = entry.working
            messages[.success] = entry.success
            messages[.failure] = entry.failure
            return messages
        }
    }
}
