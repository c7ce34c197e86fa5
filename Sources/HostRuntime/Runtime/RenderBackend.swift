import HostText

/// Where frames go: a terminal, plain lines, or a test's memory.
///
/// The runtime calls every method on its presenter thread only, one at a
/// time; a backend needs no locking of its own for them. Code on other
/// threads goes through ``PresenterRuntime`` (for example
/// ``PresenterRuntime/printAbove(_:)``).
public protocol RenderBackend: AnyObject {
    /// The view's size in cells. The runtime sizes its canvas from it before
    /// each frame.
    var size: (cols: Int, rows: Int) { get }
    /// What the view can do (Unicode, keys, animation, colour).
    var flags: ViewFlags { get }
    /// Shows one frame. A backend that draws writes only what changed since
    /// the last frame, and nothing when nothing did.
    func present(_ canvas: Canvas)
    /// An action started or ended (plain-line backends print it).
    func event(_ event: ProgressEvent)
    /// Shows `text` (complete lines) above the view, e.g. a command's output.
    func printAbove(_ text: String)
    /// Re-reads the size and redraws everything at the next frame (after SIGWINCH).
    func refresh()
    /// Starts watching for size changes, calling `handler` (from any thread)
    /// after each, and whenever the view must be re-read and drawn again for
    /// another reason (a terminal backend: after SIGCONT, and when it becomes
    /// the foreground job again). Backends without a size to watch ignore it.
    func watchResize(_ handler: @escaping @Sendable () -> Void)
    /// Removes the view from the screen and restores the terminal for a
    /// while (job control); the next ``present(_:)`` draws it all again.
    /// It may come after ``finish()`` (Ctrl-Z as the run ends): there is
    /// nothing left to take off then.
    func suspend()
    /// Removes the view from the screen and restores the terminal: the last call.
    func finish()
    /// Removes the view and restores the terminal as ``finish()`` does, but
    /// leaves `look` on the screen: its rows from the top through the last
    /// one that is not blank (none when it is all blank, or `nil`), where a
    /// line printed then would go, the cursor on the line below them. The
    /// final look of the outcome (``PresenterRuntime/shutdown(keepingOutcome:)``):
    /// what the presenter drew in its last render, or ``OutcomeLine``. The
    /// last call, instead of ``finish()``.
    func finish(keeping look: Canvas?)
}

extension RenderBackend {
    /// Nothing to re-read by default.
    public func refresh() {}
    /// Nothing on a screen to take off by default.
    public func suspend() {}
    /// No size changes to watch by default.
    public func watchResize(_ handler: @escaping @Sendable () -> Void) {}
    /// Nothing stays on a backend that does not draw lines of its own: as ``finish()``.
    public func finish(keeping look: Canvas?) { finish() }
}
