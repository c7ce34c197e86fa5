import HostSystem

/// A value of the presenter thread's alone, checked on every access: a get
/// or set from any other thread stops the process, in release builds too
/// (NIO's `NIOLoopBound`), instead of a debug `assert` called by hand.
///
/// Once the presenter thread has exited, ``PresenterThread/sync(_:)`` runs
/// its body on the caller's thread, which then stands in for it (nothing
/// else runs then): the value may be touched there too.
///
/// One box per owner, its state one value (``RuntimeState``,
/// ``Screenlet``'s), not one per field: a frame's function checks the
/// thread once, in ``with(_:)``, where a box a field made a spinner's frame
/// check and retain some thirty times (5,641 host instructions a frame, from
/// 4,374).
// Unchecked: the check above is made at run time, where the compiler cannot.
final class PresenterBound<Value>: @unchecked Sendable {
    private let thread: PresenterThread
    /// The presenter thread, as a value: the check's common case is one
    /// comparison, with no reference to follow.
    private let owner: ThreadIdentity
    /// Not checked for exclusive access at run time: the thread check
    /// already keeps every access on one thread, and the dynamic check's
    /// bookkeeping (a thread-local access set, at each get and set) was
    /// most of a frame's added cost.
    @exclusivity(unchecked) private var stored: Value

    /// Binds `value` to `thread`; may be made on any thread, as it is not
    /// read there.
    init(_ value: Value, to thread: PresenterThread) {
        stored = value
        self.thread = thread
        owner = thread.identity
    }

    /// The value, for one read or change; presenter thread only. Read in
    /// place (`_read`), not copied whole for the one field asked.
    var value: Value {
        @inline(__always) _read {
            check()
            yield stored
        }
        @inline(__always) _modify {
            check()
            yield &stored
        }
    }

    /// Runs `body` with the value to read and change, the thread checked
    /// once for all it does; presenter thread only. `body` must not reach
    /// this box again (a call out to a presenter, a view or the backend may,
    /// through the owner's methods): it is not checked for overlapping
    /// access, so such calls go outside it.
    @inline(__always) func with<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        check()
        return try body(&stored)
    }

    @inline(__always) private func check() {
        if _fastPath(owner.isCurrent) { return }
        precondition(thread.mayTouchItsState, "presenter thread only")
    }
}
