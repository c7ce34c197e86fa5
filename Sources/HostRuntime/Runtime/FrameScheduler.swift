/// The frame cap: when the next frame may come, given the earliest time a
/// presenter (or the view, or a progress report) asked for one.
///
/// A requested frame comes at `max(requested time, last frame + 1/maxFPS)`;
/// frames that follow show, hide and key come at once and count as frames
/// for the cap. With no request there is no next frame: nothing ticks.
struct FrameScheduler {
    /// Nanoseconds between capped frames.
    let interval: UInt64
    /// When the last frame was rendered.
    private(set) var lastFrame: UInt64?

    init(maxFramesPerSecond: Int) {
        interval = 1_000_000_000 / UInt64(max(1, maxFramesPerSecond))
    }

    /// When the next frame is due for a request at `requested`, or `nil` without one.
    func due(for requested: UInt64?) -> UInt64? {
        guard let requested else { return nil }
        guard let lastFrame else { return requested }
        return max(requested, lastFrame + interval)
    }

    /// Records a frame rendered at `time`.
    mutating func rendered(at time: UInt64) { lastFrame = time }
}
