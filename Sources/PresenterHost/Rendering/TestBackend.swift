import Foundation

/// A backend for exact-screen tests: a fixed size, the last frame kept as
/// text lines, every frame, event and printed text counted or kept.
///
/// Safe to read from any thread (tests read it while the presenter thread
/// writes); read after ``PresenterRuntime/waitUntilSettled(timeout:)`` or
/// inside ``PresenterRuntime/sync(_:)`` for a stable picture.
public final class TestBackend: RenderBackend, @unchecked Sendable {
    private let lock = NSLock()
    private let fixedSize: (cols: Int, rows: Int)
    private let fixedFlags: ViewFlags
    private var _canvas: Canvas
    private var _frameCount = 0
    private var _events: [ProgressEvent] = []
    private var _printed: [String] = []
    private var _finished = false

    /// A `cols` × `rows` view with `flags` (by default Unicode and animated,
    /// like a terminal, without keys or colour).
    public init(cols: Int = 40, rows: Int = 5, flags: ViewFlags = [.unicode, .animated]) {
        fixedSize = (cols, rows)
        fixedFlags = flags
        _canvas = Canvas(cols: cols, rows: rows)
    }

    public var size: (cols: Int, rows: Int) { fixedSize }
    public var flags: ViewFlags { fixedFlags }

    /// The last frame presented (blank before the first).
    public var canvas: Canvas { locked { _canvas } }
    /// The last frame as text lines, trailing blanks removed.
    public var lines: [String] { canvas.lines() }
    /// The last frame as one string, lines joined with "\n".
    public var screen: String { lines.joined(separator: "\n") }
    /// How many frames were presented.
    public var frameCount: Int { locked { _frameCount } }
    /// Every event received, in order.
    public var events: [ProgressEvent] { locked { _events } }
    /// Every text given to ``printAbove(_:)``, in order.
    public var printed: [String] { locked { _printed } }
    /// True once ``finish()`` was called.
    public var isFinished: Bool { locked { _finished } }

    public func present(_ canvas: Canvas) {
        locked {
            _canvas = canvas; _frameCount += 1
        }
    }
    public func event(_ event: ProgressEvent) { locked { _events.append(event) } }
    public func printAbove(_ text: String) { locked { _printed.append(text) } }
    public func finish() { locked { _finished = true } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
