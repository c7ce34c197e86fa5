// A complete presenter plugin written with PresenterSDK, as a third party
// would write one: a one-line status bar ("⠋ Saving bookmark...") on the
// bottom row of the view (or the top row, with the option row=top), then the
// success or failure message for two seconds; what stays once the host has
// left is that message, one line from the top.
//
// Build it as a shared object with SwiftPM:
//   .library(name: "SwiftExamplePresenter", type: .dynamic, targets: ["SwiftExamplePresenter"])
// and put libSwiftExamplePresenter.so where presenter-host looks for plugins.

import PresenterABI
import PresenterSDK

/// The entry point: the only symbol the host looks up. It lists the
/// presenters in this library, one per index, and returns nil after the last.
@c public func presenter_plugin_descriptor(_ index: UInt32) -> UnsafePointer<presenter_descriptor>? {
    PresenterExport.descriptor(at: index, of: [StatusLinePresenter.self])
}

/// One instance per view. The host calls it on one thread, one hook at a time,
/// so plain stored properties need no lock.
final class StatusLinePresenter: Presenter {
    // What `presenter-host --list` shows, written once in
    // swift-example.presenters: the SDK's PresenterDescription build plugin
    // makes this value and the library's description notes from it, which
    // presenter-host reads without loading the library. Its `hooks` line
    // lists the hooks implemented below; progress and key are left NULL
    // (nothing to inherit: no `extends`).
    static let info = PresenterInfo.swiftExample

    /// How long the success or failure message stays, in nanoseconds.
    static let outcomeTime: UInt64 = 2_000_000_000

    let host: Host
    /// The row to draw on.
    private let atTop: Bool
    /// The working message of each running interactor, by id, in show order.
    private var working: [(id: UInt64, message: String)] = []
    /// When the first running interactor started: the spinner's start.
    private var started: UInt64 = 0
    /// The last interactor's result line and when it goes away.
    private var outcome: (line: String, style: View.Style, until: UInt64)?

    /// Reads the options. Throwing here refuses the instance: the host reports
    /// the message and never calls another hook of it.
    init(host: Host) throws {
        self.host = host
        switch host.option("row") ?? "bottom" {
        case "bottom": atTop = false
        case "top": atTop = true
        case let other: throw PresenterError(.invalid, "option row=\"\(other)\" is not top or bottom; use one of them")
        }
    }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        if working.isEmpty { started = host.now }
        working.append((interactor.id, message))
        outcome = nil
    }

    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        // Only ids that were shown count; a repeated hide changes nothing.
        guard let index = working.firstIndex(where: { $0.id == interactor.id }) else { return }
        working.remove(at: index)
        guard working.isEmpty, let message, !message.isEmpty else { return }
        let unicode = view.flags.contains(.unicode)
        if let failure {
            let reason = failure.message.isEmpty ? "" : ": \(failure.message)"
            outcome = ((unicode ? "✖ " : "x ") + message + reason, .red, host.now + Self.outcomeTime)
        } else {
            outcome = ((unicode ? "✔ " : "v ") + message, .green, host.now + Self.outcomeTime)
        }
    }

    // The host clears the view before each render, so draw the whole line
    // every time, and ask for a frame only for the next change.
    func render(view: View, now: UInt64) {
        let (cols, rows) = view.size
        // The view's last render: what it draws stays, so the outcome goes on
        // the top row whatever its time (nothing lets the host write its line).
        if view.flags.contains(.final) {
            if let outcome { view.drawText(outcome.line, col: 0, row: 0, maxCols: cols, style: outcome.style) }
            return
        }
        let row = atTop ? 0 : rows - 1
        if let latest = working.last {
            // The host turns the spinner by itself where it can (ABI 1.2);
            // a host whose table lacks the service needs a frame at each change.
            let spinner = Spinner(unicode: view.flags.contains(.unicode))
            if let next = spinner.draw(on: view, col: 0, row: row, maxCols: 1, style: .cyan, since: started, at: now) {
                host.requestFrame(at: next)
            }
            view.drawText(latest.message, col: 2, row: row, maxCols: cols - 2)
        } else if let outcome, now < outcome.until {
            view.drawText(outcome.line, col: 0, row: row, maxCols: cols, style: outcome.style)
            host.requestFrame(at: outcome.until)
        }
    }
}
