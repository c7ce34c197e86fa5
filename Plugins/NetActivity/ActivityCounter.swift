import PresenterSDK
import Synchronization

/// The interactors in flight across every NetActivity instance (every view)
/// in the process: the one counter the original shares, but keyed by
/// interactor id so that it never goes below zero and a repeated hide is
/// ignored.
final class ActivityCounter: Sendable {
    /// The counter of this plugin library.
    static let shared = ActivityCounter()

    private struct State {
        /// In-flight interactor ids and the instance that showed each.
        var inFlight: [UInt64: ObjectIdentifier] = [:]
        /// The live instances, to wake when the indicator appears or goes.
        var watchers: [ObjectIdentifier: Watcher] = [:]
    }

    /// A live instance's host, kept to wake it.
    // Safe: only used inside a hook on the presenter thread, and the host
    // ignores a service called from anywhere else.
    private struct Watcher: @unchecked Sendable { let host: Host }

    // Hooks run on one thread, but nothing in the ABI forbids a host from
    // using several presenter threads, so the shared state is locked anyway.
    private let state = Mutex(State())

    /// How many interactors are in flight.
    var count: Int { state.withLock { $0.inFlight.count } }

    /// Registers a live instance.
    func watch(_ owner: ObjectIdentifier, host: Host) {
        let watcher = Watcher(host: host)
        state.withLock { $0.watchers[owner] = watcher }
    }

    /// Forgets an instance and the interactors it showed (its view is gone).
    func unwatch(_ owner: ObjectIdentifier) {
        wakeOthers(
            if: state.withLock { state in
                let before = state.inFlight.count
                state.watchers[owner] = nil
                state.inFlight = state.inFlight.filter { $0.value != owner }
                return before > 0 && state.inFlight.isEmpty
            }, except: owner)
    }

    /// Counts interactor `id` as in flight; a second show of it changes nothing.
    func begin(_ id: UInt64, owner: ObjectIdentifier) {
        wakeOthers(
            if: state.withLock { state in
                state.inFlight.updateValue(owner, forKey: id) == nil && state.inFlight.count == 1
            }, except: owner)
    }

    /// Ends interactor `id`; an id that is not in flight (never shown, or
    /// already ended) is ignored.
    func end(_ id: UInt64, owner: ObjectIdentifier) {
        wakeOthers(
            if: state.withLock { state in
                state.inFlight.removeValue(forKey: id) != nil && state.inFlight.isEmpty
            }, except: owner)
    }

    /// When the indicator appears or goes, every other view must redraw; the
    /// host renders the caller's view after its hook anyway.
    private func wakeOthers(if changed: Bool, except owner: ObjectIdentifier) {
        guard changed else { return }
        let others = state.withLock { $0.watchers.filter { $0.key != owner }.map(\.value) }
        for watcher in others { watcher.host.requestFrame(at: 0) }
    }
}
