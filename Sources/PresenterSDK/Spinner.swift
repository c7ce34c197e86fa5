/// An indeterminate spinner driven by the clock: the frame shown depends only
/// on the time since it started, so a late render never slows it down, and
/// the next frame is requested only for when the picture changes.
public struct Spinner: Sendable {
    /// The frames, one cell wide each.
    public let frames: [String]
    /// How long each frame shows, in nanoseconds.
    public let interval: UInt64

    /// The Braille spinner at 80 ms a frame, or `-\|/` where the view has no Unicode.
    public init(unicode: Bool) {
        frames = unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["-", "\\", "|", "/"]
        interval = 80_000_000
    }

    /// Custom frames; `interval` in nanoseconds (at least 1).
    public init(frames: [String], interval: UInt64) {
        precondition(!frames.isEmpty, "a spinner needs at least one frame")
        self.frames = frames
        self.interval = max(interval, 1)
    }

    /// The frame to show at `now` for a spinner started at `start`.
    public func frame(at now: UInt64, since start: UInt64) -> String {
        frames[Int((now &- min(start, now)) / interval % UInt64(frames.count))]
    }

    /// Draws the spinner started at `start` at (`col`, `row`) in at most
    /// `maxCols` columns. Where the host plays it itself (ABI 1.2's
    /// `draw_cycle`) it turns with no further render, and this returns nil;
    /// where it cannot (a table without the service, a spinner outside its
    /// rules) this draws the frame for `now` and returns when that changes:
    /// ask a frame for then (``Host/requestFrame(at:)``).
    @discardableResult
    public func draw(
        on view: View, col: Int, row: Int, maxCols: Int = Int(UInt32.max), style: View.Style = [],
        since start: UInt64, at now: UInt64
    ) -> UInt64? {
        // A spinner the service does not take (too fast, too many frames) turns by renders.
        if view.drawCycle(frames, col: col, row: row, maxCols: maxCols, style: style, start: start, interval: interval)
            != nil
        {
            return nil
        }
        view.drawText(frame(at: now, since: start), col: col, row: row, maxCols: maxCols, style: style)
        return nextChange(after: now, since: start)
    }

    /// When the frame shown at `now` changes: the time to ask a frame for.
    public func nextChange(after now: UInt64, since start: UInt64) -> UInt64 {
        let elapsed = now &- min(start, now)
        // Saturating, so a clock near UInt64.max cannot trap inside a plugin.
        let (step, overflowA) = (elapsed / interval + 1).multipliedReportingOverflow(by: interval)
        let (next, overflowB) = start.addingReportingOverflow(step)
        return overflowA || overflowB ? .max : next
    }
}
