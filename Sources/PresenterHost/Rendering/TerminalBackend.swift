import Foundation

/// Draws the view in a region of rows at the bottom of a terminal, below
/// whatever was printed before (the output of `run`'s command).
///
/// - The region is reserved at the first non-blank frame, drawn with relative
///   cursor moves only (no query is ever sent to the terminal), and the
///   cursor is hidden while it exists (``TerminalFrameEncoder``).
/// - Each frame is one buffer and one write(2); a frame that changes nothing
///   writes nothing.
/// - The view is one column narrower than the terminal: nothing is ever
///   written in the last column, so no terminal wraps or scrolls under us.
/// - Typed characters are not echoed while the region exists (they would
///   land in it); ``finish()`` restores the terminal's settings.
/// - ``finish()`` erases the region, shows the cursor and leaves it at the
///   region's top, column 0: nothing is left behind.
public final class TerminalBackend: RenderBackend {
    private let fd: Int32
    private let regionRows: Int
    private let fixedTerminalSize: (cols: Int, rows: Int)?
    private let viewFlags: ViewFlags
    private let silenceInput: Bool
    private var terminalSize: (cols: Int, rows: Int)
    private var encoder: TerminalFrameEncoder
    private var lastCanvas: Canvas?
    private var savedSettings: termios?
    private var resizeToken: UInt64?
    private var broken = false

    /// How many write(2) batches were sent (one per frame that changed something).
    public private(set) var writeCount = 0
    /// How many bytes were written in all.
    public private(set) var byteCount = 0

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
    ///   - silenceInput: turn echo off while the region exists.
    public init(fd: Int32 = STDERR_FILENO, regionRows: Int = 5, color: Bool, unicode: Bool,
                interactive: Bool = false, terminalSize: (cols: Int, rows: Int)? = nil, silenceInput: Bool = true) {
        self.fd = fd
        self.regionRows = max(1, regionRows)
        self.fixedTerminalSize = terminalSize
        self.silenceInput = silenceInput
        var flags: ViewFlags = [.animated]
        if unicode { flags.insert(.unicode) }
        if interactive { flags.insert(.interactive) }
        if color { flags.insert(.color) }
        viewFlags = flags
        encoder = TerminalFrameEncoder(colorEnabled: color)
        self.terminalSize = Self.readTerminalSize(fd: fd, fixed: terminalSize)
    }

    public var size: (cols: Int, rows: Int) {
        (max(0, terminalSize.cols - 1), min(regionRows, max(1, terminalSize.rows - 1)))
    }

    public var flags: ViewFlags { viewFlags }

    public func present(_ canvas: Canvas) {
        lastCanvas = canvas
        send(encoder.frame(canvas))
    }

    /// Does nothing: the frames show the progress.
    public func event(_ event: ProgressEvent) {}

    public func printAbove(_ text: String) {
        guard !text.isEmpty else { return }
        var bytes = encoder.clearRegion()
        bytes += Array(text.utf8)
        if !text.hasSuffix("\n") { bytes.append(UInt8(ascii: "\n")) }
        if let lastCanvas { bytes += encoder.frame(lastCanvas) }
        send(bytes)
    }

    public func refresh() {
        terminalSize = Self.readTerminalSize(fd: fd, fixed: fixedTerminalSize)
        encoder.invalidate()
    }

    public func watchResize(_ handler: @escaping @Sendable () -> Void) {
        guard resizeToken == nil, fixedTerminalSize == nil else { return }
        resizeToken = ResizeSignal.watch(handler)
    }

    public func suspend() {
        send(encoder.clearRegion())
    }

    public func finish() {
        if let resizeToken { ResizeSignal.stopWatching(resizeToken) }
        resizeToken = nil
        send(encoder.clearRegion())
        lastCanvas = nil
    }

    private func send(_ bytes: [UInt8]) {
        // Echo goes off with the region and comes back once it is gone.
        if encoder.isReserved, silenceInput, savedSettings == nil { savedSettings = TerminalShim.disableEcho(fd) }
        if !bytes.isEmpty, !broken {
            writeCount += 1
            byteCount += bytes.count
            broken = !TerminalShim.writeAll(fd, bytes)
        }
        if !encoder.isReserved, let settings = savedSettings {
            TerminalShim.restore(fd, settings)
            savedSettings = nil
        }
    }

    private static func readTerminalSize(fd: Int32, fixed: (cols: Int, rows: Int)?) -> (cols: Int, rows: Int) {
        if let fixed { return fixed }
        if let size = TerminalShim.windowSize(fd) { return size }
        let environment = ProcessInfo.processInfo.environment
        return (Int(environment["COLUMNS"] ?? "") ?? 80, Int(environment["LINES"] ?? "") ?? 24)
    }
}
