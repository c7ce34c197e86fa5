import Synchronization

/// A flag shared between a test and the threads of the code under test; as
/// a backend's foreground predicate it stands in for the terminal's
/// foreground process group, and ``reads`` tells how often it was asked.
final class SharedFlag: Sendable {
    private let state: Mutex<(value: Bool, reads: Int)>
    init(_ value: Bool = true) { state = Mutex((value, 0)) }
    var isSet: Bool {
        get {
            state.withLock {
                $0.reads += 1
                return $0.value
            }
        }
        set { state.withLock { $0.value = newValue } }
    }
    /// How many times ``isSet`` was read so far.
    var reads: Int { state.withLock { $0.reads } }
}
