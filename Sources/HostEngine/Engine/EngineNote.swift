import HostSystem
import HostText

/// What an engine notices about how a presenter uses the ABI beyond what its
/// hooks return, as lines of the presenter log: host services called where
/// they do nothing (from another thread, outside a hook, drawing outside
/// render), drawing that reaches outside the view (clipped), and, when
/// tracing is on, every hook call with its arguments, duration and status.
///
/// Each line starts with a fixed tag, so `presenter-host check` can tell
/// them from the presenter's own log lines (a presenter that logs a tag
/// itself only confuses its own check).
package enum EngineNote {
    /// A hook call, traced: `trace: mbhud.show("Saving", #1 run -1) -> OK in 0.031 ms`.
    package static let traceTag = "trace: "
    /// A host service call the host ignored.
    package static let misuseTag = "ignored: "
    /// A drawing the host clipped to the view.
    package static let clippedTag = "clipped: "
    /// Drawings past what the host paints in one render, dropped.
    package static let droppedTag = "dropped: "

    /// The environment variable that turns tracing on (`1`; `--trace` sets
    /// it in the environment the command line passes down).
    package static let debugVariable = "PRESENTER_HOST_DEBUG"

    /// True when `environment` asks for tracing.
    package static func tracingEnabled(_ environment: [String: String] = ProcessEnvironment.current) -> Bool {
        guard let value = environment[debugVariable] else { return false }
        return !["", "0", "no", "false"].contains(value.lowercased())
    }

    /// `text` quoted for a trace line: escaped, and cut after 60
    /// characters (then with its length in bytes).
    static func quoted(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "NULL" }
        let value = String(cString: text)
        guard value.count > 60 else { return "\"" + PrintableText.escaping(value) + "\"" }
        return "\"" + PrintableText.escaping(String(value.prefix(60))) + "\"... (\(value.utf8.count) bytes)"
    }
}

/// Host service calls that did nothing, collected from any thread and
/// reported on the engine's thread at the end of the next hook.
final class ServiceMisuses: Sendable {
    private struct State {
        var pending: [(presenterId: String, text: String)] = []
        var seen = Set<String>()
    }

    private let state = LockedValue(State())

    /// Records that `presenterId` called `service` where it does nothing;
    /// each kind once per engine (a thread calling in a loop is one line).
    func note(_ presenterId: String, _ service: String, _ place: String) {
        let text = "\(service) was called \(place); the host ignored it"
        state.withLock { state in
            guard state.seen.insert(presenterId + "\u{0}" + text).inserted else { return }
            state.pending.append((presenterId, text))
        }
    }

    /// What was noted since the last call.
    func take() -> [(presenterId: String, text: String)] {
        state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
    }
}
