import HostEngine
import HostRuntime

extension PresenterRuntime {
    /// Moves the runtime's ``ManualClock`` forward by `seconds`, rendering
    /// each frame that falls due on the way at its own time, and returns
    /// once done.
    public func advance(by seconds: Double) {
        advance(to: clock.now() + UInt64(max(0, seconds) * 1e9))
    }

    /// Moves the runtime's ``ManualClock`` to `time` (ns), rendering each
    /// frame that falls due on the way at its own time, and returns once done.
    public func advance(to time: UInt64) {
        // A test's own mistake, never input: a test double may stop it.
        guard let manual = clock as? ManualClock else {
            preconditionFailure("advance(to:) needs a runtime made with a ManualClock")
        }
        renderFrames(through: time, moving: manual.set)
    }
}
