import HostSystem
import Synchronization

/// The `presenter_context *` and `presenter_view *` pointers this process
/// gave plugins and has not freed, by address, with what a host service
/// needs to refuse a call without touching the object behind the pointer.
///
/// A plugin may keep a pointer past its hook (the ABI forbids it) and call a
/// service with it from a thread of its own, even after its instance was
/// destroyed and freed. So a service first finds the pointer here (under a
/// lock, by number: nothing is dereferenced), then checks the thread and
/// the hook through the entry's ``HookScope``, and only then turns the
/// pointer into its object. A freed pointer is not here any more: the call
/// is ignored, and nothing freed is read.
enum LiveHandles {
    /// What is known of a live handle without touching its object.
    struct Entry: Sendable {
        /// The plugin the handle belongs to (the top of the chain, for a view).
        let presenterId: String
        /// Whether its engine is in a hook on the calling thread.
        let scope: HookScope
        /// Where a refused call is noted.
        let misuses: ServiceMisuses
    }

    /// By address. Inside a pthread mutex (``LockedValue``), as the host's
    /// every lock: this table is there for plugin threads, which nothing
    /// else orders, and ThreadSanitizer must see its lock.
    private static let table = LockedValue<[UInt: Entry]>([:])

    /// Records `pointer` as live, until ``remove(_:)``.
    static func add(_ pointer: OpaquePointer, _ entry: Entry) {
        table.withLock { $0[UInt(bitPattern: pointer)] = entry }
    }

    /// Forgets `pointer`: its object is being freed.
    static func remove(_ pointer: OpaquePointer) {
        _ = table.withLock { $0.removeValue(forKey: UInt(bitPattern: pointer)) }
    }

    /// The entry of a live `pointer`; nil for NULL, a freed pointer, or one
    /// this process never gave out.
    static func entry(_ pointer: OpaquePointer?) -> Entry? {
        guard let pointer else { return nil }
        return table.withLock { $0[UInt(bitPattern: pointer)] }
    }
}

/// One engine's hook state, readable from any thread: which thread is the
/// engine's, and whether a hook runs on it now. Plugin threads read it to
/// be refused; the engine's thread changes it around every hook.
final class HookScope: Sendable {
    private let isEngineThread: @Sendable () -> Bool
    /// Hooks running now (a base_* call nests one in another). Changed on
    /// the engine's thread only; atomic so that other threads may read it.
    private let depth = Atomic<Int>(0)

    init(isEngineThread: @escaping @Sendable () -> Bool) {
        self.isEngineThread = isEngineThread
    }

    /// True on the engine's thread while a hook runs: the only time a host
    /// service may act.
    var isInHook: Bool { isEngineThread() && depth.load(ordering: .relaxed) > 0 }

    /// Where a service call that is not inside a hook came from, for its note.
    var placeOfCall: String { isEngineThread() ? "outside a hook" : "from another thread" }

    /// A hook starts (the engine's thread).
    func enter() { depth.add(1, ordering: .relaxed) }

    /// A hook ended; returns true when it was the outermost one.
    func leave() -> Bool { depth.subtract(1, ordering: .relaxed).newValue == 0 }
}
