import HostEngine
import HostRuntime
import HostText
import PresenterABI

/// The Add Bookmark screen's view, laid out like the original sample's: a
/// "Site URL" field; a "Title" field with a get-title button beside it and
/// an activity indicator over that button (shown only while it animates);
/// a full-width ADD BOOKMARK button; below it the presenter's rows (the
/// HUD: ``presenterRows(forRows:)``), then the status.
///
/// The status says what the HUD says, from the same events at the same
/// frame (``actionStarted(_:message:)``, ``actionEnded(_:message:error:)``,
/// called in the job that gives the presenter its show and hide): the
/// working message while saving, the outcome once it ends, a failure with
/// its reason after the message (`✖ An error occurred retrieving the
/// title: HTTP 404 from …`). It wraps over the rows down to the help line,
/// so a long reason is read whole (the HUD's box shows it cut to its width).
///
/// Its presenter is addbookmark (``createProgressPresenter()``), which
/// drives the two elements while a title is fetched and shows the HUD for
/// everything else. Keys reach it, but for the one a failure its presenter
/// shows waits for (``PresenterRuntime/key(_:)``); ``onRequest`` gets what
/// the form asks for.
///
/// With ``Layout/line`` (no screen: `--get-title` and `--add` in a
/// terminal) it draws only the indicator and what it is fetching, on one line.
///
/// Presenter thread only, like every view (see ``ScreenletView``): the
/// screen changes the form through ``PresenterRuntime/sync(_:)``.
// Safe: presenter thread only, like every view; others reach it through `PresenterRuntime.sync`.
package final class AddBookmarkView: ScreenletView, @unchecked Sendable {
    /// The two ways the view is drawn.
    package enum Layout: Sendable {
        /// The whole form (the full screen).
        case form
        /// One line: the indicator and the URL whose title is fetched.
        case line
    }

    /// The action and interactor names, and the elements, of the original.
    package static let addAction = "add-bookmark"
    package static let getTitleAction = "get-title"
    package static let buttonElement = "get-title-button"
    package static let indicatorElement = "activity-indicator"

    /// The original's messages.
    package static let defaultMessages: [String: ProgressMessages] = [
        addAction: [
            .working: "Saving bookmark...", .success: "Bookmark saved!",
            .failure: "An error occurred saving the bookmark",
        ],
        getTitleAction: [.working: NoProgressMessage, .failure: "An error occurred retrieving the title"],
    ]

    /// The smallest terminal the form fits in.
    package static let minimumSize = (cols: 40, rows: 18)

    /// The first row below the ADD BOOKMARK button.
    static let belowButtons = 14

    /// The rows the presenter's view covers on a screen of `rows` rows:
    /// from just below the ADD BOOKMARK button, four rows (a HUD box with a
    /// details line) when the screen has them, down to one on the
    /// smallest; the status and the help line are below them.
    package static func presenterRows(forRows rows: Int) -> Range<Int> {
        belowButtons..<belowButtons + min(4, max(1, rows - 17))
    }

    /// The form (presenter thread only).
    package var form: BookmarkForm
    /// What the line layout says it is fetching.
    package var lineText = ""
    /// Why the presenter is gone, shown above the status line from then on.
    package var presenterProblem: String?
    /// Gets the form's requests (on the presenter thread).
    package var onRequest: ((BookmarkForm.Request) -> Void)?

    private let layout: Layout
    private let presenterID: String
    private let button = ViewElement()
    private let indicator = ViewElement(hidesWhenStopped: true)
    /// How long one frame of the indicator shows, in ns.
    private static let spinnerPeriod: UInt64 = 80_000_000

    /// A view of the form with `form`'s values, `presenter`'s id and the
    /// given messages (the original's when `nil`).
    package init(
        form: BookmarkForm, layout: Layout, presenter: String = "addbookmark",
        messages: [String: ProgressMessages]? = nil
    ) {
        self.form = form
        self.layout = layout
        presenterID = presenter
        super.init(progressMessages: messages ?? Self.defaultMessages)
        elements = [Self.buttonElement: button, Self.indicatorElement: indicator]
    }

    package override func createProgressPresenter() -> String { presenterID }

    /// Saves started and not ended: the HUD shows saving, so the status
    /// says nothing else meanwhile (``sayUnlessSaving(_:)``).
    package private(set) var savesInFlight = 0

    /// Sets the status to `status` unless a save is in flight (a title
    /// that came while saving: the status keeps saying what the HUD says).
    package func sayUnlessSaving(_ status: BookmarkForm.Status) {
        if savesInFlight == 0 { form.status = status }
    }

    package override func actionStarted(_ action: String, message: String?) {
        guard action == Self.addAction else { return }
        savesInFlight += 1
        form.status = .info(message.flatMap { $0.isEmpty ? nil : $0 } ?? "Saving the bookmark...")
    }

    package override func actionEnded(_ action: String, message: String?, error: InteractorError?) {
        if action == Self.addAction { savesInFlight = max(0, savesInFlight - 1) }
        let said = message.flatMap { $0.isEmpty ? nil : $0 }
        if let error {
            let reason = error.message.isEmpty || error.message == said ? nil : error.message
            let failure = BookmarkForm.Status.failure([said, reason].compactMap { $0 }.joined(separator: ": "))
            if action == Self.addAction { form.status = failure } else { sayUnlessSaving(failure) }
        } else if action == Self.addAction {
            form.status = .success(said ?? "Saved")
        }
        // A title that came: the screen says what it got.
    }

    package override func handleKey(_ code: UInt32) -> Bool {
        guard layout == .form, let key = TerminalKey(code: code) else { return false }
        handle(key)
        return true
    }

    /// Applies a key or a paste that reached the view (presenter thread).
    package func handle(_ key: TerminalKey) {
        for request in form.handle(key) { onRequest?(request) }
    }

    package override func draw(in canvas: inout Canvas, at now: UInt64, flags: ViewFlags) -> UInt64? {
        let unicode = flags.contains(.unicode)
        switch layout {
        case .line:
            guard indicator.isVisible else { return nil }
            let glyph = spinner(at: now, unicode: unicode)
            canvas.drawText(glyph + " " + lineText, col: 0, row: 0, maxColumns: canvas.cols)
        case .form:
            drawForm(in: &canvas, now: now, unicode: unicode)
        }
        return indicator.isVisible && indicator.isAnimating ? now + Self.spinnerPeriod - now % Self.spinnerPeriod : nil
    }

    // MARK: - Drawing the form

    private func drawForm(in canvas: inout Canvas, now: UInt64, unicode: Bool) {
        guard canvas.cols >= Self.minimumSize.cols, canvas.rows >= Self.minimumSize.rows else {
            let text = "Enlarge the terminal to \(Self.minimumSize.cols)×\(Self.minimumSize.rows) or more; Esc leaves"
            canvas.drawText(
                unicode ? text : text.replacingEvery("×", with: "x"),
                col: 0, row: 0, maxColumns: canvas.cols, ellipsis: unicode ? "…" : "...")
            return
        }
        let left = 2
        let width = min(canvas.cols - 2 * left, 76)
        let bold = CellStyle(rawValue: UInt32(PRESENTER_STYLE_BOLD))
        let dim = CellStyle(rawValue: UInt32(PRESENTER_STYLE_DIM))
        canvas.drawText("Add Bookmark", col: left, row: 0, maxColumns: width, style: bold)

        drawField(
            &canvas, label: "Site URL", field: &form.url, focused: form.focus == .url,
            col: left, row: 2, width: width, unicode: unicode)
        let buttonWidth = 13
        drawField(
            &canvas, label: "Title", field: &form.title, focused: form.focus == .title,
            col: left, row: 6, width: width - buttonWidth - 1, unicode: unicode)

        // The get-title button, and the indicator placed over it.
        let buttonCol = left + width - buttonWidth
        if indicator.isVisible {
            canvas.drawBox(col: buttonCol, row: 7, width: buttonWidth, height: 3, style: dim, unicode: unicode)
            canvas.drawText(spinner(at: now, unicode: unicode), col: buttonCol + buttonWidth / 2, row: 8, maxColumns: 1)
        } else if !button.isHidden {
            drawButton(
                &canvas, label: "Get title", focused: form.focus == .getTitle, enabled: form.canGetTitle,
                col: buttonCol, row: 7, width: buttonWidth, unicode: unicode)
        }
        drawButton(
            &canvas, label: "ADD BOOKMARK", focused: form.focus == .add, enabled: true,
            col: left, row: 11, width: width, unicode: unicode)

        let hud = Self.presenterRows(forRows: canvas.rows)
        if let presenterProblem {
            // In the presenter's rows: it is gone.
            drawWrapped(
                presenterProblem, in: &canvas, col: left, rows: hud, width: width,
                style: CellStyle(rawValue: PRESENTER_COLOR_YELLOW), unicode: unicode)
        }
        drawStatus(&canvas, col: left, rows: hud.upperBound..<canvas.rows - 2, width: width, unicode: unicode)
        let help = unicode ? "Tab ↑ ↓ move · Enter press · Esc leave" : "Tab/Up/Down move - Enter press - Esc leave"
        canvas.drawText(help, col: left, row: canvas.rows - 1, maxColumns: width, style: dim)
    }

    private func drawField(
        _ canvas: inout Canvas, label: String, field: inout TextField, focused: Bool,
        col: Int, row: Int, width: Int, unicode: Bool
    ) {
        let labelStyle = CellStyle(rawValue: focused ? UInt32(PRESENTER_STYLE_BOLD) : 0)
        canvas.drawText(label, col: col, row: row, maxColumns: width, style: labelStyle)
        let boxStyle = focused ? CellStyle(rawValue: UInt32(PRESENTER_STYLE_BOLD) | PRESENTER_COLOR_CYAN) : .plain
        canvas.drawBox(col: col, row: row + 1, width: width, height: 3, style: boxStyle, unicode: unicode)
        let (text, caret) = field.visible(columns: width - 4)
        canvas.drawText(text, col: col + 2, row: row + 2, maxColumns: width - 4, ellipsis: "")
        guard focused else { return }
        // The caret: the cell under it in reverse video (the terminal's own
        // cursor stays hidden, so nothing depends on where it is left).
        let caretCol = col + 2 + caret
        let under = canvas.contains(col: caretCol, row: row + 2) ? canvas[caretCol, row + 2].text : " "
        canvas.drawText(
            under.isEmpty ? " " : under, col: caretCol, row: row + 2, maxColumns: 2,
            style: CellStyle(rawValue: UInt32(PRESENTER_STYLE_REVERSE)), ellipsis: "")
    }

    private func drawButton(
        _ canvas: inout Canvas, label: String, focused: Bool, enabled: Bool,
        col: Int, row: Int, width: Int, unicode: Bool
    ) {
        var style = CellStyle.plain
        if !enabled { style = CellStyle(rawValue: UInt32(PRESENTER_STYLE_DIM)) }
        if focused { style = CellStyle(rawValue: UInt32(PRESENTER_STYLE_BOLD) | PRESENTER_COLOR_CYAN) }
        canvas.drawBox(col: col, row: row, width: width, height: 3, style: style, unicode: unicode)
        let labelCol = col + max(1, (width - label.count) / 2)
        let labelStyle = focused ? CellStyle(rawValue: UInt32(PRESENTER_STYLE_REVERSE | PRESENTER_STYLE_BOLD)) : style
        canvas.drawText(label, col: labelCol, row: row + 1, maxColumns: width - 2, style: labelStyle)
    }

    private func drawStatus(_ canvas: inout Canvas, col: Int, rows: Range<Int>, width: Int, unicode: Bool) {
        let text: String, tint: UInt32
        switch form.status {
        case .none: return
        case .info(let message): (text, tint) = (message, 0)
        case .success(let message): (text, tint) = ((unicode ? "✔ " : "[OK] ") + message, PRESENTER_COLOR_GREEN)
        case .failure(let message): (text, tint) = ((unicode ? "✖ " : "[FAILED] ") + message, PRESENTER_COLOR_RED)
        }
        drawWrapped(
            text, in: &canvas, col: col, rows: rows, width: width, style: CellStyle(rawValue: tint), unicode: unicode)
    }

    /// `text` wrapped over `rows`, `width` columns each; the last row ends
    /// with an ellipsis when even they cannot hold it.
    private func drawWrapped(
        _ text: String, in canvas: inout Canvas, col: Int, rows: Range<Int>, width: Int, style: CellStyle,
        unicode: Bool
    ) {
        guard !rows.isEmpty else { return }
        let lines = DisplayWidth.wrap(Canvas.withoutControls(text), toColumns: width)
        for (index, row) in rows.enumerated() where index < lines.count {
            let last = index == rows.count - 1 && lines.count > rows.count
            canvas.drawText(
                last ? lines[index...].joined(separator: " ") : lines[index], col: col, row: row,
                maxColumns: width, style: style, ellipsis: unicode ? "…" : "...")
        }
    }

    private func spinner(at now: UInt64, unicode: Bool) -> String {
        let frames = unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
        return frames[Int((now / Self.spinnerPeriod) % UInt64(frames.count))]
    }
}
