import HostRuntime
import HostText
import Synchronization

/// A backend for exact-screen tests: a fixed size, the last frame kept as
/// text lines, every frame, event and printed text counted or kept.
///
/// Safe to read from any thread (tests read it while the presenter thread
/// writes); read after ``PresenterRuntime/waitUntilSettled(timeout:)`` or
/// inside ``PresenterRuntime/sync(_:)`` for a stable picture.
public final class TestBackend: RenderBackend, Sendable {
    private struct State {
        var canvas: Canvas
        var frameCount = 0
        var events: [ProgressEvent] = []
        var printed: [String] = []
        var finished = false
        var kept: Canvas?
    }
    private let state: Mutex<State>
    private let fixedSize: (cols: Int, rows: Int)
    private let fixedFlags: ViewFlags

    /// A `cols` × `rows` view with `flags` (by default Unicode and animated,
    /// like a terminal, without keys or colour).
    public init(cols: Int = 40, rows: Int = 5, flags: ViewFlags = [.unicode, .animated]) {
        fixedSize = (cols, rows)
        fixedFlags = flags
        state = Mutex(State(canvas: Canvas(cols: cols, rows: rows)))
    }

    /// The size given at init; it never changes.
    public var size: (cols: Int, rows: Int) { fixedSize }
    /// The flags given at init.
    public var flags: ViewFlags { fixedFlags }

    /// The last frame presented (blank before the first).
    public var canvas: Canvas { state.withLock { $0.canvas } }
    /// The last frame as text lines, trailing blanks removed.
    public var lines: [String] { canvas.lines() }
    /// The last frame as one string, lines joined with "\n".
    public var screen: String { lines.joined(separator: "\n") }
    /// How many frames were presented.
    public var frameCount: Int { state.withLock { $0.frameCount } }
    /// Every event received, in order.
    public var events: [ProgressEvent] { state.withLock { $0.events } }
    /// Every text given to ``printAbove(_:)``, in order.
    public var printed: [String] { state.withLock { $0.printed } }
    /// True once ``finish()`` (or ``finish(keeping:)``) was called.
    public var isFinished: Bool { state.withLock { $0.finished } }
    /// What ``finish(keeping:)`` left on the screen: the rows of its look
    /// from the top through the last that is not blank, as text lines
    /// (trailing blanks removed); empty when nothing stays.
    public var keptLines: [String] {
        var lines = state.withLock { $0.kept }?.lines() ?? []
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Keeps `canvas` as the last frame and counts it.
    public func present(_ canvas: Canvas) {
        state.withLock {
            $0.canvas = canvas
            $0.frameCount += 1
        }
    }
    /// Keeps `event` in ``events``.
    public func event(_ event: ProgressEvent) { state.withLock { $0.events.append(event) } }
    /// Keeps `text` in ``printed``.
    public func printAbove(_ text: String) { state.withLock { $0.printed.append(text) } }
    /// Marks the backend finished (``isFinished``).
    public func finish() { state.withLock { $0.finished = true } }
    /// Marks the backend finished and keeps `look` (``keptLines``).
    public func finish(keeping look: Canvas?) {
        state.withLock {
            $0.finished = true
            $0.kept = look
        }
    }
}
