import Dispatch
import HostSystem
import HostText

/// Progress as plain lines, for a stream that is not a terminal, `TERM=dumb`
/// or CI. It never writes an escape code: frames are not shown (presenters
/// still run the same), each action prints at most two lines.
///
/// The lines (``line(for:)``):
/// - started, with a non-empty working message: the message
///   (`Saving bookmark...`); the same for each new working message the work
///   reports (`Downloading foo.tar`);
/// - ended: its ``OutcomeLine`` (`✔ Bookmark saved!`, `✖ An error occurred
///   saving the bookmark: connection refused`; nothing for a success
///   without a message), with the marks `[OK]` and `[FAILED]` without a
///   UTF-8 locale.
///
/// Newlines in a message become ` - ` and control characters are dropped.
/// The outcome a terminal keeps is printed here already: ``finish(keeping:)``
/// prints nothing more.
package final class PlainBackend: RenderBackend {
    private let fd: FileDescriptor
    private let unicode: Bool
    private let cols: Int
    private let rows: Int
    private var broken = false

    /// Lines go to `fd` (stderr by default). `unicode` chooses the marks;
    /// `cols` × `rows` is the size presenters are told their view has.
    package init(fd: FileDescriptor = .standardError, unicode: Bool, cols: Int = 80, rows: Int = 5) {
        self.fd = fd
        self.unicode = unicode
        self.cols = cols
        self.rows = rows
    }

    /// The size given at init: lines have no screen to measure.
    package var size: (cols: Int, rows: Int) { (cols, rows) }
    /// Unicode or not; never animated, interactive or coloured.
    package var flags: ViewFlags { unicode ? [.unicode] : [] }

    /// Nothing: plain output has no frames, only ``event(_:)``'s lines.
    package func present(_ canvas: Canvas) {}

    /// Writes the event's line (``line(for:)``), if it has one.
    package func event(_ event: ProgressEvent) {
        if let line = line(for: event) { write(line + "\n") }
    }

    /// Writes `text` as a line of its own (nothing for empty text).
    package func printAbove(_ text: String) {
        guard !text.isEmpty else { return }
        write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Nothing: every line was written when its event came.
    package func finish() {}

    /// The outcome's line was printed when the action ended: nothing more.
    package func finish(keeping look: Canvas?) {}

    /// The line printed for `event`, or `nil` when it prints none.
    package func line(for event: ProgressEvent) -> String? {
        switch event {
        case .progressed:
            return nil  // a line per fraction would flood a log; a new message is a line
        case .started(_, let message), .working(_, let message):
            let text = OutcomeLine.oneLine(message)
            return text.isEmpty ? nil : text
        case .finished(_, let message, let error):
            return OutcomeLine(message: message, error: error)?.line(unicode: unicode)
        }
    }

    private func write(_ text: String) {
        guard !broken else { return }
        broken = !TerminalShim.writeAll(fd, Array(text.utf8))
    }
}
