import Foundation

/// A flag shared between a test and the threads of the code under test; as
/// a backend's foreground predicate it stands in for the terminal's
/// foreground process group, and ``reads`` tells how often it was asked.
final class SharedFlag: @unchecked Sendable {  // every access holds the lock
    private let lock = NSLock()
    private var value: Bool
    private var readCount = 0
    init(_ value: Bool = true) { self.value = value }
    var isSet: Bool {
        get {
            lock.withLock {
                readCount += 1
                return value
            }
        }
        set { lock.withLock { value = newValue } }
    }
    /// How many times ``isSet`` was read so far.
    var reads: Int { lock.withLock { readCount } }
}
