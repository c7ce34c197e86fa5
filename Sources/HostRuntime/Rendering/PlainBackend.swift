import Dispatch
import FoundationEssentials
import Glibc
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
/// - succeeded, with a non-empty message: `✔ ` and the message
///   (`✔ Bookmark saved!`); nothing without a message;
/// - failed: `✖ `, the message, and the error's text after `: ` when it adds
///   something (not a validation error, whose text already is the message):
///   `✖ An error occurred saving the bookmark: connection refused`; with
///   neither, `✖ failed`.
///
/// Without a UTF-8 locale the marks are `[OK]` and `[FAILED]`. Newlines in a
/// message become ` - ` and control characters are dropped.
public final class PlainBackend: RenderBackend {
    private let fd: FileDescriptor
    private let unicode: Bool
    private let cols: Int
    private let rows: Int
    private var broken = false

    /// Lines go to `fd` (stderr by default). `unicode` chooses the marks;
    /// `cols` × `rows` is the size presenters are told their view has.
    public init(fd: FileDescriptor = .standardError, unicode: Bool, cols: Int = 80, rows: Int = 5) {
        self.fd = fd
        self.unicode = unicode
        self.cols = cols
        self.rows = rows
    }

    public var size: (cols: Int, rows: Int) { (cols, rows) }
    public var flags: ViewFlags { unicode ? [.unicode] : [] }

    public func present(_ canvas: Canvas) {}

    public func event(_ event: ProgressEvent) {
        if let line = line(for: event) { write(line + "\n") }
    }

    public func printAbove(_ text: String) {
        guard !text.isEmpty else { return }
        write(text.hasSuffix("\n") ? text : text + "\n")
    }

    public func finish() {}

    /// The line printed for `event`, or `nil` when it prints none.
    public func line(for event: ProgressEvent) -> String? {
        switch event {
        case .progressed:
            return nil  // a line per fraction would flood a log; a new message is a line
        case .started(_, let message), .working(_, let message):
            let text = Self.oneLine(message)
            return text.isEmpty ? nil : text
        case .finished(_, let message, nil):
            let text = Self.oneLine(message ?? "")
            return text.isEmpty ? nil : (unicode ? "✔ " : "[OK] ") + text
        case .finished(_, let message, let error?):
            let text = Self.oneLine(message ?? "")
            let detail = error.isValidation ? "" : Self.oneLine(error.message)
            let parts = [text, detail == text ? "" : detail].filter { !$0.isEmpty }
            return (unicode ? "✖ " : "[FAILED] ") + (parts.isEmpty ? "failed" : parts.joined(separator: ": "))
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { ControlCharacters.terminal.removed(from: String($0)) }
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }
            .joined(separator: " - ")
    }

    private func write(_ text: String) {
        guard !broken else { return }
        broken = !TerminalShim.writeAll(fd, Array(text.utf8))
    }
}
