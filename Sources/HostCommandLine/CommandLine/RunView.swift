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
/// the command's last N lines as they come (dim, cut to the width), the
/// last of them the line it is still writing, live (``LiveLine``); with
/// `--output stream` (whose whole lines go above the region) its last row
/// shows that line alone, until its newline commits it above. A command
/// that redraws its line 10,000 times a second costs a frame per frame
/// interval: a new state asks for a frame only when none is asked for, and
/// the frame that shows one asks for the next at the runtime's cap; a line
/// that ends asks at once, as whole lines always did.
///
/// With `--working-from-output` the command's latest line (the one it is
/// still writing, else its last whole line) becomes the working message at
/// those frames: at most one message a frame (gum #157).
// Unchecked as every ScreenletView (its superclass's promise); its own state is in `tail`'s lock.
final class RunView: ScreenletView, @unchecked Sendable {
    /// How many rows show the command's output (0: none).
    let tailRows: Int
    /// How many of them may show whole lines (stream's go above the region).
    private let wholeLineRows: Int
    /// `--working-from-output`: the latest line becomes the working message.
    private let followsOutput: Bool
    /// The lines, and where to ask for a frame when they change.
    private let tail = LockedValue(Tail())

    private struct Tail {
        var lines: [String] = []
        /// The unfinished line's state as written (``LiveLine/bytes``), and
        /// as shown, made from it at the frame that shows it.
        var live: [UInt8] = []
        var liveText: String?
        /// Something changed since the last frame drew the view.
        var changed = false
        /// A frame was asked for and has not drawn the view yet.
        var frameAsked = false
        /// Once attached. Weak: the screenlet holds this view, and the
        /// runtime behind it.
        weak var screenlet: Screenlet?
        /// `--working-from-output`: the last message given, and where it goes.
        var message: String?
        var deliver: (@Sendable (String) -> Void)?
    }

    /// The rows of the command's output `options` want below the presenter
    /// (in a terminal).
    static func outputRows(_ options: RunOptions) -> Int {
        switch options.output {
        case .tail: options.tailLines
        case .stream: 1
        case .hide, .onFailure: 0
        }
    }

    /// A view for `options`, with the messages already read from the file
    /// (`nil` without `--messages`).
    init(options: RunOptions, file: MessagesFile?) {
        tailRows = Self.outputRows(options)
        wholeLineRows = options.output == .tail ? tailRows : 0
        followsOutput = options.workingFromOutput && options.output != .hide
        super.init(progressMessages: Self.messages(options: options, file: file))
    }

    /// The view is attached: tail lines from now on ask for a frame.
    /// Without a tail nothing is kept: a weak reference gives the screenlet
    /// a side table, which makes every retain and release of it on the
    /// frame's path a slow one (callgrind: some 250 instructions a frame).
    func attached(to screenlet: Screenlet) {
        guard tailRows > 0 || followsOutput else { return }
        tail.withLock { $0.screenlet = screenlet }
    }

    /// With `--working-from-output`, where the latest line goes as the
    /// working message (on the presenter thread, at a frame).
    func followOutput(_ deliver: @escaping @Sendable (String) -> Void) {
        guard followsOutput else { return }
        tail.withLock { $0.deliver = deliver }
    }

    /// Adds whole lines of the command's output to the tail, and sets the
    /// state of its unfinished line (`live`, as ``LiveLine/bytes``; nil:
    /// unchanged, empty: none), and asks for a frame unless one is asked
    /// for (any thread). What comes before the view is attached shows in
    /// its first frame. Each line shows as a terminal would show it,
    /// without its colours and other escape codes, its tabs expanded, and
    /// cut as a message is (``DisplayText/message(_:)``: 4 KiB, more than
    /// a row shows), so a long line costs each frame what a short one does.
    func show(_ lines: [String], live: [UInt8]?) {
        guard tailRows > 0 || followsOutput, !lines.isEmpty || live != nil else { return }
        let kept = max(wholeLineRows, followsOutput ? 1 : 0)
        let shown = lines.suffix(kept).map(DisplayText.message)
        let screenlet: Screenlet? = tail.withLock { tail in
            tail.lines.append(contentsOf: shown)
            if tail.lines.count > kept { tail.lines.removeFirst(tail.lines.count - kept) }
            if let live { tail.live = live }
            tail.changed = true
            // A line that ended shows at once (stream printed it above: its
            // live state must not stay below); a new state waits its turn.
            guard !tail.frameAsked || !lines.isEmpty || live?.isEmpty == true else { return nil }
            tail.frameAsked = true
            return tail.screenlet
        }
        screenlet?.setNeedsDisplay()
    }

    override func draw(in canvas: inout Canvas, at now: UInt64, flags: ViewFlags) -> UInt64? {
        guard tailRows > 0 || followsOutput else { return nil }
        let (followsOutput, wholeLineRows) = (followsOutput, wholeLineRows)
        let (lines, message, next): ([String], (String, @Sendable (String) -> Void)?, UInt64?) = tail.withLock {
            tail in
            let changed = tail.changed
            if changed { tail.liveText = LiveLine.text(of: tail.live) }
            // A frame that showed a change asks for the next, which the cap
            // puts a frame interval later: changes meanwhile wait for it.
            tail.changed = false
            tail.frameAsked = changed
            var message: (String, @Sendable (String) -> Void)?
            if followsOutput, changed, let deliver = tail.deliver,
                let latest = tail.liveText ?? tail.lines.last.flatMap({ $0.isEmpty ? nil : $0 }), latest != tail.message
            {
                tail.message = latest
                message = (latest, deliver)
            }
            let lines = tail.lines.suffix(wholeLineRows) + (tail.liveText.map { [$0] } ?? [])
            return (Array(lines), message, changed ? now + 1 : nil)
        }
        if let (text, deliver) = message { deliver(text) }
        let shown = lines.suffix(tailRows)
        let top = canvas.rows - tailRows
        let dim = CellStyle(rawValue: UInt32(PRESENTER_STYLE_DIM))
        for (offset, line) in shown.enumerated() where top + offset >= 0 {
            canvas.drawText(
                line, col: 0, row: top + offset, maxColumns: canvas.cols, style: dim,
                ellipsis: flags.contains(.unicode) ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis)
        }
        return next
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
