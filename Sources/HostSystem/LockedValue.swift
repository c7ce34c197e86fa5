/// A value that lives inside its lock, reachable only through
/// ``withLock(_:)``: NIO's `NIOLockedValueBox`, the shape of
/// `Synchronization.Mutex`, so that no `var` is guarded by a comment.
///
/// A pthread mutex (``Lock``), not `Mutex`: ThreadSanitizer does not see
/// `Mutex`'s lock on Linux (Swift 6.3.1: two threads changing a
/// `Mutex`-guarded dictionary are reported as a race), and the sanitizer
/// run must see every lock the host takes.
// Unchecked: `value` is touched only between the mutex's lock and unlock.
package final class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline var value: Value

    package init(_ value: sending Value) { self.value = value }

    /// Runs `body` holding the lock, with the value to read or change.
    @inlinable package func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
