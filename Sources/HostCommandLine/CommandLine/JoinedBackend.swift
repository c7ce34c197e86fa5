import HostRuntime
import HostText

/// A run that joined another's region (``TerminalShare/Role/joiner``):
/// it draws nothing of its own, and the lines it would print (its outcome
/// line, as plain lines print it; its streamed output; `--events -`) go to
/// the holder, which prints them above its region
/// (``TerminalShare/send(_:)``).
final class JoinedBackend: RenderBackend {
    private let share: TerminalShare
    private let unicode: Bool

    init(share: TerminalShare, unicode: Bool) {
        self.share = share
        self.unicode = unicode
    }

    /// A size presenters are never told: no presenter runs for a joiner.
    var size: (cols: Int, rows: Int) { (80, 1) }
    /// Unicode or not, as the outcome's marks are.
    var flags: ViewFlags { unicode ? [.unicode] : [] }

    /// Nothing: the holder's region is the one drawn.
    func present(_ canvas: Canvas) {}

    /// The outcome line, to the holder (nothing for a success without a message).
    func event(_ event: ProgressEvent) {
        guard case .finished(_, let message, let error) = event,
            let line = OutcomeLine(message: message, error: error)?.line(unicode: unicode)
        else { return }
        share.send(line + "\n")
    }

    /// To the holder, above its region.
    func printAbove(_ text: String) {
        share.send(text)
    }

    /// Nothing on the screen to take off.
    func finish() {}
}
