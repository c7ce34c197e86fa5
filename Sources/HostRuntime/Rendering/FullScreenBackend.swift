import Dispatch
import Glibc
import HostSystem
import HostText

/// Draws a view on a terminal's whole alternate screen, for a screen that
/// takes the terminal over (the Add Bookmark form), and sets the modes its
/// keys are read in (``TerminalInput`` reads them).
///
/// - The first frame switches to the alternate screen and puts the terminal
///   in raw mode (no echo, no line editing, no signals from keys: Ctrl-C and
///   Ctrl-Z arrive as keys, so the screen itself restores the terminal
///   before it leaves or stops), with the cursor hidden and bracketed paste
///   on (``ScreenFrameEncoder``).
/// - ``suspend()`` and ``finish()`` give it all back: the user's screen,
///   the cursor, the terminal's settings as they were, even after a write
///   failed or stalled (frames are dropped then, never that). The next frame
///   after a suspension takes the screen again and draws it all.
/// - Only a foreground job draws; a resize (``refresh()``) redraws everything,
///   and a frame laid out for the size before it is never drawn.
/// - ``printAbove(_:)`` has nowhere to print while the screen is taken: the
///   text is dropped (the runtime's log goes to `--log`).
package final class FullScreenBackend: RenderBackend {
    private let output: FileDescriptor
    private let input: FileDescriptor
    private let viewFlags: ViewFlags
    private let isForeground: @Sendable () -> Bool
    private var terminalSize: (cols: Int, rows: Int)
    private var encoder: ScreenFrameEncoder
    private var savedSettings: termios?
    private var entered = false
    private var resizeToken: UInt64?
    private var resizeHandler: (@Sendable () -> Void)?
    private var broken = false

    /// A backend drawing on `output` and setting the modes of the terminal
    /// `input` reads from (the same terminal, normally stderr and stdin).
    package init(
        output: FileDescriptor = .standardError, input: FileDescriptor = .standardInput, color: Bool, unicode: Bool,
        isForeground: (@Sendable () -> Bool)? = nil
    ) {
        self.output = output
        self.input = input
        var flags: ViewFlags = [.animated, .interactive]
        if unicode { flags.insert(.unicode) }
        if color { flags.insert(.color) }
        viewFlags = flags
        self.isForeground = isForeground ?? { TerminalShim.isForeground(output) }
        encoder = ScreenFrameEncoder(colorEnabled: color)
        terminalSize = TerminalShim.windowSize(output) ?? (80, 24)
    }

    /// The whole terminal, as last read (80 × 24 when it cannot be read).
    package var size: (cols: Int, rows: Int) { terminalSize }
    /// What the terminal can show, as given at init.
    package var flags: ViewFlags { viewFlags }

    /// Draws `canvas` on the alternate screen, entering it at the first frame;
    /// nothing while in the background.
    package func present(_ canvas: Canvas) {
        guard isForeground() else { return }
        // A frame laid out for another size would wrap at the edge: it is
        // dropped, and the runtime is asked to lay the view out again (as
        // after SIGWINCH, which may have come before anyone listened).
        if let current = TerminalShim.windowSize(output),
            current != terminalSize
                || canvas.cols != terminalSize.cols || canvas.rows != terminalSize.rows
        {
            terminalSize = current
            encoder.invalidate()
            resizeHandler?()
            return
        }
        if !entered { enter() }
        write(encoder.frame(canvas))
    }

    /// Nothing: the screen shows what happens in its frames.
    package func event(_ event: ProgressEvent) {}
    /// Nothing: there is no "above" on a whole screen, and a line written
    /// there would break its frame.
    package func printAbove(_ text: String) {}

    /// Reads the size again; the next frame draws every cell.
    package func refresh() {
        terminalSize = TerminalShim.windowSize(output) ?? terminalSize
        encoder.invalidate()
    }

    /// Calls `handler` on SIGWINCH and SIGCONT (the first handler only).
    package func watchResize(_ handler: @escaping @Sendable () -> Void) {
        guard resizeToken == nil else { return }
        resizeHandler = handler
        resizeToken = ResizeSignal.watch(handler)
    }

    /// Gives the user's screen back (Ctrl-Z); the next frame enters again.
    package func suspend() { leave() }

    /// Stops watching resizes and gives the user's screen back.
    package func finish() {
        if let resizeToken { ResizeSignal.stopWatching(resizeToken) }
        resizeToken = nil
        leave()
    }

    private func enter() {
        broken = false
        savedSettings = TerminalShim.enableRawMode(input)
        write(encoder.enter())
        entered = true
    }

    private func leave() {
        guard entered else { return }
        entered = false
        // Whatever happened to the frames: the terminal must be given back.
        broken = false
        write(encoder.leave())
        if let savedSettings { TerminalShim.restore(input, savedSettings) }
        savedSettings = nil
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !broken else { return }
        broken = !TerminalShim.writeAll(output, bytes)
    }
}
