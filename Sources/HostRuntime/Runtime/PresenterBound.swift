/// A value of the presenter thread's alone, checked on every access: a get
/// or set from any other thread stops the process, in release builds too
/// (NIO's `NIOLoopBound`), instead of a debug `assert` called by hand.
///
/// Once the presenter thread has exited, ``PresenterThread/sync(_:)`` runs
/// its body on the caller's thread, which then stands in for it (nothing
/// else runs then): the value may be touched there too.
// Unchecked: the check above is made at run time, where the compiler cannot.
final class PresenterBound<Value>: @unchecked Sendable {
    private let thread: PresenterThread
    private var stored: Value

    /// Binds `value` to `thread`; may be made on any thread, as it is not
    /// read there.
    init(_ value: Value, to thread: PresenterThread) {
        stored = value
        self.thread = thread
    }

    /// The value; presenter thread only.
    var value: Value {
        get {
            check()
            return stored
        }
        _modify {
            check()
            yield &stored
        }
    }

    private func check() {
        precondition(thread.mayTouchItsState, "presenter thread only")
    }
}
