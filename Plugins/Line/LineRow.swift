import PresenterSDK

/// One picture of the row, left to right: the indicator (the spinner, or
/// an outcome's mark), the message, then, at the right end, a bar with its
/// percentage when the work says how far it is. Each part is cut to fit
/// the view's width, the message first, so that a narrow terminal (20
/// columns) still shows the spinner, a few letters and the percentage.
struct LineRow {
    /// What stands before the message.
    enum Indicator {
        /// The spinner, started at this time, in its style's colour.
        case spinner(Spinner, since: UInt64, style: View.Style)
        /// The check mark of a success.
        case success
        /// The cross of a failure.
        case failure
    }

    var indicator: Indicator
    var text: String
    var textStyle: View.Style = []
    /// The completed fraction (0...1), drawn as a bar; nil when unknown.
    var fraction: Double?
    /// The elapsed time, the ETA and the rate, most important first, as
    /// far as the presenter shows them (ABI 1.4's interactor times).
    var times: [String] = []
    /// The fields drawn after the bar, right-aligned, in this order: the
    /// percentage, then ``times``.
    var fields: [String] {
        (fraction.map { [LineRow.percent($0)] } ?? []) + times
    }

    /// The narrowest message kept before the bar gives way: under it the
    /// bar is left out, the percentage kept.
    static let shortestText = 6
    /// The widest bar, in cells.
    static let widestBar = 30

    /// Draws the row on the view's first row. Returns when the spinner needs
    /// the next render, on a host that cannot turn it by itself.
    @discardableResult
    func draw(on view: View, at now: UInt64) -> UInt64? {
        let cols = view.size.cols
        let unicode = view.flags.contains(.unicode)
        var next: UInt64?
        var left = 0
        switch indicator {
        case .spinner(let spinner, let start, let style):
            let width = spinner.frames.map(view.textWidth).max() ?? 1
            next = spinner.draw(on: view, col: 0, row: 0, maxCols: cols, style: style, since: start, at: now)
            left = width + 1
        case .success:
            left = view.drawText(unicode ? "✔" : "v", col: 0, row: 0, maxCols: cols, style: .green) + 1
        case .failure:
            left = view.drawText(unicode ? "✖" : "x", col: 0, row: 0, maxCols: cols, style: .red) + 1
        }
        // The times give way first, the rate before the ETA before the
        // elapsed time, so that the message keeps a few letters.
        var shownFields = fields
        while shownFields.count > (fraction == nil ? 0 : 1)
            && cols - left - view.textWidth(shownFields.joined(separator: " ")) - 1 < Self.shortestText
        {
            shownFields.removeLast()
        }
        let trailing = shownFields.joined(separator: " ")
        let trailingWidth = trailing.isEmpty ? 0 : view.textWidth(trailing)
        var right = cols
        if trailingWidth > 0 && cols - left - trailingWidth - 1 >= 1 {
            right -= trailingWidth
            view.drawText(trailing, col: right, row: 0, maxCols: trailingWidth)
            right -= 1
        }
        if let fraction {
            let barWidth = min(Self.widestBar, (cols - left) / 3, right - left - Self.shortestText - 1)
            if barWidth >= 4 {
                right -= barWidth
                view.drawText(Self.bar(fraction, width: barWidth, unicode: unicode), col: right, row: 0, style: style)
                right -= 1
            }
        }
        if !text.isEmpty && right > left {
            view.drawText(text, col: left, row: 0, maxCols: right - left, style: textStyle)
        }
        return next
    }

    /// The bar's colour: the spinner's.
    private var style: View.Style {
        if case .spinner(_, _, let style) = indicator { return style }
        return []
    }

    /// `width` cells of bar: `███░░░`, or `[##--]` without Unicode.
    static func bar(_ fraction: Double, width: Int, unicode: Bool) -> String {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let inside = unicode ? width : width - 2
        let filled = Int(clamped * Double(inside))
        return unicode
            ? String(repeating: "█", count: filled) + String(repeating: "░", count: inside - filled)
            : "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: inside - filled) + "]"
    }

    /// `42%`, right-aligned in four cells.
    static func percent(_ fraction: Double) -> String {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let text = String(Int(clamped * 100)) + "%"
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }
}
