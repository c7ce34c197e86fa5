import Dispatch
import FoundationEssentials
import HostEngine
import HostRuntime
import HostSystem
import HostText

/// One source of driver lines (stdin, or one client of the socket) with its
/// own actions: ids are this source's own, so one client's lines never
/// touch another's actions. Lines come from one thread; ``wentAway()`` may
/// come from another (a signal), so the actions are under a lock.
// Safe: `actions`, `lineNumber` and `gone` only under `lock`; the rest is immutable.
final class DriveClient: @unchecked Sendable {
    /// The reason of the actions still open when the source ends.
    static let wentAwayReason = "the driver went away"
    /// The longest line read; a longer one is an error and skipped.
    static let longestLine = 65536

    /// How errors name the source: "stdin", "client 3".
    let name: String
    private let session: DriveSession
    /// Sends a line back to the source (a socket client), if it can get one.
    private let reply: ((String) -> Void)?
    private let lock = Lock()
    /// By the id's bytes: two ids that Swift's String equality takes as the
    /// same (`"é"` precomposed and decomposed) are two actions.
    private var actions: [[UInt8]: InteractorHandle] = [:]
    private var lineNumber = 0
    private var gone = false

    init(name: String, session: DriveSession, reply: ((String) -> Void)? = nil) {
        self.name = name
        self.session = session
        self.reply = reply
    }

    /// Handles one line; `nil` for one longer than ``longestLine``.
    func receive(_ line: [UInt8]?) {
        lock.withLock {
            lineNumber += 1
            guard !gone else { return }
            guard let line else {
                return reject("the line is longer than \(Self.longestLine) bytes")
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            do throws(DriveRequest.Invalid) {
                try apply(try DriveRequest.parse(line))
            } catch {
                reject(error.reason)
            }
        }
    }

    /// The source ended (or the driver is stopping): every action still
    /// open fails with ``wentAwayReason``.
    func wentAway() {
        lock.withLock {
            gone = true
            for (_, handle) in actions.sorted(by: { $0.value.id < $1.value.id }) {
                handle.fail(InteractorError(code: 1, domain: "driver", message: Self.wentAwayReason))
                session.ended(success: false)
            }
            actions.removeAll()
        }
    }

    private func apply(_ request: DriveRequest) throws(DriveRequest.Invalid) {
        let id = Array(request.id.utf8)
        if case .start(_, let action, let messages) = request {
            guard actions[id] == nil else { throw .init(reason: Self.alreadyRunning(request.id)) }
            let screenlet = session.screenlet
            actions[id] =
                messages.map {
                    screenlet.perform(action: action, interactorType: DriveSession.interactorType, messages: $0)
                } ?? screenlet.perform(action: action, interactorType: DriveSession.interactorType)
            return
        }
        guard let handle = actions[id] else { throw .init(reason: Self.notRunning(request.id)) }
        switch request {
        case .start:
            break
        case .progress(_, let fraction, let message):
            handle.report(fraction: fraction, message: message)
        case .succeed(_, let message):
            actions[id] = nil
            if let message { handle.succeed(message: message) } else { handle.succeed() }
            session.ended(success: true)
        case .fail(_, let message, let reason):
            actions[id] = nil
            let error = InteractorError(code: 1, domain: "driver", message: reason ?? "")
            if let message { handle.fail(error, message: message) } else { handle.fail(error) }
            session.ended(success: false)
        }
    }

    /// Reports a bad line (on the lock).
    private func reject(_ reason: String) {
        session.error("Error: \(name):\(lineNumber): \(reason); the line was skipped")
        reply?(Self.errorReply(line: lineNumber, reason: reason))
    }

    /// Why a start of the running `id` is refused. The id is the client's
    /// own text: escaped, so that it cannot write to the terminal.
    static func alreadyRunning(_ id: String) -> String {
        "action \"\(PrintableText.escaping(id))\" is already running; give each running action its own id"
    }

    /// Why a line about `id`, which is not running, is refused (the id escaped).
    static func notRunning(_ id: String) -> String {
        let shown = PrintableText.escaping(id)
        return "no running action \"\(shown)\"; start it first with {\"start\": \"\(shown)\", ...}"
    }

    /// `{"error": "...", "line": 3}` and a newline.
    static func errorReply(line: Int, reason: String) -> String {
        JSONValue.object(["error": .string(reason), "line": .int(line)]).serialized + "\n"
    }
}
