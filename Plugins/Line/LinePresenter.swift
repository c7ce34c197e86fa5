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
/// magenta, cyan), "elapsed-after-ms" (when the elapsed time, the ETA and
/// the rate join the row: 3000), and the host's "grace-ms" and "failure-hold-ms".
final class LinePresenter: Presenter {
    /// From line.presenters, which is also the library's description.
    static let info = PresenterInfo.line

    /// A running interactor: its working message, its fraction, and what
    /// the host measured of its time (ABI 1.4) and when it told it.
    private struct Job {
        let id: UInt64
        var message: String
        var progress: Double?
        var timing: InteractorInfo
        var toldAt: UInt64
    }

    let host: Host
    private let options: LineOptions
    /// How long an outcome shows once the work is over, before the row
    /// draws nothing (the host writes the outcome's line that stays from
    /// the final render).
    private let outcomeTime: UInt64
    /// How long an interactor runs before its elapsed time shows, with its
    /// ETA and rate for determinate progress ("elapsed-after-ms", as mbhud).
    private let elapsedAfter: UInt64
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
        elapsedAfter = UInt64(min(host.integerOption("elapsed-after-ms", default: 3000), 1 << 40)) * 1_000_000
    }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        outcome = nil
        if started == nil { started = host.now }
        if let index = jobs.firstIndex(where: { $0.id == interactor.id }) {
            jobs[index].message = message
            jobs[index].progress = interactor.progress
            (jobs[index].timing, jobs[index].toldAt) = (interactor, host.now)
        } else {
            jobs.append(
                Job(
                    id: interactor.id, message: message, progress: interactor.progress, timing: interactor,
                    toldAt: host.now))
        }
    }

    func progress(view: View, interactor: InteractorInfo) throws {
        guard let index = jobs.firstIndex(where: { $0.id == interactor.id }) else { return }
        jobs[index].progress = interactor.progress
        (jobs[index].timing, jobs[index].toldAt) = (interactor, host.now)
        if let message = interactor.message { jobs[index].message = message }
    }

    /// The job's time fields once it has run ``elapsedAfter`` (the elapsed
    /// time, then the ETA counting down from when the host told it, then
    /// the rate), and when they next change; none from a host that
    /// measures no time (before ABI 1.4).
    private func times(of job: Job, at now: UInt64) -> (fields: [String], change: UInt64?) {
        guard let startedAt = job.timing.startedAt else { return ([], nil) }
        let shownFrom = startedAt &+ elapsedAfter
        guard now >= shownFrom else { return ([], shownFrom) }
        var fields = [Elapsed.format(from: startedAt, to: now)]
        if let eta = job.timing.eta {
            let since = now > job.toldAt ? Double(now - job.toldAt) / 1e9 : 0
            fields.append("ETA " + Elapsed.format(seconds: max(eta - since, 0)))
        }
        if let rate = job.timing.rate {
            fields.append(Rate.format(perSecond: rate, ofFraction: job.timing.done == nil))
        }
        return (fields, Elapsed.nextChange(from: startedAt, after: now))
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
        let (times, change) = times(of: shown, at: now)
        let row = LineRow(
            indicator: .spinner(spinner, since: started, style: options.spinnerStyle), text: text,
            textStyle: options.titleStyle, fraction: shown.progress, times: times)
        let next = row.draw(on: view, at: now)
        if let wake = [next, change].compactMap({ $0 }).min() { host.requestFrame(at: wake) }
    }
}
