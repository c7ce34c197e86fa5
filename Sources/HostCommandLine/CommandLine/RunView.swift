import HostRuntime
import HostSystem
import HostText
import PresenterABI

/// The view of `presenter-host run`: the bottom region of the terminal, below
/// the command's output, with the messages of `--messages FILE` or of
/// `--working/--success/--failure` (the presenter the user chose is the
/// session's resolved chain, given when the view is attached).
///
/// With `--output tail=N` its last N rows are not the presenter's: they show
/// the command's last N whole lines as they come (dim, cut to the width).
// Unchecked as every ScreenletView (its superclass's promise); its own state is in `tail`'s lock.
final class RunView: ScreenletView, @unchecked Sendable {
    /// How many rows show the command's last lines (0: none).
    let tailRows: Int
    /// The last lines, and where to ask for a frame when they change.
    private let tail = LockedValue(Tail())

    private struct Tail {
        var lines: [String] = []
        /// Once attached. Weak: the screenlet holds this view, and the
        /// runtime behind it.
        weak var screenlet: Screenlet?
    }

    /// A view for `options`, with the messages already read from the file
    /// (`nil` without `--messages`).
    init(options: RunOptions, file: MessagesFile?) {
        tailRows = options.output == .tail ? options.tailLines : 0
        super.init(progressMessages: Self.messages(options: options, file: file))
    }

    /// The view is attached: tail lines from now on ask for a frame.
    /// Without a tail nothing is kept: a weak reference gives the screenlet
    /// a side table, which makes every retain and release of it on the
    /// frame's path a slow one (callgrind: some 250 instructions a frame).
    func attached(to screenlet: Screenlet) {
        guard tailRows > 0 else { return }
        tail.withLock { $0.screenlet = screenlet }
    }

    /// Adds whole lines of the command's output to the tail and asks for a
    /// frame (any thread). Lines that come before the view is attached show
    /// in its first frame. Each shows as a terminal would show it, without
    /// its colours and other escape codes, its tabs expanded, and cut as a
    /// message is (``DisplayText/message(_:)``: 4 KiB, more than a row
    /// shows), so a long line costs each frame what a short one does.
    func appendTail(_ lines: [String]) {
        guard tailRows > 0, !lines.isEmpty else { return }
        let shown = lines.suffix(tailRows).map(DisplayText.message)
        let tailRows = tailRows
        let screenlet: Screenlet? = tail.withLock { tail in
            tail.lines.append(contentsOf: shown)
            if tail.lines.count > tailRows { tail.lines.removeFirst(tail.lines.count - tailRows) }
            return tail.screenlet
        }
        screenlet?.setNeedsDisplay()
    }

    override func draw(in canvas: inout Canvas, at now: UInt64, flags: ViewFlags) -> UInt64? {
        guard tailRows > 0 else { return nil }
        let lines = tail.withLock { $0.lines }
        let top = canvas.rows - tailRows
        let dim = CellStyle(rawValue: UInt32(PRESENTER_STYLE_DIM))
        for (offset, line) in lines.enumerated() where top + offset >= 0 {
            canvas.drawText(
                line, col: 0, row: top + offset, maxColumns: canvas.cols, style: dim,
                ellipsis: flags.contains(.unicode) ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis)
        }
        return nil
    }

    /// The message table. From a file: as written (the runtime falls back to
    /// its "default" action for an action it lacks, and shows nothing for an
    /// action without a working message). From the flags: one table for the
    /// action, whose working message is the command line unless `--working`
    /// says otherwise; no success or failure message unless given (the
    /// presenter then hides at once, and a failure still shows the command's
    /// output and exit status). Either way each message is text to show,
    /// without escape codes (``DisplayText``): `--working "$(tput bold)Building$(tput sgr0)"`
    /// shows `Building`. A message longer than ``DisplayText/longestMessage``
    /// bytes (a long command line) is cut there, with an ellipsis.
    static func messages(options: RunOptions, file: MessagesFile?) -> [String: ProgressMessages] {
        if let file { return file.progressMessages.mapValues { $0.mapValues(DisplayText.message) } }
        var messages: ProgressMessages = [.working: options.working ?? options.commandLine]
        messages[.success] = options.success
        messages[.failure] = options.failure
        return [options.action: messages.mapValues(DisplayText.message)]
    }
}
