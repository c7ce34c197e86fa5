import Dispatch
import Glibc
import HostSystem
import HostText

/// Draws the view in a region of rows at the bottom of a terminal, below
/// whatever was printed before (the output of `run`'s command).
///
/// - The region is reserved at the first non-blank frame below the cursor's
///   line, which is kept as it is (a prompt or unfinished line stays), drawn
///   with relative cursor moves only (no query is ever sent to the terminal),
///   and the cursor is hidden while it exists (``TerminalFrameEncoder``).
/// - Each frame is one buffer and one write(2); a frame that changes nothing
///   writes nothing.
/// - The view is one column narrower than the terminal: nothing is ever
///   written in the last column, so no terminal wraps or scrolls under us.
/// - Typed characters are not echoed while the region exists (they would
///   land in it); echo is the one setting the host changes, and it is
///   given back when the region goes only while the settings are still the
///   host's (``TerminalEcho``): the terminal's settings are the command's.
/// - While the command has the terminal in a mode for reading a password or
///   a key (echo off, or non-canonical input, set by the command), the
///   region steps aside: it is taken off, as on ``suspend()``, and drawn
///   again once the command is done asking (checked at every frame).
/// - Only a foreground job draws: when the terminal's foreground process
///   group is not ours (`run … &`, Ctrl-Z then `bg`) the region is taken off
///   as on ``suspend()`` and nothing is drawn, the cursor is left alone and
///   the terminal's settings are not touched (that would stop us with
///   SIGTTOU). The next frame in the foreground draws it all again; a view
///   that does not animate is redrawn through the ``watchResize(_:)``
///   handler once we are the foreground job again (``ForegroundWatch``).
/// - A frame drawn for the old size after the terminal was resized would
///   land on rows the terminal has rewrapped, so it is skipped; the resize
///   (``refresh()``) redraws everything.
/// - ``finish()`` erases the region, shows the cursor and leaves it where it
///   was when the region came: nothing is left behind, and only the
///   region's own rows are ever touched (``TerminalFrameEncoder``);
///   ``finish(keeping:)`` then writes the outcome's final look there, as
///   lines that stay.
package final class TerminalBackend: RenderBackend {
    private let fd: FileDescriptor
    private let writer: TerminalWriter
    private let regionRows: Int
    private let fixedTerminalSize: (cols: Int, rows: Int)?
    private let viewFlags: ViewFlags
    private let isForeground: @Sendable () -> Bool
    private var terminalSize: (cols: Int, rows: Int)
    private var encoder: TerminalFrameEncoder
    private var lastCanvas: Canvas?
    /// Echo, turned off while the region is shown, and what the settings
    /// say of the command; read when the backend is made, before the command starts.
    private var echo: TerminalEcho
    private var resizeToken: UInt64?
    private var redrawHandler: (@Sendable () -> Void)?
    /// The bytes of the command's unfinished line not shown yet (``showsPrompts(from:)``).
    private var prompt: (@Sendable () -> [UInt8])?
    private var foregroundWatch: ForegroundWatch?
    private var broken = false
    /// OSC 9;4 for the terminal's own progress, when wanted (``TerminalProgress``).
    private var terminalProgress: TerminalProgress?
    /// A region was drawn (the cursor hidden) at least once: ``finish()``
    /// then has ``TerminalFlushRepair`` show it again on a late Ctrl-C.
    private var drewRegion = false
    /// The region was on the screen after the last write.
    private var regionShown = false
    /// The terminal progress was cleared by ``suspend()``: shown again at the next frame.
    private var progressSuspended = false

    /// Where the keys whose echo the host's echo-off swallowed are counted
    /// (``SwallowedKey``); a test gives its own.
    var swallowedKeys: @Sendable () -> UInt64 {
        get { echo.keys }
        set { echo.keys = newValue }
    }

    /// How many write(2) batches were sent (one per frame that changed something).
    package private(set) var writeCount = 0
    /// How many bytes were written in all.
    package private(set) var byteCount = 0

    /// A backend drawing on `fd`.
    ///
    /// - Parameters:
    ///   - regionRows: the height of the region (capped by the terminal's).
    ///   - color: write colour codes (see ``ColorMode``); attributes are always written.
    ///   - unicode: the view can show Unicode (see ``TerminalEnvironment/isUnicode(_:)``).
    ///   - interactive: keys reach the view (the caller reads them and calls
    ///     ``PresenterRuntime/key(_:)``).
    ///   - terminalSize: a fixed terminal size; `nil` reads it from `fd`
    ///     (TIOCGWINSZ, else `COLUMNS`/`LINES`, else 80 × 24).
    ///   - silenceInput: turn echo off while the region exists. Either way
    ///     the terminal's settings are read now: make the backend before the
    ///     command starts.
    ///   - isForeground: whether we may draw now, asked before every write
    ///     (and, while a view waits in the background, from another thread);
    ///     `nil` asks the terminal whether its foreground process group is
    ///     ours (one ioctl). Tests pass their own.
    ///   - terminalProgress: also show the actions' progress with OSC 9;4
    ///     (see ``TerminalProgress``), cleared by ``suspend()`` and ``finish()``.
    package init(
        fd: FileDescriptor = .standardError, regionRows: Int = 5, color: Bool, unicode: Bool,
        interactive: Bool = false, terminalSize: (cols: Int, rows: Int)? = nil, silenceInput: Bool = true,
        isForeground: (@Sendable () -> Bool)? = nil, terminalProgress: Bool = false
    ) {
        if terminalProgress { self.terminalProgress = TerminalProgress() }
        self.fd = fd
        writer = TerminalWriter(fd)
        self.regionRows = max(1, regionRows)
        self.fixedTerminalSize = terminalSize
        self.isForeground = isForeground ?? { TerminalShim.isForeground(fd) }
        var flags: ViewFlags = [.animated]
        if unicode { flags.insert(.unicode) }
        if interactive { flags.insert(.interactive) }
        if color { flags.insert(.color) }
        viewFlags = flags
        let size = Self.readTerminalSize(fd: fd, fixed: terminalSize)
        encoder = TerminalFrameEncoder(colorEnabled: color, terminalColumns: size.cols)
        self.terminalSize = size
        echo = TerminalEcho(fd: fd, silences: silenceInput)
    }

    deinit { foregroundWatch?.cancel() }

    /// The region: one column short of the terminal's width (a full row
    /// would wrap at the edge), at most `regionRows` and one less than its height.
    package var size: (cols: Int, rows: Int) {
        (max(0, terminalSize.cols - 1), min(regionRows, max(1, terminalSize.rows - 1)))
    }

    /// What the terminal can show, as given at init.
    package var flags: ViewFlags { viewFlags }

    /// Draws `canvas` in the region below the output; in the background it
    /// takes the region off instead, to draw again in the foreground.
    package func present(_ canvas: Canvas) {
        lastCanvas = canvas
        guard isForeground() else { return leaveScreen() }
        if progressSuspended, var progress = terminalProgress {
            progressSuspended = false
            write(progress.restoring())
            terminalProgress = progress
        }
        guard !resizedSinceRefresh() else { return }
        let modes = echo.read()
        guard !stepsAside(modes) else { return }
        send(encoder.frame(canvas), modes: modes)
    }

    /// True when the command has the terminal in a mode for reading a
    /// password or a key (`modes`: its local modes now): the region is taken
    /// off, the cursor shown, echo left as the command set it, the prompt
    /// shown, and nothing is drawn until the command is done asking.
    private func stepsAside(_ modes: tcflag_t?) -> Bool {
        guard echo.commandIsAsking(modes) else { return false }
        write(encoder.stepAside() + (prompt?() ?? []))
        regionShown = false
        return true
    }

    /// Where the command's prompt comes from, when its output is read (in a
    /// terminal, `run` reads it): `unshown` gives the bytes of its unfinished
    /// line not shown yet, and counts them as shown. While the command asks
    /// the user something they are written at every frame where the cursor
    /// is, where a terminal would have shown them: `read -s -p "Password: "`
    /// writes its prompt on stderr. Call it on the presenter thread
    /// (``PresenterRuntime/showsPrompts(from:)`` does).
    package func showsPrompts(from unshown: @escaping @Sendable () -> [UInt8]) {
        prompt = unshown
    }

    /// The frames show the progress; the terminal's own progress (OSC 9;4)
    /// follows the events when it is wanted.
    package func event(_ event: ProgressEvent) {
        guard var progress = terminalProgress else { return }
        let bytes = progress.bytes(for: event)
        terminalProgress = progress
        if !progressSuspended && isForeground() { write(bytes) }
    }

    /// Clears the terminal's own progress (before the region goes).
    private func clearTerminalProgress() {
        guard var progress = terminalProgress else { return }
        let bytes = progress.clearing()
        terminalProgress = progress
        write(bytes)
    }

    /// Erases the region, writes `text` where the cursor was before the
    /// region came (so it continues an unfinished line as it would without
    /// us), and reserves and draws the region again below it.
    package func printAbove(_ text: String) {
        guard !text.isEmpty else { return }
        var lines = Array(text.utf8)
        if !text.hasSuffix("\n") { lines.append(UInt8(ascii: "\n")) }
        guard isForeground() else {
            leaveScreen()
            return write(lines)
        }
        var bytes = encoder.clearRegion() + lines
        // A canvas laid out for another size waits for the next frame; so
        // does the region while the command asks the user something.
        let modes = echo.read()
        if let lastCanvas, !resizedSinceRefresh(), lastCanvas.cols == size.cols, lastCanvas.rows == size.rows,
            !echo.commandIsAsking(modes)
        {
            bytes += encoder.frame(lastCanvas)
        }
        send(bytes, modes: modes)
    }

    /// Reads the terminal's size again; the next frame redraws the region.
    package func refresh() {
        terminalSize = Self.readTerminalSize(fd: fd, fixed: fixedTerminalSize)
        encoder.resized(terminalColumns: terminalSize.cols)
    }

    /// `handler` is also called after SIGCONT (see ``ResizeSignal``: the
    /// terminal may have changed while we were stopped) and when we become
    /// the foreground job again while a view waits to be shown.
    package func watchResize(_ handler: @escaping @Sendable () -> Void) {
        guard redrawHandler == nil else { return }
        redrawHandler = handler
        if fixedTerminalSize == nil { resizeToken = ResizeSignal.watch(handler) }
    }

    /// Takes the region off before the host stops (Ctrl-Z); the next frame
    /// draws it again.
    package func suspend() {
        // Until the next frame, lines printed above (a log line, the
        // command's output) come without the region: redrawn, it would turn
        // echo off and hide the cursor again in a process about to stop, and
        // a job then continued in the background (`bg`) cannot set echo back.
        lastCanvas = nil
        guard isForeground() else { return leaveScreen() }
        clearTerminalProgress()
        progressSuspended = terminalProgress != nil
        send(encoder.clearRegion())
    }

    /// Takes the region off and sets the terminal back: nothing stays.
    package func finish() { finish(keeping: nil) }

    /// As ``finish()``, and `look`'s rows are written where the cursor was
    /// before the region came, in the same write that takes the region off
    /// (``TerminalFrameEncoder/clearRegion(keeping:)``), whether a region
    /// was drawn or not (within `--grace`, or a view with no column). In the
    /// background nothing is written: the cursor is not ours there.
    package func finish(keeping look: Canvas?) {
        if let resizeToken { ResizeSignal.stopWatching(resizeToken) }
        resizeToken = nil
        foregroundWatch?.cancel()
        foregroundWatch = nil
        lastCanvas = nil
        guard isForeground() else { return leaveScreen() }
        guard drewRegion else {
            clearTerminalProgress()
            return send(encoder.clearRegion(keeping: look))
        }
        // Armed from before the last bytes go out, not after: once they are
        // queued a key may discard them at any moment, and its signal must
        // find the repair ready. Armed after, a host preempted between the
        // write and the arming (or restoring echo meanwhile) left the cursor
        // hidden (the soak's seed 679762815, runs 17496 and 19428).
        TerminalFlushRepair.arming(terminal: fd, clearsTerminalProgress: terminalProgress != nil) {
            clearTerminalProgress()
            send(encoder.clearRegion(keeping: look))
        }
    }

    /// In the foreground: writes `bytes`, with echo off while the region
    /// exists (`modes`: the local modes just read, if they were), and
    /// given back once it is gone, with the echo of a key that the host's
    /// echo-off swallowed (``TerminalEcho/giveBack()``).
    private func send(_ bytes: [UInt8], modes: tcflag_t? = nil) {
        if encoder.isReserved {
            // Before the region's first bytes; not again while it stays (a
            // command that turns echo on then wants it, and after a crash
            // the rescue's settings must stay).
            if !regionShown { echo.silence(modes ?? echo.read()) }
            drewRegion = true
            TerminalFlushRepair.disarm()
        }
        write(bytes)
        regionShown = encoder.isReserved
        if !regionShown { write(echo.giveBack()) }
    }

    /// In the background: takes the region off if it is shown and writing
    /// cannot stop us (TOSTOP off), else forgets it. Echo stays as it is:
    /// setting it from the background would stop us; it is given back once
    /// we are in the foreground without a region again.
    private func leaveScreen() {
        if encoder.isReserved {
            if TerminalShim.allowsBackgroundWrites(fd) { write(encoder.clearRegion()) } else { encoder.forget() }
        }
        regionShown = false
        // Something to show: be told when it can be shown.
        if let redrawHandler, let lastCanvas, !lastCanvas.isBlank, foregroundWatch?.isWaiting != true {
            foregroundWatch = ForegroundWatch(isForeground: isForeground, then: redrawHandler)
        }
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !broken else { return }
        writeCount += 1
        byteCount += bytes.count
        broken = !writer.write(bytes)
    }

    /// True when the terminal's size is no longer the one the region is laid
    /// out for: SIGWINCH is on its way. Re-reads it and makes the next frame
    /// a full redraw. Never true for a fixed size or a stream with no size.
    private func resizedSinceRefresh() -> Bool {
        guard fixedTerminalSize == nil, let current = TerminalShim.windowSize(fd),
            current != terminalSize
        else { return false }
        refresh()
        return true
    }

    private static func readTerminalSize(fd: FileDescriptor, fixed: (cols: Int, rows: Int)?) -> (cols: Int, rows: Int) {
        if let fixed { return fixed }
        if let size = TerminalShim.windowSize(fd) { return size }
        let environment = ProcessEnvironment.current
        return (Int(environment["COLUMNS"] ?? "") ?? 80, Int(environment["LINES"] ?? "") ?? 24)
    }
}
