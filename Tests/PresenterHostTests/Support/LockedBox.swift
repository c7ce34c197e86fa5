import HostSystem

/// A value shared between threads in tests, in a pthread mutex
/// (``LockedValue``): ThreadSanitizer does not see `Synchronization.Mutex`'s
/// lock on Linux, and reported this box's value as a race.
final class LockedBox<Value>: Sendable {
    private let stored: LockedValue<Value>
    init(_ value: sending Value) { stored = LockedValue(value) }
    var value: Value { stored.withLock { $0 } }
    func mutate(_ body: (inout Value) -> Void) { stored.withLock { body(&$0) } }
}
