import Foundation
import PresenterHost

/// A backend whose size a test sets (the runtime reads it before each frame).
final class ResizableBackend: RenderBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var _size: (cols: Int, rows: Int)
    init(cols: Int, rows: Int) { _size = (cols, rows) }
    var size: (cols: Int, rows: Int) {
        get { lock.withLock { _size } }
        set { lock.withLock { _size = newValue } }
    }
    var flags: ViewFlags { [.unicode, .animated] }
    func present(_ canvas: Canvas) {}
    func event(_ event: ProgressEvent) {}
    func printAbove(_ text: String) {}
    func finish() {}
}
