import HostEngine
import HostText
import PresenterABI

/// How an action ended, in the one line the host writes itself: a plain
/// line (``PlainBackend``), and in a terminal the outcome that stays when
/// the presenter leaves no final look of its own (one built for ABI 1.2 or
/// older, one that drew nothing in its last render, one that failed), so
/// that the user sees how it ended whatever the presenter.
///
/// - a success with a message: `✔ Bookmark saved!`; none without one;
/// - a failure: `✖ `, the message, and the error's text after `: ` when it
///   adds something (not a validation error, whose text already is the
///   message): `✖ An error occurred saving the bookmark: connection
///   refused`; with neither, `✖ failed`.
///
/// Without Unicode the marks are `[OK]` and `[FAILED]`. Newlines in a
/// message become ` - ` and control characters are dropped.
package struct OutcomeLine: Equatable, Sendable {
    /// The action succeeded.
    package let succeeded: Bool
    /// What follows the mark: never empty.
    package let text: String

    /// The line of an action that ended with `message` (what hide got) and
    /// `error` (`nil` on success); `nil` for a success without a message.
    package init?(message: String?, error: InteractorError?) {
        let text = Self.oneLine(message ?? "")
        guard let error else {
            guard !text.isEmpty else { return nil }
            self.init(succeeded: true, text: text)
            return
        }
        let detail = error.isValidation ? "" : Self.oneLine(error.message)
        let parts = [text, detail == text ? "" : detail].filter { !$0.isEmpty }
        self.init(succeeded: false, text: parts.isEmpty ? "failed" : parts.joined(separator: ": "))
    }

    private init(succeeded: Bool, text: String) {
        self.succeeded = succeeded
        self.text = text
    }

    /// `✔` or `✖`, or `[OK]` or `[FAILED]` without Unicode.
    package func mark(unicode: Bool) -> String {
        switch (succeeded, unicode) {
        case (true, true): "✔"
        case (false, true): "✖"
        case (true, false): "[OK]"
        case (false, false): "[FAILED]"
        }
    }

    /// The mark, a space and the text.
    package func line(unicode: Bool) -> String { mark(unicode: unicode) + " " + text }

    /// Draws the line from the top-left of `canvas`: the mark in green or
    /// red (colour the backend drops where the user wants none), the text
    /// after it, cut with an ellipsis to the canvas's width. A canvas too
    /// narrow for more shows the mark alone; too narrow for `[FAILED]`, a
    /// one-cell mark (`x`, or `v` for `[OK]`), so that one column still says
    /// how it ended.
    func draw(on canvas: inout Canvas, unicode: Bool) {
        let ellipsis = unicode ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis
        let color = CellStyle(rawValue: UInt32(succeeded ? PRESENTER_COLOR_GREEN : PRESENTER_COLOR_RED))
        var mark = mark(unicode: unicode)
        if DisplayWidth.of(mark) > canvas.cols { mark = unicode ? mark : succeeded ? "v" : "x" }
        let markWidth = canvas.drawText(mark, col: 0, row: 0, maxColumns: canvas.cols, style: color, ellipsis: ellipsis)
        canvas.drawText(
            text, col: markWidth + 1, row: 0, maxColumns: canvas.cols - markWidth - 1, ellipsis: ellipsis)
    }

    /// `text` on one line: its lines trimmed and joined with ` - `, control
    /// characters dropped (plain lines' working messages too), and the
    /// bidirectional formatting characters a drawing drops
    /// (``ControlCharacters/all``), so plain lines show what a region shows.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { ControlCharacters.all.removed(from: String($0)) }
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }
            .joined(separator: " - ")
    }
}
