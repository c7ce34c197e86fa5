import PresenterSDK

/// One picture of the HUD: an indicator, the message's first line and an
/// optional details line, drawn as a bordered box centred on the view.
struct HUDContent: Equatable {
    enum Indicator: Equatable {
        /// The indeterminate spinner, started at this time.
        case spinner(since: UInt64)
        /// A determinate bar at this fraction (0...1).
        case bar(Double)
        case success
        case failure
    }

    var indicator: Indicator
    var text: String
    var details: String?
    /// The shown job's time, as the host told it (ABI 1.4).
    var timing: HUDSession.Timing?
    /// The time line under the text, most important part first
    /// (``HUDSession/status(of:at:after:)``): as many as fit are shown.
    var status: [String] = []

    /// The working HUD for `jobs` (in show order): the most recent message,
    /// a count of the others, and a bar when that interactor reports progress.
    init(working jobs: [HUDSession.Job], since start: UInt64) {
        let shown = jobs.last(where: { !$0.message.isEmpty }) ?? jobs.last
        let (text, details) = HUDContent.lines(shown?.message ?? "")
        self.text = HUDContent.counted(text, others: jobs.count - 1)
        self.details = details
        timing = shown?.timing
        indicator = shown?.progress.map(Indicator.bar) ?? .spinner(since: start)
    }

    /// A success: the check mark and the message.
    init(success message: String) {
        (text, details) = HUDContent.lines(message)
        indicator = .success
    }

    /// A failure: the cross, the message, and the failure's own text on the
    /// details line (unless the message already says it).
    init(failure message: String, failureText: String) {
        let (text, details) = HUDContent.lines(message)
        let extra = failureText == text || failureText == message ? "" : failureText
        self.text = text
        self.details = [details ?? "", extra].filter { !$0.isEmpty }.joined(separator: " - ")
        if self.details == "" { self.details = nil }
        indicator = .failure
    }

    /// This outcome with `others` interactors still running counted after
    /// its text: "Index fetched (+1 more)".
    func counting(others: Int) -> HUDContent {
        var counted = self
        counted.text = HUDContent.counted(text, others: others)
        return counted
    }

    /// `text` and "(+N more)" for `others` above 0.
    private static func counted(_ text: String, others: Int) -> String {
        [text, others > 0 ? "(+\(others) more)" : ""].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Splits a message into its first line and the rest (the details line).
    private static func lines(_ message: String) -> (String, String?) {
        // Every frame comes here: a message without a newline byte (most)
        // skips the walk over its characters.
        guard message.utf8.contains(0x0A), let newline = message.firstIndex(of: "\n") else { return (message, nil) }
        let rest = message[message.index(after: newline)...].split(separator: "\n").joined(separator: " ")
        return (String(message[..<newline]), rest.isEmpty ? nil : rest)
    }

    /// Draws the box centred on `view`, each line centred in it; text that
    /// does not fit is cut by the host with an ellipsis. Returns when the
    /// spinner needs the next render, on a host that cannot turn it by
    /// itself (``Spinner/draw(on:col:row:maxCols:style:since:at:)``).
    @discardableResult
    func draw(on view: View, at now: UInt64) -> UInt64? {
        let unicode = view.flags.contains(.unicode)
        let (mark, markStyle) = glyph(unicode: unicode, now: now)
        let markWidth = view.textWidth(mark)
        let lineWidth = markWidth + (text.isEmpty ? 0 : 1 + view.textWidth(text))
        let detailsWidth = details.map(view.textWidth) ?? 0

        let (cols, rows) = view.size
        // The time line takes the parts that fit the view, least important
        // dropped first, and only a row the box has to spare: it never costs the box.
        let statusLine = rows >= (details == nil ? 4 : 5) ? fitting(status, in: cols - 4, on: view) : nil
        let statusWidth = statusLine.map(view.textWidth) ?? 0
        let boxCols = min(max(lineWidth, detailsWidth, statusWidth) + 4, cols)  // a border and a space each side
        let boxRows = 3 + (details == nil ? 0 : 1) + (statusLine == nil ? 0 : 1)
        let left = max((cols - boxCols) / 2, 0)
        let top = max((rows - boxRows) / 2, 0)
        let inner = boxCols - 4
        guard inner > 0, rows >= boxRows else {
            // Too small for the box: the line alone, centred, cut to the view.
            let lineLeft = max((cols - lineWidth) / 2, 0)
            let next = drawMark(
                mark, on: view, col: lineLeft, row: rows / 2, maxCols: cols - lineLeft, style: markStyle, at: now)
            if !text.isEmpty && cols > lineLeft + markWidth + 1 {
                view.drawText(
                    text, col: lineLeft + markWidth + 1, row: rows / 2, maxCols: cols - lineLeft - markWidth - 1)
            }
            return next
        }
        view.drawBox(col: left, row: top, cols: boxCols, rows: boxRows)

        let lineLeft = left + 2 + max(inner - lineWidth, 0) / 2
        let next = drawMark(mark, on: view, col: lineLeft, row: top + 1, maxCols: inner, style: markStyle, at: now)
        if !text.isEmpty && inner > markWidth + 1 {
            view.drawText(text, col: lineLeft + markWidth + 1, row: top + 1, maxCols: inner - markWidth - 1)
        }
        if let details {
            let detailsLeft = left + 2 + max(inner - detailsWidth, 0) / 2
            view.drawText(details, col: detailsLeft, row: top + 2, maxCols: inner, style: .dim)
        }
        if let statusLine {
            let statusLeft = left + 2 + max(inner - statusWidth, 0) / 2
            view.drawText(statusLine, col: statusLeft, row: top + boxRows - 2, maxCols: inner, style: .dim)
        }
        return next
    }

    /// The first of `parts` and as many after it as fit `width` columns,
    /// joined with " · "; `nil` when there are none or the first does not fit.
    private func fitting(_ parts: [String], in width: Int, on view: View) -> String? {
        let separator = view.flags.contains(.unicode) ? " · " : " - "
        for count in stride(from: parts.count, to: 0, by: -1) {
            let line = parts.prefix(count).joined(separator: separator)
            if view.textWidth(line) <= width { return line }
        }
        return nil
    }

    /// The final look (the view's last render, `View.Flags.final`): one
    /// line from the top-left, not the box: the mark, then the text and its
    /// details after ": " (a failure's reason) or " - " (a success's further
    /// lines), cut to the view by the host: `✖ Build failed: exit status 2`.
    /// A failure that says nothing at all reads `✖ failed`. It says no
    /// elapsed time: the line stays as a program's printed line would, the
    /// same for the same outcome however long the work ran (scripts and
    /// logs compare it), as gum's does.
    func drawLine(on view: View) {
        let (mark, markStyle) = glyph(unicode: view.flags.contains(.unicode), now: 0)
        let cols = view.size.cols
        let markWidth = view.drawText(mark, col: 0, row: 0, maxCols: cols, style: markStyle)
        let parts = [text, details ?? ""].filter { !$0.isEmpty }
        let line =
            parts.isEmpty && indicator == .failure
            ? "failed" : parts.joined(separator: indicator == .failure ? ": " : " - ")
        if !line.isEmpty && cols > markWidth + 1 {
            view.drawText(line, col: markWidth + 1, row: 0, maxCols: cols - markWidth - 1)
        }
    }

    /// The indicator: the spinner turning by itself where the host can
    /// (then nil), else `mark` and the time it changes.
    private func drawMark(
        _ mark: String, on view: View, col: Int, row: Int, maxCols: Int, style: View.Style, at now: UInt64
    ) -> UInt64? {
        guard case .spinner(let start) = indicator else {
            view.drawText(mark, col: col, row: row, maxCols: maxCols, style: style)
            return nil
        }
        return Spinner(unicode: view.flags.contains(.unicode)).draw(
            on: view, col: col, row: row, maxCols: maxCols, style: style, since: start, at: now)
    }

    private func glyph(unicode: Bool, now: UInt64) -> (String, View.Style) {
        switch indicator {
        case .spinner(let start): return (Spinner(unicode: unicode).frame(at: now, since: start), .cyan)
        case .bar(let fraction): return (HUDContent.bar(fraction, unicode: unicode), .cyan)
        case .success: return (unicode ? "✔" : "v", .green)
        case .failure: return (unicode ? "✖" : "x", .red)
        }
    }

    /// A ten-cell bar and a right-aligned percentage: `[#####-----]  50%`, or
    /// `█████░░░░░  50%` with Unicode.
    static func bar(_ fraction: Double, unicode: Bool) -> String {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let filled = Int(clamped * 10)
        let bar =
            unicode
            ? String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled)
            : "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 10 - filled) + "]"
        let percent = String(Int(clamped * 100))
        return bar + " " + String(repeating: " ", count: 3 - percent.count) + percent + "%"
    }
}
