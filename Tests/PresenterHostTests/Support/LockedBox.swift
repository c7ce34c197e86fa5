import Synchronization

/// A value shared between threads in tests.
final class LockedBox<Value>: Sendable {
    private let stored: Mutex<Value>
    init(_ value: sending Value) { stored = Mutex(value) }
    var value: Value { stored.withLock { $0 } }
    func mutate(_ body: (inout Value) -> Void) { stored.withLock { body(&$0) } }
}
