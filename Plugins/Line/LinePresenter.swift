import PresenterSDK

/// The one-row presenter, after `gum spin`: the spinner and the working
/// message on one row at the cursor, a bar and its percentage at the row's
/// end when the work reports how far it is, and, as the view's last render
/// (`View.Flags.final`), the outcome's line that stays: `✔ Built`,
/// `✖ Build failed: exit status 2`. It declares `one-row`, so the host
/// gives it a view of one row instead of a region of five.
///
/// Options (``LineOptions``): "spinner" (gum's names: dot, line, minidot,
/// jump, pulse, points, globe, moon, monkey, meter, hamburger),
/// "spinner-color" and "title-color" (default, red, green, yellow, blue,
/// magenta, cyan), and the host's "grace-ms" and "failure-hold-ms".
final class LinePresenter: Presenter {
    /// From line.presenters, which is also the library's description.
    static let info = PresenterInfo.line

    /// A running interactor: its working message and its fraction.
    private struct Job {
        let id: UInt64
        var message: String
        var progress: Double?
    }

    let host: Host
    private let options: LineOptions
    /// How long an outcome shows once the work is over, before the row
    /// draws nothing (the host writes the outcome's line that stays from
    /// the final render).
    private let outcomeTime: UInt64
    /// Running interactors, in show order: the row shows the latest.
    private var jobs: [Job] = []
    /// When the first running interactor was shown: the spinner's start.
    private var started: UInt64?
    /// The last interactor's outcome, and until when the row shows it.
    private var outcome: (row: LineRow, until: UInt64)?

    init(host: Host) {
        self.host = host
        options = LineOptions(host: host)
        outcomeTime = UInt64(min(host.integerOption("failure-hold-ms", default: 3000), 1 << 40)) * 1_000_000
    }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        outcome = nil
        if started == nil { started = host.now }
        if let index = jobs.firstIndex(where: { $0.id == interactor.id }) {
            jobs[index].message = message
            jobs[index].progress = interactor.progress
        } else {
            jobs.append(Job(id: interactor.id, message: message, progress: interactor.progress))
        }
    }

    func progress(view: View, interactor: InteractorInfo) throws {
        guard let index = jobs.firstIndex(where: { $0.id == interactor.id }) else { return }
        jobs[index].progress = interactor.progress
        if let message = interactor.message { jobs[index].message = message }
    }

    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        guard let index = jobs.firstIndex(where: { $0.id == interactor.id }) else { return }
        jobs.remove(at: index)
        guard jobs.isEmpty else { return }
        started = nil
        let text = Self.outcomeText(message: message, failure: failure?.message)
        outcome = text.map {
            (LineRow(indicator: failure == nil ? .success : .failure, text: $0), host.now &+ outcomeTime)
        }
    }

    /// What the outcome's line says after its mark: the message, and for a
    /// failure its reason after ": " (`Build failed: exit status 2`), or the
    /// reason alone, or `failed`; nil for a success without a message,
    /// which leaves nothing.
    static func outcomeText(message: String?, failure: String?) -> String? {
        let message = (message ?? "").split(separator: "\n").joined(separator: " ")
        guard let failure else { return message.isEmpty ? nil : message }
        let parts = [message, failure == message ? "" : failure].filter { !$0.isEmpty }
        return parts.isEmpty ? "failed" : parts.joined(separator: ": ")
    }

    func render(view: View, now: UInt64) {
        if view.flags.contains(.final) {
            outcome?.row.draw(on: view, at: now)
            return
        }
        if let outcome {
            guard now < outcome.until else { return }
            outcome.row.draw(on: view, at: now)
            host.requestFrame(at: outcome.until)
            return
        }
        guard let started, let shown = jobs.last(where: { !$0.message.isEmpty }) ?? jobs.last else { return }
        guard now >= started &+ options.grace else {
            host.requestFrame(at: started &+ options.grace)
            return
        }
        let spinner = SpinnerStyle.spinner(named: options.spinnerName, unicode: view.flags.contains(.unicode))
        let others = jobs.count - 1
        let text = others > 0 ? "\(shown.message) (+\(others) more)" : shown.message
        let row = LineRow(
            indicator: .spinner(spinner, since: started, style: options.spinnerStyle), text: text,
            textStyle: options.titleStyle, fraction: shown.progress)
        if let next = row.draw(on: view, at: now) { host.requestFrame(at: next) }
    }
}
