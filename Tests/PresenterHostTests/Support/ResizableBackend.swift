import PresenterHost
import Synchronization

/// A backend whose size a test sets (the runtime reads it before each frame).
final class ResizableBackend: RenderBackend, Sendable {
    private let _size: Mutex<(cols: Int, rows: Int)>
    init(cols: Int, rows: Int) { _size = Mutex((cols, rows)) }
    var size: (cols: Int, rows: Int) {
        get { _size.withLock { $0 } }
        set { _size.withLock { $0 = newValue } }
    }
    var flags: ViewFlags { [.unicode, .animated] }
    func present(_ canvas: Canvas) {}
    func event(_ event: ProgressEvent) {}
    func printAbove(_ text: String) {}
    func finish() {}
}
