import Dispatch
import HostEngine
import HostRuntime
import HostSystem
import HostText

/// One source of driver lines (stdin, or one client of the socket) with its
/// own actions: ids are this source's own, so one client's lines never
/// touch another's actions. Lines come from one thread; ``wentAway()`` may
/// come from another (a signal), so the actions are under a lock.
final class DriveClient: Sendable {
    /// The reason of the actions still open when the source ends.
    static let wentAwayReason = "the driver went away"
    /// The longest line read; a longer one is an error and skipped.
    static let longestLine = 65536

    /// How errors name the source: "stdin", "client 3".
    let name: String
    private let session: DriveSession
    private struct State {
        /// By the id's bytes: two ids that Swift's String equality takes as
        /// the same (`"é"` precomposed and decomposed) are two actions.
        var actions: [[UInt8]: InteractorHandle] = [:]
        var lineNumber = 0
        var gone = false
        /// Sends a line back to the source (a socket client), if it can get one.
        let reply: ((String) -> Void)?
    }

    private let state: LockedValue<State>

    init(name: String, session: DriveSession, reply: sending ((String) -> Void)? = nil) {
        self.name = name
        self.session = session
        state = LockedValue(State(reply: reply))
    }

    /// Handles one line; `nil` for one longer than ``longestLine``.
    func receive(_ line: [UInt8]?) {
        state.withLock { state in
            state.lineNumber += 1
            guard !state.gone else { return }
            guard let line else {
                return reject("the line is longer than \(Self.longestLine) bytes", state)
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            do throws(DriveRequest.Invalid) {
                try apply(try DriveRequest.parse(line), &state.actions)
            } catch {
                reject(error.reason, state)
            }
        }
    }

    /// The source ended (or the driver is stopping): every action still
    /// open fails with ``wentAwayReason``.
    func wentAway() {
        state.withLock { state in
            state.gone = true
            for (_, handle) in state.actions.sorted(by: { $0.value.id < $1.value.id }) {
                handle.fail(InteractorError(code: 1, domain: "driver", message: Self.wentAwayReason))
                session.ended(success: false)
            }
            state.actions.removeAll()
        }
    }

    private func apply(
        _ request: DriveRequest, _ actions: inout [[UInt8]: InteractorHandle]
    ) throws(DriveRequest.Invalid) {
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
    private func reject(_ reason: String, _ state: State) {
        session.error("Error: \(name):\(state.lineNumber): \(reason); the line was skipped")
        state.reply?(Self.errorReply(line: state.lineNumber, reason: reason))
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
