import PresenterSDK

/// The network activity indicator: a small spinner in the top-right cell of
/// the view, shown exactly while at least one interactor of any view is in
/// flight. While work runs it shows no messages, as the original "doesn't
/// support messages"; what stays after the host has left (the view's last
/// render, `View.Flags.final`) is how the view's last interactor ended, one
/// line from the top-left: `✔ Built`, `✖ Build failed: exit status 2`.
final class NetActivityPresenter: Presenter {
    /// From netactivity.presenters, which is also the library's description.
    static let info = PresenterInfo.netactivity

    let host: Host
    private let counter = ActivityCounter.shared
    /// How this view's last interactor ended (hooks run on one thread):
    /// the success message, or the failure's message and its text; `nil`
    /// while one runs.
    private var ending: (message: String?, failure: String?)?

    init(host: Host) {
        self.host = host
        counter.watch(ObjectIdentifier(self), host: host)
    }

    deinit {
        counter.unwatch(ObjectIdentifier(self))
    }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        counter.begin(interactor.id, owner: ObjectIdentifier(self))
        ending = nil
    }

    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        counter.end(interactor.id, owner: ObjectIdentifier(self))
        ending = (message, failure?.message)
    }

    func render(view: View, now: UInt64) {
        if view.flags.contains(.final) { return drawEnding(on: view) }
        guard counter.count > 0 else { return }
        // Timed from the clock's origin so that every view's spinner turns together.
        let spinner = Spinner(unicode: view.flags.contains(.unicode))
        if let next = spinner.draw(
            on: view, col: view.size.cols - 1, row: 0, maxCols: 1, style: .cyan, since: 0, at: now)
        {
            host.requestFrame(at: next)
        }
    }

    /// The final look: the mark in the first cell, the message after it
    /// (and a failure's text after ": ", when it says more); nothing for a
    /// success without a message, whose view simply goes.
    private func drawEnding(on view: View) {
        guard let (message, failure) = ending else { return }
        let said = message ?? ""
        let text: String
        if let failure {
            let parts = [said, failure == said ? "" : failure].filter { !$0.isEmpty }
            text = parts.isEmpty ? "failed" : parts.joined(separator: ": ")
        } else {
            guard !said.isEmpty else { return }
            text = said
        }
        let unicode = view.flags.contains(.unicode)
        let (mark, style): (String, View.Style) =
            failure == nil ? (unicode ? "✔" : "v", .green) : (unicode ? "✖" : "x", .red)
        let cols = view.size.cols
        let drawn = view.drawText(mark, col: 0, row: 0, maxCols: cols, style: style)
        if cols > drawn + 1 { view.drawText(text, col: drawn + 1, row: 0, maxCols: cols - drawn - 1) }
    }
}
